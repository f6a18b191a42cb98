package dev.baton.framework.internal;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonException;
import dev.baton.framework.Failures;
import dev.baton.framework.SetDataBuilder;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/** setData, with an optional version and idempotent retries. */
final class SetDataOp implements SetDataBuilder {
    private final NamespacedClient c;
    private int version = -1;
    private boolean idempotent;

    SetDataOp(NamespacedClient c) {
        this.c = c;
    }

    @Override
    public SetDataBuilder withVersion(int v) {
        if (v < -1) {
            throw new IllegalArgumentException("version must be -1 (any) or a node version, was " + v);
        }
        this.version = v;
        return this;
    }

    @Override
    public SetDataBuilder idempotent() {
        this.idempotent = true;
        return this;
    }

    @Override
    public Stat forPath(String path, byte[] data) throws InterruptedException {
        Objects.requireNonNull(data, "data");
        String full = c.prepare("setData", path, false);
        c.checkSize("setData", path, full, data.length);
        return c.retry().call("setData", path, (zk, n) -> {
            try {
                return zk.setData(full, data, version);
            } catch (KeeperException.BadVersionException e) {
                Stat mine = appliedByEarlierAttempt(zk, full, data, n);
                if (mine != null) {
                    return mine;
                }
                throw e;
            }
        });
    }

    @Override
    public CompletableFuture<Stat> forPathAsync(String path, byte[] data) {
        String full;
        try {
            Objects.requireNonNull(data, "data");
            full = c.prepare("setData", path, false);
            c.checkSize("setData", path, full, data.length);
        } catch (BatonException | NullPointerException e) {
            return CompletableFuture.failedFuture(e);
        }
        return c.retry().callAsync("setData", path, (zk, n) -> c.zk().setData(zk, full, data, version, "setData", path)
            .exceptionallyCompose(e -> {
                if (Failures.unwrap(e) instanceof BadVersionException && idempotent && n > 0 && version >= 0) {
                    return c.zk().getData(zk, full, null, "setData", path).thenApply(current -> {
                        if (isMine(current.stat(), current.data(), data)) {
                            return current.stat();
                        }
                        throw Failures.rethrow(e);
                    });
                }
                return CompletableFuture.failedFuture(Failures.unwrap(e));
            }));
    }

    /** After a lost reply, the node one version ahead with exactly our data means our write landed. */
    private Stat appliedByEarlierAttempt(ZooKeeper zk, String full, byte[] data, int attempt)
        throws KeeperException, InterruptedException {
        if (!idempotent || attempt == 0 || version < 0) {
            return null;
        }
        Stat stat = new Stat();
        byte[] current = zk.getData(full, false, stat);
        return isMine(stat, current, data) ? stat : null;
    }

    private boolean isMine(Stat stat, byte[] current, byte[] data) {
        return stat.getVersion() == version + 1 && Arrays.equals(current, data);
    }
}

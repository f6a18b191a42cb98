package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.TransactionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

/** A transaction (ZooKeeper multi): operations are validated as they are added, applied together at commit. */
final class TransactionOp implements TransactionBuilder {
    private static final int OVERHEAD_PER_OP = 64;

    private record Added(TransactionResult.Type type, String userPath, Op op, int bytes) {
    }

    private final NamespacedClient c;
    private final List<Added> added = new ArrayList<>();
    /** The bytes of every op added so far, with their overhead. */
    private int total;

    TransactionOp(NamespacedClient c) {
        this.c = c;
    }

    @Override
    public TransactionBuilder create(String path, byte[] data) {
        return create(path, data, CreateMode.PERSISTENT);
    }

    @Override
    public TransactionBuilder create(String path, byte[] data, CreateMode mode) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(mode, "mode");
        if (mode.isTTL()) {
            throw new IllegalArgumentException("transaction create " + path + ": TTL nodes need create().withTtl(...)");
        }
        String full = c.prepare("transaction create", path, mode.isSequential());
        return add(TransactionResult.Type.CREATE, path, Op.create(full, data, c.aclFor(full), mode), data.length + full.length());
    }

    @Override
    public TransactionBuilder setData(String path, byte[] data) {
        return setData(path, data, -1);
    }

    @Override
    public TransactionBuilder setData(String path, byte[] data, int version) {
        Objects.requireNonNull(data, "data");
        String full = c.prepare("transaction setData", path, false);
        return add(TransactionResult.Type.SET_DATA, path, Op.setData(full, data, version), data.length + full.length());
    }

    @Override
    public TransactionBuilder delete(String path) {
        return delete(path, -1);
    }

    @Override
    public TransactionBuilder delete(String path, int version) {
        String full = c.prepare("transaction delete", path, false);
        return add(TransactionResult.Type.DELETE, path, Op.delete(full, version), full.length());
    }

    @Override
    public TransactionBuilder check(String path, int version) {
        String full = c.prepare("transaction check", path, false);
        return add(TransactionResult.Type.CHECK, path, Op.check(full, version), full.length());
    }

    private TransactionBuilder add(TransactionResult.Type type, String userPath, Op op, int bytes) {
        added.add(new Added(type, userPath, op, bytes + OVERHEAD_PER_OP));
        total += bytes + OVERHEAD_PER_OP; // kept as it grows: summing every op on each add made a build quadratic
        c.checkSize("transaction", userPath, "/", total);
        return this;
    }

    @Override
    public int size() {
        return added.size();
    }

    @Override
    public List<TransactionResult> commit() throws InterruptedException {
        List<Op> ops = ops();
        return c.retry().call("transaction", firstPath(), (zk, n) -> {
            try {
                return results(zk.multi(ops));
            } catch (KeeperException e) {
                if (e.getResults() != null && !e.getResults().isEmpty()) {
                    throw failure(e.getResults());
                }
                throw e;
            }
        });
    }

    @Override
    public CompletableFuture<List<TransactionResult>> commitAsync() {
        List<Op> ops;
        try {
            ops = ops();
        } catch (BatonException e) {
            return CompletableFuture.failedFuture(e);
        }
        return c.retry().callAsync("transaction", firstPath(), (zk, n) -> c.zk().multi(zk, ops, "transaction", firstPath())
            .thenApply(results -> {
                if (results.stream().anyMatch(r -> r instanceof OpResult.ErrorResult)) {
                    throw failure(results);
                }
                return results(results);
            }));
    }

    private List<Op> ops() {
        c.requireStarted("transaction", firstPath());
        if (added.isEmpty()) {
            throw new BatonException("transaction: nothing to commit; add at least one operation");
        }
        return added.stream().map(Added::op).toList();
    }

    private String firstPath() {
        return added.isEmpty() ? null : added.get(0).userPath();
    }

    private List<TransactionResult> results(List<OpResult> results) {
        List<TransactionResult> out = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            Added a = added.get(i);
            OpResult r = results.get(i);
            if (r instanceof OpResult.CreateResult created) {
                out.add(new TransactionResult(a.type(), c.unfix(created.getPath()), created.getStat()));
            } else if (r instanceof OpResult.SetDataResult set) {
                out.add(new TransactionResult(a.type(), a.userPath(), set.getStat()));
            } else {
                out.add(new TransactionResult(a.type(), a.userPath(), null));
            }
        }
        return out;
    }

    private TransactionFailedException failure(List<OpResult> results) {
        List<TransactionFailedException.OpOutcome> outcomes = new ArrayList<>();
        int failed = -1;
        KeeperException.Code code = KeeperException.Code.SYSTEMERROR;
        for (int i = 0; i < results.size(); i++) {
            KeeperException.Code opCode = results.get(i) instanceof OpResult.ErrorResult err
                ? KeeperException.Code.get(err.getErr())
                : KeeperException.Code.OK;
            if (failed < 0 && opCode != KeeperException.Code.OK && opCode != KeeperException.Code.RUNTIMEINCONSISTENCY) {
                failed = i;
                code = opCode;
            }
            outcomes.add(new TransactionFailedException.OpOutcome(added.get(i).userPath(), opCode));
        }
        return new TransactionFailedException("transaction", outcomes, failed, code);
    }
}

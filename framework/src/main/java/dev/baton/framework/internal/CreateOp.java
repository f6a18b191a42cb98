package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.CreateBuilder;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.UnsupportedByServerException;
import dev.baton.framework.ZooKeeperException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * create, with every mode, parents, protection, create-or-set and idempotence.
 *
 * <p>The common case is one round trip. The rest happens only when needed: missing parents are
 * created after a NoNode; after a lost reply a protected create first looks for the node it
 * already made — by its {@code _c_<uuid>-} name, or by its {@code x-<sessionId>-} name and the
 * {@link CreateMark} in its data, under every session it was sent in — and, for an ephemeral
 * node, its owning session: a node found from an earlier, expired session is deleted and the
 * create sent again. A protected create that finally fails (or is cancelled) sends nothing more,
 * and once its steps in flight have settled, its own node, found the same way, is deleted in the
 * background; a sibling of the same session is never touched. The multi-step paths are written
 * once, asynchronously; the blocking form waits on them.
 */
final class CreateOp implements CreateBuilder {
    private static final byte[] EMPTY = new byte[0];
    /**
     * Containers emptied by the server between our parent create and our create, or a node in the way of an
     * idempotent create that went before it could be read, make us try again, a few times.
     */
    private static final int MAX_PARENT_PASSES = 10;

    private enum Parents { NONE, PERSISTENT, CONTAINER }

    private enum Protection { NONE, UUID, SESSION }

    private final NamespacedClient c;
    private CreateMode mode = CreateMode.PERSISTENT;
    private long ttl = -1;
    private List<ACL> acl;
    private Parents parents = Parents.NONE;
    private Protection protection = Protection.NONE;
    private boolean orSetData;
    private boolean idempotent;

    CreateOp(NamespacedClient c) {
        this.c = c;
    }

    @Override
    public CreateBuilder withMode(CreateMode m) {
        this.mode = Objects.requireNonNull(m, "mode");
        return this;
    }

    @Override
    public CreateBuilder withTtl(Duration t) {
        Objects.requireNonNull(t, "ttl");
        if (t.isNegative() || t.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + t);
        }
        this.ttl = t.toMillis();
        return this;
    }

    @Override
    public CreateBuilder withAcl(List<ACL> a) {
        Objects.requireNonNull(a, "acl");
        if (a.isEmpty()) {
            throw new IllegalArgumentException("acl must grant something to someone, was empty");
        }
        this.acl = new java.util.ArrayList<>(a);
        return this;
    }

    @Override
    public CreateBuilder creatingParentsIfNeeded() {
        this.parents = Parents.PERSISTENT;
        return this;
    }

    @Override
    public CreateBuilder creatingParentContainersIfNeeded() {
        this.parents = Parents.CONTAINER;
        return this;
    }

    @Override
    public CreateBuilder withProtection() {
        this.protection = Protection.UUID;
        return this;
    }

    @Override
    public CreateBuilder withSessionProtection() {
        this.protection = Protection.SESSION;
        return this;
    }

    @Override
    public CreateBuilder orSetData() {
        this.orSetData = true;
        return this;
    }

    @Override
    public CreateBuilder idempotent() {
        this.idempotent = true;
        return this;
    }

    @Override
    public String forPath(String path) throws InterruptedException {
        return forPath(path, EMPTY);
    }

    @Override
    public String forPath(String path, byte[] data) throws InterruptedException {
        return forPathWithStat(path, data).path();
    }

    @Override
    public CreatedNode forPathWithStat(String path, byte[] data) throws InterruptedException {
        Plan plan = new Plan(path, data);
        try {
            return c.retry().call("create", path, plan::attempt);
        } catch (BatonException | InterruptedException e) {
            plan.abandon();
            throw e;
        }
    }

    @Override
    public CompletableFuture<String> forPathAsync(String path) {
        return forPathAsync(path, EMPTY);
    }

    @Override
    public CompletableFuture<String> forPathAsync(String path, byte[] data) {
        CompletableFuture<CreatedNode> created = forPathWithStatAsync(path, data);
        CompletableFuture<String> result = created.thenApply(CreatedNode::path);
        // a derived future does not pass cancellation back: do it, so that the create is abandoned as documented
        result.whenComplete((p, e) -> {
            if (result.isCancelled()) {
                created.cancel(false);
            }
        });
        return result;
    }

    @Override
    public CompletableFuture<CreatedNode> forPathWithStatAsync(String path, byte[] data) {
        Plan plan;
        try {
            plan = new Plan(path, data);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<CreatedNode> result = c.retry().callAsync("create", path, plan::attemptAsync);
        result.whenComplete((node, e) -> {
            if (e != null) {
                plan.abandon();
            }
        });
        return result;
    }

    /**
     * One create call: its paths, what it sent, and who it is. {@code id} makes the create
     * itself recognisable: in the name ({@code _c_<id>-}) or, for session protection, in the data
     * ({@link CreateMark}), since all of a session's creates share {@code x-<sessionId>-}.
     */
    private final class Plan {
        private final String userPath;
        /** What the node holds: the caller's data, behind this create's mark under session protection. */
        private final byte[] data;
        private final String parent;
        private final String name;
        private final String full;
        private final UUID id;
        private final List<ACL> nodeAcl;
        /** Protection prefix + name of every create sent: where this create's node can be. */
        private final Set<String> stemsSent = ConcurrentHashMap.newKeySet();
        /** Every session a create was sent in: a lost reply's node may be in any of them. */
        private final Set<Long> sessionsSent = ConcurrentHashMap.newKeySet();
        /** Set when the create has failed for good (or was cancelled): from then on nothing is created. */
        private volatile boolean abandoned;
        /**
         * The asynchronous steps of the latest attempt, which may still send a create; the
         * clean-up waits for them. Set before the attempt sends anything, read by
         * {@link #abandon} after it sets {@link #abandoned}: either the steps see the flag and
         * send nothing, or the clean-up sees the steps and waits.
         */
        private volatile CompletableFuture<?> steps = CompletableFuture.completedFuture(null);
        private final OwnNodeSearch search;

        Plan(String path, byte[] userData) {
            Objects.requireNonNull(userData, "data");
            if (mode.isTTL() && ttl < 0) {
                throw new IllegalArgumentException("create " + path + ": mode " + mode + " needs withTtl(...)");
            }
            if (!mode.isTTL() && ttl >= 0) {
                throw new IllegalArgumentException("create " + path + ": withTtl needs mode PERSISTENT_WITH_TTL or "
                    + "PERSISTENT_SEQUENTIAL_WITH_TTL, was " + mode);
            }
            this.userPath = path;
            this.full = c.prepare("create", path, mode.isSequential());
            if (full.equals("/")) {
                throw new NodeExistsException("create", path, null);
            }
            this.id = protection == Protection.NONE ? null : UUID.randomUUID();
            this.data = protection == Protection.SESSION ? CreateMark.mark(id, userData) : userData;
            c.checkSize("create", path, full, data.length);
            this.parent = Paths.parent(full);
            this.name = Paths.name(full);
            this.nodeAcl = acl != null ? acl : c.aclFor(full);
            this.search = new OwnNodeSearch(c, userPath, parent, mode, protection == Protection.SESSION ? id : null);
        }

        CreatedNode attempt(ZooKeeper zk, int attempt) throws KeeperException, InterruptedException {
            if (protection != Protection.NONE && attempt > 0) {
                CreatedNode mine = awaitSteps(findOwn(zk));
                if (mine != null) {
                    return mine;
                }
            }
            String target = target(zk);
            Stat stat = new Stat();
            try {
                sent(zk);
                String created = zk.create(target, data, nodeAcl, mode, stat, ttl);
                return node(created, stat);
            } catch (KeeperException.NoNodeException | KeeperException.NodeExistsException e) {
                return awaitSteps(recover(zk, target, Errors.translate(e, "create", userPath), 0));
            } catch (KeeperException.UnimplementedException e) {
                throw refused(Errors.translate(e, "create", userPath));
            }
        }

        /** A blocking attempt's wait for asynchronous steps: interrupted, it leaves them running, and {@link #abandon} waits. */
        private <T> T awaitSteps(CompletableFuture<T> running) throws InterruptedException {
            steps = running;
            return Futures.await(running);
        }

        CompletableFuture<CreatedNode> attemptAsync(ZooKeeper zk, int attempt) {
            CompletableFuture<CreatedNode> done = new CompletableFuture<>();
            steps = done;
            CompletableFuture<CreatedNode> found = protection != Protection.NONE && attempt > 0
                ? findOwn(zk)
                : CompletableFuture.completedFuture(null);
            found.thenCompose(mine -> mine != null ? CompletableFuture.completedFuture(mine) : send(zk, target(zk), 0))
                .whenComplete((node, e) -> {
                    if (e == null) {
                        done.complete(node);
                    } else {
                        done.completeExceptionally(Failures.unwrap(e));
                    }
                });
            return done;
        }

        private CompletableFuture<CreatedNode> send(ZooKeeper zk, String target, int pass) {
            if (abandoned) {
                return abandonedFailure();
            }
            sent(zk);
            return c.zk().create(zk, target, data, nodeAcl, mode, ttl, "create", userPath)
                .thenApply(created -> node(created.path(), created.stat()))
                .exceptionallyCompose(e -> recover(zk, target, Failures.unwrap(e), pass));
        }

        /** The slow paths: make parents and try again, set data instead, or accept our own earlier create. */
        private CompletableFuture<CreatedNode> recover(ZooKeeper zk, String target, Throwable cause, int pass) {
            if (abandoned) {
                return abandonedFailure();
            }
            if (cause instanceof ZooKeeperException z && z.code() == KeeperException.Code.UNIMPLEMENTED) {
                return CompletableFuture.failedFuture(refused(z));
            }
            if (cause instanceof NoNodeException && pass < MAX_PARENT_PASSES) {
                Optional<CreateMode> parentMode = parentMode();
                if (parentMode.isPresent()) {
                    return ensure(zk, parent, parentMode.get()).thenCompose(v -> send(zk, target, pass + 1));
                }
            }
            if (cause instanceof NodeExistsException && orSetData) {
                return c.zk().setData(zk, target, data, -1, "create", userPath).thenApply(stat -> node(target, stat));
            }
            if (cause instanceof NodeExistsException && idempotent) {
                // data includes the mark under session protection: only this create's own node matches
                return c.zk().getData(zk, target, null, "create", userPath).thenApply(existing -> {
                    if (Arrays.equals(existing.data(), data) && OwnNodeSearch.ownedHere(mode, zk, existing.stat())) {
                        return node(target, existing.stat());
                    }
                    throw Failures.rethrow(cause);
                }).exceptionallyCompose(e -> {
                    // the node that was in the way went before it could be read (another session's ephemeral, gone with
                    // its session): the path is free, so this create goes on rather than fail with the read's "no node"
                    if (Failures.unwrap(e) instanceof NoNodeException && pass < MAX_PARENT_PASSES) {
                        return send(zk, target, pass + 1);
                    }
                    return CompletableFuture.failedFuture(Failures.unwrap(e));
                });
            }
            return CompletableFuture.failedFuture(cause);
        }

        /** How to create missing parents: as asked, or (without asking) just the namespace's root. */
        private Optional<CreateMode> parentMode() {
            return switch (parents) {
                case PERSISTENT -> Optional.of(CreateMode.PERSISTENT);
                case CONTAINER -> Optional.of(CreateMode.CONTAINER);
                case NONE -> parent.equals(c.namespaceRoot()) ? Optional.of(CreateMode.PERSISTENT) : Optional.empty();
            };
        }

        /** Creates {@code path} (and its missing ancestors) with empty data; an existing node is fine. */
        private CompletableFuture<Void> ensure(ZooKeeper zk, String path, CreateMode parentMode) {
            if (path.equals("/")) {
                return CompletableFuture.completedFuture(null);
            }
            if (abandoned) {
                return abandonedFailure();
            }
            return c.zk().create(zk, path, EMPTY, c.aclFor(path), parentMode, -1, "create", userPath)
                .<Void>thenApply(created -> null)
                .exceptionallyCompose(e -> {
                    Throwable cause = Failures.unwrap(e);
                    if (cause instanceof NodeExistsException) {
                        return CompletableFuture.completedFuture(null);
                    }
                    if (cause instanceof NoNodeException) {
                        return ensure(zk, Paths.parent(path), parentMode).thenCompose(v -> ensure(zk, path, parentMode));
                    }
                    return CompletableFuture.failedFuture(cause);
                });
        }

        /**
         * After a lost reply: the node an earlier attempt made ({@link OwnNodeSearch}), or null
         * when there is none this session may adopt, so the create is sent again.
         */
        private CompletableFuture<CreatedNode> findOwn(ZooKeeper zk) {
            if (stemsSent.isEmpty()) {
                return CompletableFuture.completedFuture(null); // nothing was sent: nothing to find
            }
            return search.find(zk, Set.copyOf(stemsSent), Set.copyOf(sessionsSent))
                .thenApply(found -> found == null ? null : node(found.path(), found.stat()));
        }


        private String prefix(ZooKeeper zk) {
            return switch (protection) {
                case NONE -> "";
                case UUID -> "_c_" + id + "-";
                case SESSION -> "x-" + zk.getSessionId() + "-";
            };
        }

        private String target(ZooKeeper zk) {
            return protection == Protection.NONE ? full : Paths.join(parent, prefix(zk) + name);
        }

        private void sent(ZooKeeper zk) {
            if (protection != Protection.NONE) {
                stemsSent.add(prefix(zk) + name);
                sessionsSent.add(zk.getSessionId());
            }
        }

        /**
         * The server refused the create as unimplemented: a TTL create where TTL nodes are off
         * (or a server too old for the mode), said so with the server's version and the setting.
         */
        private BatonException refused(BatonException unimplemented) {
            if (!mode.isTTL()) {
                return unimplemented;
            }
            c.core.refused(ServerCapabilities.Feature.TTL_NODES);
            return new UnsupportedByServerException(ServerCapabilities.Feature.TTL_NODES, c.core.capabilities(), "create",
                userPath, unimplemented);
        }

        private CreatedNode node(String serverPath, Stat stat) {
            return new CreatedNode(c.unfix(serverPath), stat);
        }

        private <T> CompletableFuture<T> abandonedFailure() {
            return CompletableFuture.failedFuture(new CancellationException("create " + userPath + " was abandoned"));
        }

        /**
         * The create failed for good (retries spent, interrupted, cancelled): nothing more is
         * sent, and once the steps in flight have settled, this create's node, if it made one, is
         * deleted in the background — found as {@link OwnNodeSearch} finds it, so no other create's node
         * is touched.
         */
        void abandon() {
            abandoned = true;
            steps.whenComplete((v, e) -> {
                for (String stem : stemsSent) {
                    c.core.deletes.deleteOwn(parent, stem, protection == Protection.SESSION ? id : null);
                }
            });
        }
    }
}

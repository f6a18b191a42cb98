package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientHealth;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.CreateBuilder;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.DeleteBuilder;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.ExistsBuilder;
import dev.baton.framework.GetChildrenBuilder;
import dev.baton.framework.GetDataBuilder;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.SetDataBuilder;
import dev.baton.framework.SyncBuilder;
import dev.baton.framework.Ticker;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.WatchesBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/**
 * A {@link BatonClient}: one namespace's view of a {@link ClientCore}. Every path a caller gives
 * is validated, then prefixed with the namespace; every path handed back has it removed.
 */
public final class NamespacedClient implements BatonClient {
    /** Room for the request header, path length fields and a default ACL in a request. */
    private static final int REQUEST_OVERHEAD = 512;

    final ClientCore core;
    final String namespace;
    /** Whether the futures of asynchronous operations complete on ZooKeeper's event thread ({@link WakeUps}). */
    private final boolean inPlace;

    NamespacedClient(ClientCore core, String namespace) {
        this(core, namespace, false);
    }

    private NamespacedClient(ClientCore core, String namespace, boolean inPlace) {
        this.core = core;
        this.namespace = namespace;
        this.inPlace = inPlace;
    }

    /** The count of connection state changes; only through {@link WakeUps}. */
    long connectionTransitions() {
        return core.connection.transitions();
    }

    /** This view with replies completed on ZooKeeper's event thread; only through {@link WakeUps}. */
    NamespacedClient repliesInPlace() {
        return inPlace ? this : new NamespacedClient(core, namespace, true);
    }

    @Override
    public void start() {
        core.start();
    }

    @Override
    public boolean blockUntilConnected(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        requireStarted("blockUntilConnected", null);
        return core.connection.blockUntilConnected(timeout);
    }

    @Override
    public ConnectionState connectionState() {
        return core.connection.state();
    }

    @Override
    public long sessionId() {
        return core.connection.sessionId();
    }

    @Override
    public Duration negotiatedSessionTimeout() {
        return core.connection.negotiatedSessionTimeout();
    }

    @Override
    public long lastServerContactNanos() {
        return core.connection.lastServerContactNanos();
    }

    @Override
    public long leaderContactNanos() {
        return core.leaderContact.contactNanos(sessionId());
    }

    @Override
    public ServerCapabilities serverCapabilities() {
        return core.capabilities();
    }

    @Override
    public ClientHealth health() {
        return core.health();
    }

    @Override
    public void addObserver(BatonObserver observer) {
        core.telemetry.add(observer);
    }

    @Override
    public void removeObserver(BatonObserver observer) {
        core.telemetry.remove(observer);
    }

    @Override
    public BatonObserver observer() {
        return core.telemetry.observer();
    }

    @Override
    public ZooKeeper zookeeper() {
        requireStarted("zookeeper", null);
        return core.connection.handle();
    }

    @Override
    public void addConnectionStateListener(ConnectionStateListener listener) {
        core.connection.addListener(Objects.requireNonNull(listener, "listener"), this);
    }

    @Override
    public void removeConnectionStateListener(ConnectionStateListener listener) {
        core.connection.removeListener(listener);
    }

    @Override
    public ErrorPolicy errorPolicy() {
        return core.config.errorPolicy();
    }

    @Override
    public Ticker ticker() {
        return core.config.ticker();
    }

    @Override
    public Executor eventExecutor() {
        return core.events;
    }

    @Override
    public Executor asyncExecutor() {
        return core.async;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public BatonClient usingNamespace(String newNamespace) {
        return new NamespacedClient(core, Paths.validateNamespace(newNamespace));
    }

    @Override
    public CreateBuilder create() {
        return new CreateOp(this);
    }

    @Override
    public GetDataBuilder getData() {
        return new ReadOps.GetData(this);
    }

    @Override
    public SetDataBuilder setData() {
        return new SetDataOp(this);
    }

    @Override
    public DeleteBuilder delete() {
        return new DeleteOp(this);
    }

    @Override
    public ExistsBuilder checkExists() {
        return new ReadOps.Exists(this);
    }

    @Override
    public GetChildrenBuilder getChildren() {
        return new ReadOps.GetChildren(this);
    }

    @Override
    public TransactionBuilder transaction() {
        return new TransactionOp(this);
    }

    @Override
    public SyncBuilder sync() {
        return new ReadOps.Sync(this);
    }

    @Override
    public WatchesBuilder watches() {
        return new WatchesOp(this);
    }

    @Override
    public boolean isClosed() {
        return core.isClosed();
    }

    @Override
    public boolean isStarted() {
        return core.isStarted();
    }

    @Override
    public void close() {
        core.close();
    }

    @Override
    public String toString() {
        return "BatonClient[" + core.config.settings().connectString() + (namespace == null ? "" : ", namespace=" + namespace) + "]";
    }

    // ---- helpers for the operation builders ----

    /** Checks that the client can run {@code operation}, validates {@code path}, and returns the server path. */
    String prepare(String operation, String path, boolean sequential) {
        requireStarted(operation, path);
        Paths.validate(operation, path, sequential);
        return Paths.fix(namespace, path);
    }

    String unfix(String serverPath) {
        return Paths.unfix(namespace, serverPath);
    }

    /** The server path of the namespace's root, or null without a namespace. */
    String namespaceRoot() {
        return namespace == null ? null : "/" + namespace;
    }

    /**
     * The provider's ACL for a node. Copied into a mutable list: ZooKeeper's validation calls
     * {@code contains(null)}, which immutable lists answer with a NullPointerException.
     */
    List<ACL> aclFor(String serverPath) {
        List<ACL> acl = core.config.aclProvider().aclForPath(serverPath);
        if (acl == null || acl.isEmpty()) {
            throw new dev.baton.framework.InvalidAclException("create", Paths.unfix(namespace, serverPath), "the ACL provider gave no ACL", null);
        }
        return new java.util.ArrayList<>(acl);
    }

    /** Fails before sending if {@code dataLength} bytes at {@code serverPath} would exceed the servers' request limit. */
    void checkSize(String operation, String userPath, String serverPath, int dataLength) {
        int limit = core.config.maxRequestBytes() - REQUEST_OVERHEAD - Paths.utf8Length(serverPath);
        if (dataLength > limit) {
            throw new DataTooLargeException(operation, userPath, dataLength, Math.max(0, limit));
        }
    }

    RetryLoop retry() {
        return core.retryLoop;
    }

    AsyncZk zk() {
        return inPlace ? core.zkInPlace : core.zk;
    }
}

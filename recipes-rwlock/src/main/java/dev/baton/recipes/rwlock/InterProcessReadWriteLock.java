package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.ZPaths;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.observe.ObservedHolds;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A fair read/write lock shared by processes: many readers at once, or one writer alone, granted
 * in order of arrival, with no thundering herd.
 *
 * <p>Algorithm: readers and writers stand in one line on the framework's contention engine, as
 * ephemeral sequential nodes {@code _c_<uuid>-__READ__<seq>} and {@code _c_<uuid>-__WRIT__<seq>}
 * in the lock's folder (Curator's layout, so Curator and Baton processes exclude each other). A
 * reader holds when no writer is ahead of it and watches only the nearest writer ahead; a writer
 * holds when it is first and watches only the node just before it ({@link ReadWriteRules}). So a
 * waiting writer blocks the readers that arrive after it (no writer starves), and a release wakes
 * only those it lets in: twenty readers behind a writer get one event each when it leaves, and
 * none while writers ahead of that one come and go.
 *
 * <p>Both sides are re-entrant per thread. A thread that holds the write lock may take the read
 * lock (a downgrade: granted at once, the read node taking the write node's place in line, see
 * {@link WriteLease#downgrade()}) and then release the write lock. A thread that holds the read
 * lock and asks for the write lock gets a {@link LockUpgradeException} at once, where Curator's
 * lock waits for itself forever. Leases ({@code acquireLease}) and {@code acquireAsync} hold a
 * side through a handle instead of a thread.
 *
 * <p>Guarantees and caveats. While the holders' sessions live, a writer holds alone. Holds are
 * watched under the client's {@link dev.baton.framework.ErrorPolicy}, as the lock module's are:
 * a suspended connection (STANDARD) or the session's end makes a lease invalid, runs its
 * {@code onLost} callbacks, and makes its release throw
 * {@link dev.baton.framework.contention.OwnershipLostException}. A holder paused past its
 * session timeout may act after others got in: pass the fencing token downstream (for what a
 * read token means, see {@link ReadLease}). A timed-out, interrupted or cancelled acquisition
 * leaves no node behind. Curator processes on the same path are excluded correctly, but a
 * Curator process's own downgrade puts its read node behind waiting writers, which may then get
 * in while it reads: downgrade only with Baton.
 *
 * <p>Each side reports its acquisitions and holds to the client's {@link BatonClient#observer() observer}
 * as the mutex does, as recipe {@code rwlock-read} or {@code rwlock-write} (a downgrade is a read hold
 * granted at once); with no observer nothing is timed or wrapped.
 *
 * <pre>{@code
 * InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/locks/catalog");
 * rw.readLock().acquire();
 * try {
 *     catalog.lookup(sku);
 * } finally {
 *     rw.readLock().release();
 * }
 * }</pre>
 */
public final class InterProcessReadWriteLock {
    private static final byte[] NO_DATA = new byte[0];
    /** The {@code recipe} the read side's holds are reported as to the client's observer (baton.lock.* meters). */
    static final String READ_RECIPE = "rwlock-read";
    /** The {@code recipe} the write side's holds are reported as. */
    static final String WRITE_RECIPE = "rwlock-write";

    private final BatonClient client;
    private final String path;
    private final byte[] participantData;
    private final Contention writers;
    private final Contention readers;
    private final ReadLock readLock;
    private final WriteLock writeLock;
    /** The local lines of the {@link SharedTicket} mode, or null. */
    private final ProcessLine writeLine;
    private final ProcessLine readLine;

    /**
     * A read/write lock on {@code path} (its folder is created when first needed, as a container).
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/catalog}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessReadWriteLock(BatonClient client, String path) {
        this(client, path, NO_DATA);
    }

    /**
     * A read/write lock on {@code path} whose nodes carry {@code participantData} (for example
     * the process's name, so operators can see who holds or waits).
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/catalog}
     * @param participantData the data of each node this lock creates (copied)
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessReadWriteLock(BatonClient client, String path, byte[] participantData) {
        this(client, path, participantData, null);
    }

    /**
     * A read/write lock on {@code path} in the shared-ticket mode: the threads (and leases) that use
     * this object share the process's nodes. The write side works as {@link SharedTicket} describes for
     * the mutex: one write node stands in line for the process's writers, which hand it to each other
     * in memory, first come first served, and give it back after a bounded number of hand-offs or a
     * bounded time once another node waits. On the read side the process's readers share one read
     * node: while it holds, a reader of this object that arrives holds at once, beside the others
     * (each hold with its own {@link ReadLease#holdToken()}); the node is given back when the last of
     * them leaves. Once another node waits (a writer of this or another process, or a reader behind a
     * writer) and the read node spent its budget (the same limits, counting readers admitted), new
     * local readers stop joining: they wait for a new read node, behind that waiter. A local writer
     * waits for local readers as a remote one does, through the line. To other processes and to
     * Curator each node is an ordinary reader's or writer's node.
     *
     * <p>A downgrade ({@link WriteLease#downgrade()}, or the read side taken by the thread that holds
     * the write side) works as in the ordinary mode, and ends the write node's local hand-offs: the
     * write node is given back at its next release, so that no local writer holds behind the
     * downgraded reader.
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/catalog}
     * @param sharing the fairness limits, such as {@link SharedTicket#defaults()}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessReadWriteLock(BatonClient client, String path, SharedTicket sharing) {
        this(client, path, NO_DATA, Objects.requireNonNull(sharing, "sharing"));
    }

    private InterProcessReadWriteLock(BatonClient client, String path, byte[] participantData, SharedTicket sharing) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath("InterProcessReadWriteLock", path);
        this.participantData = Objects.requireNonNull(participantData, "participantData").clone();
        // one line: each engine names its own nodes and counts the other's as contenders
        this.writers = Contention.of(client, path, ReadWriteRules.WRITE_MARKER, ReadWriteRules::write)
            .withMarkers(ReadWriteRules.MARKERS);
        this.readers = Contention.of(client, path, ReadWriteRules.READ_MARKER, ReadWriteRules::read)
            .withMarkers(ReadWriteRules.MARKERS);
        this.readLock = new ReadLock();
        this.writeLock = new WriteLock();
        if (sharing == null) {
            this.writeLine = null;
            this.readLine = null;
        } else {
            this.writeLine = new ProcessLine(client, sharing, ProcessLine.Sharing.EXCLUSIVE, 1, new Side(writers));
            this.readLine = new ProcessLine(client, sharing, ProcessLine.Sharing.SHARED, 1, new Side(readers));
        }
    }

    /**
     * One side's nodes for the shared-ticket mode: the side's engine; everyone in the lock's folder is in line.
     * As the mutex's, the nodes are not reported to the observer: each local caller of the side is
     * ({@link #inLocalLine}).
     */
    private final class Side implements ProcessLine.Source {
        private final Contention engine;

        private Side(Contention engine) {
            this.engine = engine;
        }

        @Override
        public CompletableFuture<? extends Hold> take(Deadline deadline) {
            return engine.acquireHold(participantData, deadline);
        }

        @Override
        public Hold takeBlocking(Deadline deadline) throws InterruptedException {
            return engine.acquireHoldBlocking(participantData, deadline);
        }

        @Override
        public String lineDir() {
            return path;
        }

        @Override
        public Set<String> lineMarkers() {
            return ReadWriteRules.MARKERS;
        }
    }

    /** {@return the read side: held by many at once, never while a writer holds} */
    public ReadLock readLock() {
        return readLock;
    }

    /** {@return the write side: held by one, alone} */
    public WriteLock writeLock() {
        return writeLock;
    }

    /** {@return the lock's folder} */
    public String path() {
        return path;
    }

    /**
     * {@return the paths of every reader's and writer's node, holding or waiting, in line order (Curator's
     * included)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
     */
    public List<String> participantNodes() throws InterruptedException {
        return writers.contendersBlocking().stream().map(name -> ZPaths.join(path, name)).toList();
    }

    /** {@return whether, in the shared-ticket mode, local readers stop joining the read node: it spent its budget and someone else waits (for tests)} */
    boolean readersStopJoining() {
        return readLine != null && readLine.yieldsAtNextHandOff();
    }

    /**
     * Takes a place in line with {@code engine} and watches the hold it gives, reported to the
     * client's observer as {@code recipe} (untouched while nobody observes: {@link ObservedHolds}).
     */
    private CompletableFuture<Hold> inLine(Contention engine, String recipe, Deadline deadline) {
        return ObservedHolds.track(client, recipe, path, () -> engine.acquireHold(participantData, deadline));
    }

    /** {@link #inLine} on the calling thread. */
    private Hold inLineBlocking(Contention engine, String recipe, Deadline deadline) throws InterruptedException {
        return ObservedHolds.trackBlocking(client, recipe, path, () -> engine.acquireHoldBlocking(participantData, deadline));
    }

    /** A place in the shared-ticket mode's local {@code line}: each caller reported as {@code recipe}, as {@link #inLine} reports. */
    private CompletableFuture<Hold> inLocalLine(ProcessLine line, String recipe, Deadline deadline) {
        return ObservedHolds.track(client, recipe, path, () -> line.acquire(deadline));
    }

    /** {@link #inLocalLine} on the calling thread. */
    private Hold inLocalLineBlocking(ProcessLine line, String recipe, Deadline deadline) throws InterruptedException {
        return ObservedHolds.trackBlocking(client, recipe, path, () -> line.acquireBlocking(deadline));
    }

    /** The read hold {@code writing} downgrades to, reported as a read hold granted at once. */
    private CompletableFuture<Hold> downgradeOf(WriteLease writing) {
        return ObservedHolds.track(client, READ_RECIPE, path, Downgrade.start(client, writing, participantData));
    }

    @Override
    public String toString() {
        return "InterProcessReadWriteLock " + path;
    }

    /**
     * The read side. Re-entrant per thread; a thread that holds the write side through
     * {@link WriteLock#acquire()} gets it at once (a downgrade), as do its leases and
     * asynchronous acquisitions; a downgrade whose read hold is lost as it is made (the connection
     * dropped, taking the write hold too) fails with {@link dev.baton.framework.contention.OwnershipLostException} in every form,
     * never waiting behind its own write node. A thread that holds a {@link WriteLease} instead downgrades with
     * {@link WriteLease#downgrade()}: asking the read side would wait behind its own writer.
     */
    public final class ReadLock extends LockSide<ReadLease> {
        private ReadLock() {
            super("read lock of " + path);
        }

        @Override
        protected CompletableFuture<? extends Hold> acquireHold(Deadline deadline) {
            WriteLease writing = writeLock.threadLease();
            if (writing != null) {
                return downgradeOf(writing);
            }
            return readLine != null ? inLocalLine(readLine, READ_RECIPE, deadline) : inLine(readers, READ_RECIPE, deadline);
        }

        @Override
        protected Hold acquireHoldBlocking(Deadline deadline) throws InterruptedException {
            if (writeLock.threadLease() != null) {
                return super.acquireHoldBlocking(deadline); // a downgrade
            }
            return readLine != null ? inLocalLineBlocking(readLine, READ_RECIPE, deadline) : inLineBlocking(readers, READ_RECIPE, deadline);
        }

        @Override
        ReadLease newLease(Hold hold, String what, Consumer<Grant> onRelease) {
            return new ReadLease(hold, what, onRelease);
        }

        @Override
        protected void beforeBlocking() {
            // a reader can always wait: nothing it holds itself stands in its way
        }

        /**
         * The read hold a write lease downgrades to, valid when the caller gets it: a read hold lost
         * on its way (the connection dropped as the read node was made) is given back, and the
         * downgrade is tried again, which fails loudly if the write hold was lost with it.
         */
        CompletableFuture<ReadLease> downgrade(WriteLease writing) {
            return validLeaseOf(() -> downgradeOf(writing));
        }
    }

    /**
     * The write side. Re-entrant per thread. A thread that holds the read side through
     * {@link ReadLock#acquire()} and asks to wait for this side gets a
     * {@link LockUpgradeException}: it would wait for itself.
     */
    public final class WriteLock extends LockSide<WriteLease> {
        private WriteLock() {
            super("write lock of " + path);
        }

        @Override
        protected CompletableFuture<? extends Hold> acquireHold(Deadline deadline) {
            return writeLine != null ? inLocalLine(writeLine, WRITE_RECIPE, deadline) : inLine(writers, WRITE_RECIPE, deadline);
        }

        @Override
        protected Hold acquireHoldBlocking(Deadline deadline) throws InterruptedException {
            return writeLine != null ? inLocalLineBlocking(writeLine, WRITE_RECIPE, deadline) : inLineBlocking(writers, WRITE_RECIPE, deadline);
        }

        @Override
        WriteLease newLease(Hold hold, String what, Consumer<Grant> onRelease) {
            return new WriteLease(hold, what, onRelease, readLock::downgrade);
        }

        @Override
        protected void beforeBlocking() {
            if (readLock.isHeldByCurrentThread()) {
                throw new LockUpgradeException("thread '" + Thread.currentThread().getName() + "' holds the read lock of "
                    + path + " and asked for its write lock, which would wait for that read hold forever: upgrading is"
                    + " not supported. Release the read lock first, or take the write lock first and then the read lock"
                    + " (a downgrade).");
            }
        }
    }
}

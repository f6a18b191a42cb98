package dev.baton.recipes.group;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.Futures;
import dev.baton.framework.ZPaths;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Ids unique across a cluster, increasing, handed out from memory: a block of ids is reserved on
 * the servers with one versioned write, then given out one by one without a round trip.
 *
 * <p>Algorithm: the node at the allocator's path holds the first id nobody has reserved and a
 * token unique to the write that put it there ({@link Reservation}). To reserve a block of B ids,
 * an allocator reads the node (value N, version v) — or remembers both from its own last write —
 * and writes N+B with a fresh token at version v. If someone else wrote first the write fails
 * (bad version) and the allocator reads again; if it succeeds, ids N to N+B-1 are this allocator's
 * alone. A write whose reply is lost is retried by the framework with the same version and
 * token: a retry that finds the node one version on and holding exactly this token knows its
 * write landed ({@code setData().idempotent()}); any other outcome — including a write that did
 * land but was written over again before the retry could look — is treated as not reserved, and
 * the allocator reserves another block. When half a block is used, the next block is reserved in
 * the background, so a busy allocator rarely waits for the servers.
 *
 * <p>Guarantees and caveats: no id is ever handed out twice — across threads, processes,
 * crashes, lost replies and session expiry (the allocator uses no session at all) — as long as
 * the node is not deleted or written by anything else. Ids from one allocator increase; across
 * allocators they are unique but interleave, except in {@link Builder#strictlyMonotonic() strictly
 * monotonic} mode, where each call reserves its ids with its own write, so an id handed out after
 * another (in real time, anywhere in the cluster) is larger — at the cost of a write per call.
 * The unused rest of a block is lost when a process stops (ids have gaps; they are never reused).
 * Ids are below 2^62.
 *
 * <pre>{@code
 * IdAllocator orders = IdAllocator.builder(client, "/ids/orders").blockSize(10_000).build();
 * long id = orders.next();          // from memory; one write per 10,000 ids
 * }</pre>
 */
public final class IdAllocator {
    /** The default block size: 1,000 ids per write. */
    public static final int DEFAULT_BLOCK_SIZE = 1_000;
    /** The largest id an allocator hands out, plus one (2^62). */
    public static final long ID_LIMIT = 1L << 62;
    /** The most ids one {@link #next(int)} call returns. */
    public static final int MAX_COUNT = 1_000_000;

    private final String path;
    private final int blockSize;
    private final boolean strict;
    private final BlockReservations reservations;

    /** The block ids are taken from; replaced (holding this) when used up. */
    private volatile Block current = new Block(0, 0);
    // guarded by this
    /** The next block's reservation: in flight, or done and not yet in use. */
    private CompletableFuture<Block> upcoming;

    /** Ids {@code start} to {@code end - 1}, handed out in order by {@link #take()}. */
    private static final class Block {
        final long start;
        final long end;
        final long prefetchAt;
        final AtomicLong cursor;

        Block(BlockReservations.Range range) {
            this(range.start(), range.end());
        }

        Block(long start, long end) {
            this.start = start;
            this.end = end;
            this.prefetchAt = start + (end - start) / 2;
            this.cursor = new AtomicLong(start);
        }

        /** The next id of the block, or -1 if it is used up. */
        long take() {
            long id = cursor.getAndIncrement();
            return id < end ? id : -1;
        }
    }

    private IdAllocator(Builder b) {
        this.path = b.path;
        this.blockSize = b.blockSize;
        this.strict = b.strict;
        this.reservations = new BlockReservations(b.client, b.path, b.firstId);
    }

    /**
     * Configures an allocator of the ids kept at {@code path}; every allocator of one path shares its ids.
     *
     * @param client the client reservations are written through
     * @param path the allocator's node, such as {@code /ids/orders}
     * @return a builder with the defaults: blocks of {@value #DEFAULT_BLOCK_SIZE}, first id 1
     * @throws dev.baton.framework.InvalidPathException for a path ZooKeeper would refuse
     */
    public static Builder builder(BatonClient client, String path) {
        return new Builder(client, path);
    }

    /**
     * The next id. From memory, except when a block must be reserved (or in strictly monotonic mode).
     *
     * @return an id no allocator of this node has handed out, larger than every id this allocator handed out before
     * @throws InterruptedException if the calling thread is interrupted while a block is reserved
     * @throws IdAllocatorException if the node holds something that is not an allocator's, or the ids ran out
     * @throws BatonException if no block can be reserved now (no quorum within the client's connection timeout, ...)
     */
    public long next() throws InterruptedException {
        if (strict) {
            return reserveNow(1).start;
        }
        while (true) {
            Block block = current;
            long id = block.take();
            if (id >= 0) {
                if (id == block.prefetchAt) {
                    prefetch(block);
                }
                return id;
            }
            refill(block);
        }
    }

    /**
     * The next {@code count} ids, in increasing order. In strictly monotonic mode they are
     * consecutive and reserved with one write.
     *
     * @param count how many ids
     * @return the ids, increasing
     * @throws InterruptedException if the calling thread is interrupted while a block is reserved
     * @throws IllegalArgumentException unless {@code count} is 1 to {@value #MAX_COUNT}
     */
    public long[] next(int count) throws InterruptedException {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count must be 1 to " + MAX_COUNT + ", was " + count);
        }
        long[] ids = new long[count];
        if (strict) {
            long start = reserveNow(count).start;
            for (int i = 0; i < count; i++) {
                ids[i] = start + i;
            }
            return ids;
        }
        for (int i = 0; i < count; i++) {
            ids[i] = next();
        }
        return ids;
    }

    /**
     * The allocator's node.
     *
     * @return its path
     */
    public String path() {
        return path;
    }

    /**
     * Ids reserved per write (not used in strictly monotonic mode).
     *
     * @return the block size
     */
    public int blockSize() {
        return blockSize;
    }

    /**
     * Whether each call reserves its own ids with a write ({@link Builder#strictlyMonotonic()}).
     *
     * @return true in strictly monotonic mode
     */
    public boolean isStrictlyMonotonic() {
        return strict;
    }

    /** Replaces the used-up {@code exhausted} block with the upcoming one, reserving it now if none is on the way. */
    private void refill(Block exhausted) throws InterruptedException {
        CompletableFuture<Block> next;
        synchronized (this) {
            if (current != exhausted) {
                return; // another thread refilled meanwhile
            }
            if (upcoming == null) {
                upcoming = enqueue(blockSize);
            }
            next = upcoming;
        }
        Block block;
        try {
            block = await(next);
        } catch (RuntimeException e) {
            synchronized (this) {
                if (upcoming == next) {
                    upcoming = null;
                }
            }
            throw e;
        }
        synchronized (this) {
            if (upcoming == next) {
                upcoming = null;
                current = block;
            }
        }
    }

    /** Half of {@code block} is used: the next block is reserved in the background. */
    private void prefetch(Block block) {
        synchronized (this) {
            if (current == block && upcoming == null) {
                CompletableFuture<Block> next = enqueue(blockSize);
                upcoming = next;
                // a failed prefetch is forgotten: the refill reserves again, and reports its own failure
                next.whenComplete((b, e) -> {
                    if (e != null) {
                        synchronized (this) {
                            if (upcoming == next) {
                                upcoming = null;
                            }
                        }
                    }
                });
            }
        }
    }

    /** Reserves {@code count} ids with a write made after this call began (strict mode). */
    private Block reserveNow(int count) throws InterruptedException {
        return await(enqueue(count));
    }

    /** Starts a reservation of {@code count} ids, once the ones before it are done. */
    private CompletableFuture<Block> enqueue(long count) {
        return reservations.reserve(count).thenApply(Block::new);
    }

    /** Waits for a reservation; an interrupt leaves it running (a block-mode refill then uses it). */
    private static Block await(CompletableFuture<Block> reservation) throws InterruptedException {
        return Futures.await(reservation);
    }

    @Override
    public String toString() {
        return "IdAllocator[" + path + ", " + (strict ? "strictly monotonic" : "blocks of " + blockSize) + "]";
    }

    /** Configures an {@link IdAllocator}; each setting is checked as it is set. */
    public static final class Builder {
        private final BatonClient client;
        private final String path;
        private int blockSize = DEFAULT_BLOCK_SIZE;
        private boolean strict;
        private long firstId = 1;

        private Builder(BatonClient client, String path) {
            this.client = Objects.requireNonNull(client, "client");
            this.path = ZPaths.validate("IdAllocator", Objects.requireNonNull(path, "path"));
            if (this.path.equals("/")) {
                throw new IllegalArgumentException("an id allocator needs a node of its own, such as /ids/orders; was /");
            }
        }

        /**
         * Ids reserved per write. Default {@value IdAllocator#DEFAULT_BLOCK_SIZE}.
         *
         * @param size 1 to 10,000,000
         * @return this builder
         * @throws IllegalArgumentException for a size out of range
         */
        public Builder blockSize(int size) {
            if (size < 1 || size > 10_000_000) {
                throw new IllegalArgumentException("blockSize must be 1 to 10000000, was " + size);
            }
            this.blockSize = size;
            return this;
        }

        /**
         * Each call reserves its own ids with a write when it is made, so ids increase across the
         * whole cluster in real-time order: a call that starts after another returned gets larger
         * ids. A write per call; the block size is not used.
         *
         * @return this builder
         */
        public Builder strictlyMonotonic() {
            this.strict = true;
            return this;
        }

        /**
         * The first id, used when the allocator's node is created (or holds a smaller one). Default 1.
         *
         * @param id 0 to 2^62 - 1
         * @return this builder
         * @throws IllegalArgumentException for an id out of range
         */
        public Builder firstId(long id) {
            if (id < 0 || id >= ID_LIMIT) {
                throw new IllegalArgumentException("firstId must be 0 to 2^62 - 1, was " + id);
            }
            this.firstId = id;
            return this;
        }

        /**
         * The allocator. It touches the servers only when it first reserves ids.
         *
         * @return a new allocator with this configuration
         */
        public IdAllocator build() {
            return new IdAllocator(this);
        }
    }
}

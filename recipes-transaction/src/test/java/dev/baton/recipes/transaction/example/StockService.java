package dev.baton.recipes.transaction.example;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.PendingTransaction;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.Vote;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A warehouse that takes part in orders by two-phase commit. Its durable state is three folders
 * of one-line files named by transaction id: {@code reserved/} (prepared, voted commit),
 * {@code committed/} and {@code refused/} (voted abort). Every step is one atomic file operation,
 * so a crash between steps leaves a state the next incarnation reads and finishes.
 */
public final class StockService implements TransactionHandler {
    private final int capacity;
    private final Path reserved;
    private final Path committed;
    private final Path refused;

    /** A warehouse of {@code capacity} items whose records live under {@code dir}. */
    public StockService(int capacity, Path dir) throws IOException {
        this.capacity = capacity;
        this.reserved = Files.createDirectories(dir.resolve("reserved"));
        this.committed = Files.createDirectories(dir.resolve("committed"));
        this.refused = Files.createDirectories(dir.resolve("refused"));
    }

    @Override
    public synchronized Vote prepare(Transaction tx) throws IOException {
        // prepared before (by an incarnation that crashed): answer as recorded, never afresh
        if (Files.exists(reserved.resolve(tx.id())) || Files.exists(committed.resolve(tx.id()))) {
            return Vote.COMMIT;
        }
        if (Files.exists(refused.resolve(tx.id()))) {
            return Vote.ABORT;
        }
        int wanted = Integer.parseInt(new String(tx.payload(), UTF_8));
        boolean fits = wanted <= capacity - count(reserved) - count(committed);
        // the record is durable before the vote leaves this method
        writeAtomically(fits ? reserved : refused, tx.id(), wanted);
        return fits ? Vote.COMMIT : Vote.ABORT;
    }

    @Override
    public synchronized void commit(Transaction tx) throws IOException {
        // idempotent: told again after a crash, the reservation is already gone
        Path reservation = reserved.resolve(tx.id());
        if (Files.exists(reservation)) {
            Files.move(reservation, committed.resolve(tx.id()), StandardCopyOption.ATOMIC_MOVE);
        }
    }

    @Override
    public synchronized void abort(Transaction tx) throws IOException {
        // release the reservation if there was one; also called for transactions never prepared here
        Files.deleteIfExists(reserved.resolve(tx.id()));
        Files.deleteIfExists(refused.resolve(tx.id()));
    }

    /** Items still free: neither reserved nor committed. */
    public synchronized int available() throws IOException {
        return capacity - count(reserved) - count(committed);
    }

    /** Starts this warehouse as participant {@code id} of {@code folder}. */
    public TransactionParticipant join(BatonClient client, String folder, String id) throws InterruptedException {
        TransactionParticipant participant = TransactionParticipant.builder(client, folder, id, this).build();
        participant.start();
        return participant;
    }

    /** Orders {@code items} from every warehouse named: all of them or none. */
    public static Decision order(TransactionCoordinator coordinator, Set<String> warehouses, int items)
        throws InterruptedException {
        PendingTransaction tx = coordinator.start(warehouses, Integer.toString(items).getBytes(UTF_8), Duration.ofSeconds(10));
        return tx.await(Duration.ofSeconds(30)); // the deadline plus room for one slow write
    }

    private static int count(Path folder) throws IOException {
        int total = 0;
        try (Stream<Path> records = Files.list(folder)) {
            for (Path record : (Iterable<Path>) records::iterator) {
                total += Integer.parseInt(Files.readString(record, UTF_8).strip());
            }
        }
        return total;
    }

    private static void writeAtomically(Path folder, String name, int items) throws IOException {
        Path temp = Files.createTempFile(folder.getParent(), name, ".tmp");
        Files.writeString(temp, Integer.toString(items), UTF_8);
        Files.move(temp, folder.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }
}

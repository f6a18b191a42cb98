package dev.baton.spring.examples.billing;

import dev.baton.spring.integration.BatonLock;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.spring.leader.LeaderLifecycle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@SpringBootApplication
@EnableScheduling
public class BillingApplication {
    public static void main(String[] args) {
        SpringApplication.run(BillingApplication.class, args);
    }
}

/**
 * What the locks and the leader write to. For each resource it refuses a token smaller than the
 * largest it saw: tokens are compared within one lock or one election, never across them.
 */
@Component
class Ledger {
    final List<String> entries = new CopyOnWriteArrayList<>();
    private final Map<String, Long> largestToken = new HashMap<>();

    synchronized void write(String resource, String entry, long token) {
        long largest = largestToken.getOrDefault(resource, -1L);
        if (token < largest) {
            throw new IllegalStateException("stale fencing token " + token + " < " + largest + " for " + resource);
        }
        largestToken.put(resource, token);
        entries.add(entry + "@" + token);
    }
}

/** One settlement of an account at a time, across every instance. */
@Component
class Settlement {
    private final BatonLockRegistry locks;
    private final Ledger ledger;

    Settlement(BatonLockRegistry locks, Ledger ledger) {
        this.locks = locks;
        this.ledger = ledger;
    }

    boolean settle(String account) throws InterruptedException {
        String key = "settlement-" + account;
        BatonLock lock = locks.obtain(key);
        if (!lock.tryLock(10, TimeUnit.SECONDS)) {
            return false;
        }
        try {
            ledger.write(key, "settled " + account, lock.fencingToken());
            return true;
        } finally {
            lock.unlock();
        }
    }
}

/** Runs on the leader only: started when this instance is elected, stopped when it is not. */
@Component
class InvoiceRun implements LeaderLifecycle {
    private volatile boolean running;

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

/** Fires on every instance; its body runs on the leader only. */
@Component
class NightlyReport {
    private final BatonLeaderInitiator initiator;
    private final Ledger ledger;

    NightlyReport(BatonLeaderInitiator initiator, Ledger ledger) {
        this.initiator = initiator;
        this.ledger = ledger;
    }

    @Scheduled(cron = "${billing.report-cron:0 0 2 * * *}")
    void run() {
        initiator.runIfLeader(token -> ledger.write("reports", "nightly report", token));
    }
}

package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.ConfigWatch;
import dev.baton.recipes.config.ReleaseBuilder;
import dev.baton.recipes.config.ReleaseConflictException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.WatchHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.Watcher;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The watch guarantee of the config store under the nemesis: two writers publish numbered
 * releases of three keys while clients are cut, delayed, paused past their session and expired,
 * and the leader is killed. Three store watchers — each of which also has its session expired once
 * for sure, while it waits — must never go back, never see part of a release, and all end on the
 * last release once the faults stop. {@link CanaryTest} runs the same workload with the classic
 * hand-written watcher, which re-registers its one-shot watch after each event but not after a
 * session expiry, and checks that it is caught ending stale.
 */
@Paired
@EnsembleTest(nodes = 3)
class ConfigChaosTest {
    static final String BASE = "/chaos/config";
    private static final List<String> KEYS = List.of("release/a", "release/b", "release/c");
    private static final List<String> WATCHERS = List.of("watcher-2", "watcher-3", "watcher-4");
    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final Pattern RELEASE = Pattern.compile("\"release\":(\\d+)");

    EmbeddedEnsemble ensemble;

    /** Starts a watcher of the releases under {@code base} on {@code client}; closing it stops it. */
    @FunctionalInterface
    interface WatcherFactory {
        /**
         * Starts one watcher; it records in {@code history} each release number it is told, and in
         * {@code torn} each snapshot it is handed that holds part of a release.
         */
        AutoCloseable start(BatonClient client, String base, String name, WatchHistory history, List<String> torn)
            throws InterruptedException;
    }

    @Test
    void watchersEndOnTheLastReleaseAndNeverGoBackUnderFaults() throws Exception {
        try (ChaosRun run = ChaosRun.builder("config", ensemble).faults(Fault.KILL_LEADER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
            Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION).watch(BASE).documented(ReleaseConflictException.class).build()) {
            configWorkload(run, BASE, ConfigChaosTest::storeWatcher, CONVERGE);
        }
    }

    /** The watcher under test: a {@link ConfigStore} watching the release keys' prefix. */
    static AutoCloseable storeWatcher(BatonClient client, String base, String name, WatchHistory history, List<String> torn)
        throws InterruptedException {
        ConfigStore store = ConfigStore.builder(client, base).build();
        store.start();
        ConfigWatch watch = store.watchPrefix("release", update -> {
            history.seen(name, update.release());
            whole(name, update.snapshot(), torn);
        });
        return () -> {
            watch.close();
            store.close();
        };
    }

    /**
     * Clients 0 and 1 write releases, clients 2 to 4 watch them. Before the writes start, every
     * watcher has seen the first release and then has its session expired while it waits: a
     * watcher that loses its watch with its session is caught whatever the nemesis draws.
     *
     * @param converge how long the watchers have, after the last release, to show it
     */
    static void configWorkload(ChaosRun run, String base, WatcherFactory watchers, Duration converge) throws Exception {
        WatchHistory history = new WatchHistory();
        List<String> torn = new CopyOnWriteArrayList<>();
        List<AutoCloseable> closing = new ArrayList<>();
        try {
            List<ConfigStore> writers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ConfigStore store = ConfigStore.builder(run.client(i), base).keepReleases(5).build();
                closing.add(store);
                store.start();
                writers.add(store);
            }
            long first = writers.get(0).release().set(KEYS.get(0), "0").set(KEYS.get(1), "0").set(KEYS.get(2), "0").commit().number();
            for (int i = 2; i < 5; i++) {
                closing.add(watchers.start(run.client(i), base, "watcher-" + i, history, torn));
            }
            await().atMost(CONVERGE).until(() -> history.allAt(WATCHERS, first));
            for (int i = 2; i < 5; i++) {
                SessionKiller.expire(run.client(i), run.ensemble.connectString(), CONVERGE);
            }

            Workers workers = run.workers;
            workers.start("writer", 2, w -> {
                ReleaseBuilder release = writers.get(w).release();
                String token = "w" + w + "-" + System.nanoTime();
                KEYS.forEach(key -> release.set(key, token));
                release.commit();
                workers.pace(Duration.ofMillis(40));
                return true;
            });
            run.runFaults();

            // after the faults: one more release from a client of its own, and the truth from the servers
            long last;
            try (BatonClient judge = TestClients.started(run.ensemble.connectString(), Duration.ofSeconds(10))) {
                ConfigStore writer = ConfigStore.builder(judge, base).build();
                last = writer.release().set(KEYS.get(0), "final").set(KEYS.get(1), "final").set(KEYS.get(2), "final").commit().number();
                assertThat(releaseOf(judge.getData().forPath(base + "/.releases"))).isEqualTo(last);
            }
            try {
                await().atMost(converge).until(() -> history.allAt(WATCHERS, last));
            } catch (ConditionTimeoutException e) {
                // the verdict says which watcher is stale
            }
            run.verdict(workers.operations.get(), Map.of(
                "watchers end on the last release and never go back", history.check(WATCHERS, last).violations(),
                "no watcher sees part of a release", torn),
                "releases: " + first + " to " + last + "; watcher updates: " + history.size());
        } finally {
            for (AutoCloseable c : closing) {
                c.close();
            }
        }
    }

    private static void whole(String watcher, ConfigSnapshot s, List<String> torn) {
        Set<String> tokens = new HashSet<>();
        KEYS.forEach(key -> tokens.add(s.getString(key).orElse("<absent>")));
        if (tokens.size() != 1) {
            torn.add(watcher + " saw release " + s.release() + " in part: " + s.asStrings());
        }
    }

    static long releaseOf(byte[] fence) {
        Matcher m = RELEASE.matcher(new String(fence, UTF_8));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /**
     * The hand-written config watcher the store replaces (the canary): read the release with a
     * one-shot watch, and on each event read again with a new watch, retrying a read that fails.
     * It never notices that a session expiry took its watch away.
     */
    static AutoCloseable handWrittenWatcher(BatonClient client, String base, String name, WatchHistory history, List<String> torn) {
        LinkedBlockingQueue<Boolean> wakeUps = new LinkedBlockingQueue<>();
        Watcher watcher = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                wakeUps.add(true);
            }
        };
        ExecutorService reader = Executors.newSingleThreadExecutor();
        wakeUps.add(true);
        reader.execute(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    wakeUps.take();
                    while (true) {
                        try {
                            history.seen(name, releaseOf(client.getData().usingWatcher(watcher).forPath(base + "/.releases")));
                            break;
                        } catch (BatonException e) {
                            // connection trouble: read again shortly (this much the classic watcher does right)
                            wakeUps.poll(100, TimeUnit.MILLISECONDS);
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return reader::shutdownNow;
    }
}

package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.ReleaseBuilder;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.Verdict;
import dev.baton.test.history.WatchHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.Watcher;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The watch guarantee of the config store under the nemesis: two writers publish numbered
 * releases while every client is cut, delayed, paused past its session and expired, and the
 * leader is killed. Three store watchers must never go back, never see part of a release, and all
 * end on the last release once the faults stop. A canary — the classic hand-written watcher that
 * re-registers its one-shot watch after each event but not after a session expiry — must be
 * caught ending stale, or the check proves nothing.
 */
@EnsembleTest(nodes = 3)
class ConfigChaosTest {
    private static final String BASE = "/chaos/config";
    private static final List<String> KEYS = List.of("release/a", "release/b", "release/c");
    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final Pattern RELEASE = Pattern.compile("\"release\":(\\d+)");

    EmbeddedEnsemble ensemble;

    @Test
    void watchersEndOnTheLastReleaseAndNeverGoBackUnderFaults() throws Exception {
        WatchHistory history = new WatchHistory();
        List<String> torn = new CopyOnWriteArrayList<>();
        List<String> watchers = List.of("watcher-2", "watcher-3", "watcher-4");
        List<ConfigStore> stores = new ArrayList<>();
        // a third of the suite's default: the guarantee shows in 20 s, and the class stays under 40 s
        Duration faults = Duration.ofSeconds(Math.max(10, ChaosRun.duration().toSeconds() * 2 / 3));
        try (ChaosRun run = new ChaosRun("config", ensemble, 6, Duration.ofSeconds(3),
            Fault.CUT_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION, Fault.DELAY_CLIENT, Fault.KILL_LEADER);
             Canary canary = new Canary(run.client(5), history)) {
            for (int i = 0; i < 5; i++) {
                ConfigStore store = ConfigStore.builder(run.client(i), BASE).keepReleases(5).build();
                store.start();
                stores.add(store);
            }
            for (int i = 2; i < 5; i++) {
                String name = "watcher-" + i;
                stores.get(i).watchPrefix("release", update -> {
                    history.seen(name, update.release());
                    whole(name, update.snapshot(), torn);
                });
            }
            stores.get(0).release().set(KEYS.get(0), "0").set(KEYS.get(1), "0").set(KEYS.get(2), "0").commit();
            canary.start();
            // the canary's session ends once for sure, whatever the nemesis draws, while nothing is written
            // (so it is waiting on its watch, not in the middle of a read that would re-register it)
            await().atMost(CONVERGE).until(() -> history.last("canary").isPresent());
            SessionKiller.expire(run.client(5), ensemble.connectString(), CONVERGE);

            Workers workers = new Workers();
            workers.start("writer", 2, w -> {
                ReleaseBuilder release = stores.get(w).release();
                String token = "w" + w + "-" + System.nanoTime();
                KEYS.forEach(key -> release.set(key, token));
                try {
                    release.commit();
                } catch (BatonException e) {
                    return false; // a fault: the next release tries again
                }
                workers.pace(Duration.ofMillis(40));
                return true;
            });
            run.runFaults(faults);
            workers.stop();

            // after the faults: one more release from a client of its own, and the truth from the servers
            long last;
            try (BatonClient judge = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
                ConfigStore writer = ConfigStore.builder(judge, BASE).build();
                last = writer.release().set(KEYS.get(0), "final").set(KEYS.get(1), "final").set(KEYS.get(2), "final").commit().number();
                assertThat(releaseOf(judge.getData().forPath(BASE + "/.releases"))).isEqualTo(last);
            }
            try {
                await().atMost(CONVERGE).until(() -> history.allAt(watchers, last));
            } catch (ConditionTimeoutException e) {
                // the verdict below says which watcher is stale
            }
            Verdict verdict = history.check(watchers, last);
            Verdict canaryVerdict = history.check(List.of("canary"), last);
            System.out.println("[config] canary: " + canaryVerdict.violations());
            assertThat(canaryVerdict.violations()).as("the checker catches a watcher that does not re-register after expiry")
                .anyMatch(v -> v.startsWith("canary ended stale"));
            run.verdict(workers.operations.get(), Map.of(
                "watchers end on the last release and never go back", verdict.violations(),
                "no watcher sees part of a release", torn));
        } finally {
            stores.forEach(ConfigStore::close);
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
     * The hand-written config watcher the store replaces: read the release with a one-shot watch,
     * and on each event read again with a new watch (retrying a read that fails). It never
     * notices that a session expiry took its watch away.
     */
    private static final class Canary implements AutoCloseable {
        private final BatonClient client;
        private final WatchHistory history;
        private final LinkedBlockingQueue<Boolean> wakeUps = new LinkedBlockingQueue<>();
        private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
        private final Watcher watcher = event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                wakeUps.add(true);
            }
        };

        Canary(BatonClient client, WatchHistory history) {
            this.client = client;
            this.history = history;
        }

        void start() {
            wakeUps.add(true);
            reader.execute(this::loop);
        }

        private void loop() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    wakeUps.take();
                    while (true) {
                        try {
                            history.seen("canary", releaseOf(client.getData().usingWatcher(watcher).forPath(BASE + "/.releases")));
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
        }

        @Override
        public void close() {
            reader.shutdownNow();
        }
    }
}

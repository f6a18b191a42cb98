package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static dev.baton.recipes.config.ConfigStoreTest.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Two writers publish releases as fast as they can, each release giving all five keys one new
 * token, while plain writes of another key add noise; three readers on their own clients check
 * every snapshot they are handed, and every snapshot they poll, for a release seen in part.
 */
@EnsembleTest
class ReleaseAtomicityTest {
    private static final String BASE = "/config/hammer";
    private static final List<String> KEYS = List.of("k0", "k1", "k2/deep", "k3", "k4");
    private static final Duration HAMMER = Duration.ofSeconds(6);

    /** What is wrong with {@code s}: a release seen in part, or the release number going back. */
    private static void judge(String reader, ConfigSnapshot s, long[] lastRelease, List<String> problems) {
        Set<String> tokens = new HashSet<>();
        for (String key : KEYS) {
            tokens.add(s.getString(key).orElse("<absent>"));
        }
        if (tokens.size() != 1) {
            problems.add(reader + ": release " + s.release() + " seen in part: " + s.asStrings());
        }
        if (s.release() < lastRelease[0]) {
            problems.add(reader + ": went back from release " + lastRelease[0] + " to " + s.release());
        }
        lastRelease[0] = s.release();
    }

    @Test
    void noReaderEverSeesHalfARelease(BatonClient w1, BatonClient w2, BatonClient noise, BatonClient r1, BatonClient r2,
                                      BatonClient r3) throws Exception {
        List<String> problems = new CopyOnWriteArrayList<>();
        List<ConfigStore> readers = new ArrayList<>();
        AtomicLong updatesJudged = new AtomicLong();
        AtomicLong pollsJudged = new AtomicLong();
        AtomicLong gaveUp = new AtomicLong();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (ConfigStore a = started(w1, BASE); ConfigStore b = started(w2, BASE); ConfigStore n = started(noise, BASE)) {
            int r = 0;
            for (BatonClient client : List.of(r1, r2, r3)) {
                String name = "reader-" + r++;
                ConfigStore reader = started(client, BASE);
                readers.add(reader);
                long[] last = {0};
                reader.watchPrefix("", update -> {
                    judge(name + " (listener)", update.snapshot(), last, problems);
                    updatesJudged.incrementAndGet();
                });
            }
            List<Future<Long>> writers = new ArrayList<>();
            long end = System.nanoTime() + HAMMER.toNanos();
            for (ConfigStore writer : List.of(a, b)) {
                String tag = writer == a ? "a" : "b";
                writers.add(pool.submit(() -> {
                    long count = 0;
                    while (System.nanoTime() < end) {
                        ReleaseBuilder release = writer.release();
                        String token = tag + "-" + count;
                        KEYS.forEach(key -> release.set(key, token));
                        try {
                            release.commit();
                            count++;
                        } catch (ReleaseConflictException lostEveryRace) {
                            // releases are not fair (docs/config.md): a writer releasing back to back can win every
                            // race against another, whose commit then gives up, writing nothing; it tries again
                            gaveUp.incrementAndGet();
                        }
                    }
                    return count;
                }));
            }
            pool.submit(() -> {
                for (int i = 0; writing.get(); i++) {
                    n.set("noise", Integer.toString(i));
                }
                return null;
            });
            for (ConfigStore reader : readers) {
                String name = "poller of " + reader;
                pool.submit(() -> {
                    long[] last = {0};
                    while (writing.get()) {
                        judge(name, reader.snapshot(), last, problems);
                        pollsJudged.incrementAndGet();
                        // leave the two cores to the writers and the servers most of the time
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                    }
                    return null;
                });
            }
            long releases = 0;
            List<Long> perWriter = new ArrayList<>();
            for (Future<Long> f : writers) {
                perWriter.add(f.get());
                releases += perWriter.get(perWriter.size() - 1);
            }
            writing.set(false);
            long last = a.history().get(0).number();
            assertThat(last).isEqualTo(releases);
            Map<String, String> finalState = new java.util.TreeMap<>();
            for (String key : KEYS) {
                finalState.put(key, new String(w1.getData().forPath(BASE + "/" + key), java.nio.charset.StandardCharsets.UTF_8));
            }
            for (ConfigStore reader : readers) {
                await("every reader ends on the last release").atMost(WAIT).until(() -> reader.snapshot().release() == last);
                for (String key : KEYS) {
                    assertThat(reader.getString(key)).contains(finalState.get(key));
                }
            }
            System.out.printf("hammer: %d releases %s (%d commits gave up after losing 25 races), %d listener updates and %d polled "
                + "snapshots judged, %d problems%n", releases, perWriter, gaveUp.get(), updatesJudged.get(), pollsJudged.get(), problems.size());
            assertThat(releases).as("the writers made progress").isGreaterThan(50);
            assertThat(perWriter).as("releases by each writer: both raced").allMatch(count -> count > 0);
            assertThat(updatesJudged.get()).as("the readers were told of releases while they came").isGreaterThan(30);
            assertThat(problems).as("snapshots holding part of a release, or going back").isEmpty();
        } finally {
            writing.set(false);
            pool.shutdownNow();
            readers.forEach(ConfigStore::close);
        }
    }
}

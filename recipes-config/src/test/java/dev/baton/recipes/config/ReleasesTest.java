package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static dev.baton.recipes.config.ConfigStoreTest.base;
import static dev.baton.recipes.config.ConfigStoreTest.started;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.DataTooLargeException;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Numbered releases: one transaction each, history of the last N, rollback, validation, limits. */
@EnsembleTest
class ReleasesTest {
    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        List<String> names = new ArrayList<>(client.getChildren().forPath(path));
        names.sort(null);
        return names;
    }

    @Test
    void releasesAreNumberedFromOneAndKeepTheirChangesBeforeAndAfter(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            store.set("db/url", "jdbc:one");
            Release first = store.release().set("db/url", "jdbc:two").set("db/pool", "20").message("move to two").commit();
            assertThat(first.number()).isEqualTo(1);
            assertThat(first.keys()).containsExactlyInAnyOrder("db/url", "db/pool");
            Release second = store.release().remove("db/pool").set("db/url", "jdbc:two").commit();
            assertThat(second.number()).isEqualTo(2);
            assertThat(second.keys()).as("a key already at its value is no change").containsExactly("db/pool");

            assertThat(store.awaitRelease(2, WAIT)).isTrue();
            assertThat(store.snapshot().release()).isEqualTo(2);
            assertThat(store.snapshot().asStrings()).containsExactly(Map.entry("db/url", "jdbc:two"));

            List<Release> history = store.history();
            assertThat(history).extracting(Release::number).containsExactly(2L, 1L);
            Release.Change url = history.get(1).changes().stream().filter(c -> c.key().equals("db/url")).findFirst().orElseThrow();
            assertThat(url.before()).map(b -> new String(b, UTF_8)).contains("jdbc:one");
            assertThat(url.after()).map(b -> new String(b, UTF_8)).contains("jdbc:two");
            assertThat(history.get(1).message()).isEqualTo("move to two");
            assertThat(history.get(0).changes().get(0).after()).as("removed").isEmpty();
        }
    }

    @Test
    void theHistoryKeepsTheLastNAndRollbackRestoresAnyOfThem(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = ConfigStore.builder(client, base).keepReleases(3).build()) {
            store.start();
            assertThat(store.awaitInitialized(WAIT)).isTrue();
            for (int i = 1; i <= 5; i++) {
                ReleaseBuilder r = store.release().set("version", "v" + i).set("added/in/" + i, "x");
                if (i == 4) {
                    r.remove("added/in/2");
                }
                r.commit();
            }
            assertThat(children(client, base + ".history")).containsExactly("release-0000000003", "release-0000000004",
                "release-0000000005");
            assertThatThrownBy(() -> store.rollback(1)).isInstanceOf(NoSuchReleaseException.class)
                .hasMessageContaining("release 2 is no longer in the history (it keeps the last 3 releases)");
            assertThatThrownBy(() -> store.rollback(5)).isInstanceOf(NoSuchReleaseException.class).hasMessageContaining("already");

            Release back = store.rollback(3);
            assertThat(back.number()).isEqualTo(6);
            assertThat(back.message()).isEqualTo("rollback to release 3");
            assertThat(store.awaitRelease(6, WAIT)).isTrue();
            assertThat(store.snapshot().asStrings()).as("exactly the state right after release 3").containsExactly(
                Map.entry("added/in/1", "x"), Map.entry("added/in/2", "x"), Map.entry("added/in/3", "x"), Map.entry("version", "v3"));
            assertThat(children(client, base + ".history")).containsExactly("release-0000000004", "release-0000000005",
                "release-0000000006");
        }
    }

    @Test
    void aWatcherOfTheBaseGetsOneEventPerKeyAndOneForTheFenceNoneForTheHistory(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = ConfigStore.builder(client, base).keepReleases(2).build()) {
            store.start();
            assertThat(store.awaitInitialized(WAIT)).isTrue();
            store.release().set("k", "0").commit();
            store.release().set("k", "1").commit(); // the history is full from here: each release also deletes its oldest entry
            java.util.concurrent.BlockingQueue<String> events = new java.util.concurrent.LinkedBlockingQueue<>();
            org.apache.zookeeper.Watcher counter = e -> {
                if (e.getPath() != null) {
                    events.add(e.getType() + " " + e.getPath());
                }
            };
            client.watches().add(base, org.apache.zookeeper.AddWatchMode.PERSISTENT_RECURSIVE, counter);
            try {
                store.release().set("k", "2").commit();
                store.set("marker", "m"); // the events of one connection come in order: once the marker's has come, the release's all have
                await().atMost(WAIT).until(() -> events.contains("NodeCreated " + base + "/marker"));
                assertThat(events).as("what a release of one key costs each watcher of the store's subtree")
                    .containsExactly("NodeDataChanged " + base + "/k", "NodeDataChanged " + base + "/.releases", "NodeCreated " + base + "/marker");
            } finally {
                client.watches().remove(base, counter, org.apache.zookeeper.Watcher.WatcherType.Any);
            }
        }
    }

    @Test
    void aStoreOfTheFirstLayoutIsReadAndMovesItsHistoryAsReleasesCome(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        // what the first layout left: the history entries under the fence, and a fence without "moved"
        client.create().creatingParentsIfNeeded().forPath(base + "/db/url", "jdbc:three".getBytes(UTF_8));
        client.create().forPath(base + "/.releases", ("{\"release\":3,\"id\":\"old\",\"time\":1000,\"oldest\":2}").getBytes(UTF_8));
        client.create().forPath(base + "/.releases/release-0000000002", ReleaseCodec.entry(new Release(2, java.time.Instant.ofEpochMilli(900),
            "two", List.of(new Release.Change("db/url", Optional.of("jdbc:one".getBytes(UTF_8)), Optional.of("jdbc:two".getBytes(UTF_8))))),
            "id2"));
        client.create().forPath(base + "/.releases/release-0000000003", ReleaseCodec.entry(new Release(3, java.time.Instant.ofEpochMilli(1000),
            "three", List.of(new Release.Change("db/url", Optional.of("jdbc:two".getBytes(UTF_8)), Optional.of("jdbc:three".getBytes(UTF_8))))),
            "old"));
        try (ConfigStore store = ConfigStore.builder(client, base).keepReleases(3).build()) {
            store.start();
            assertThat(store.awaitInitialized(WAIT)).isTrue();
            assertThat(store.snapshot().release()).isEqualTo(3);
            assertThat(store.snapshot().asStrings()).containsExactly(Map.entry("db/url", "jdbc:three"));
            assertThat(store.history()).extracting(Release::number).containsExactly(3L, 2L);

            Release back = store.rollback(2); // release 4, from the entry of release 3 in the first layout
            assertThat(back.number()).isEqualTo(4);
            assertThat(store.awaitRelease(4, WAIT)).isTrue();
            assertThat(store.getString("db/url")).contains("jdbc:two");
            assertThat(children(client, base + ".history")).containsExactly("release-0000000004");
            assertThat(children(client, base + "/.releases")).as("the first layout's entries stay until they are past keepReleases")
                .containsExactly("release-0000000002", "release-0000000003");
            assertThat(store.history()).extracting(Release::number).containsExactly(4L, 3L, 2L);

            store.release().set("db/url", "jdbc:five").commit();
            assertThat(children(client, base + "/.releases")).containsExactly("release-0000000003");
            store.release().set("db/url", "jdbc:six").commit();
            assertThat(client.getChildren().forPath(base + "/.releases")).as("moved out entirely").isEmpty();
            assertThat(children(client, base + ".history")).containsExactly("release-0000000004", "release-0000000005",
                "release-0000000006");
            assertThat(store.rollback(4).number()).isEqualTo(7);
            assertThat(store.awaitRelease(7, WAIT)).isTrue();
            assertThat(store.getString("db/url")).contains("jdbc:two");
        }
    }

    @Test
    void aRefusedReleaseWritesNothing(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        ReleaseValidator portInRange = proposal -> proposal.result().getInt("http/port")
            .filter(port -> port < 1 || port > 65535)
            .map(port -> List.of("http/port must be 1-65535, was " + port))
            .orElse(List.of());
        try (ConfigStore store = ConfigStore.builder(client, base).validator(portInRange).build()) {
            store.start();
            assertThat(store.awaitInitialized(WAIT)).isTrue();
            store.release().set("http/port", "8080").set("http/host", "a").commit();
            assertThatThrownBy(() -> store.release().set("http/port", "70000").set("http/host", "b").commit())
                .isInstanceOf(ReleaseRejectedException.class)
                .hasMessage("release 2 of " + base + " refused by the validator: http/port must be 1-65535, was 70000");
            assertThat(new String(client.getData().forPath(base + "/http/host"), UTF_8)).isEqualTo("a");
            assertThat(children(client, base + ".history")).containsExactly("release-0000000001");
            assertThat(store.history()).hasSize(1);
        }
    }

    @Test
    void aReleaseTooLargeForOneTransactionIsRefusedWholeBeforeSending(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            ReleaseBuilder big = store.release();
            byte[] value = new byte[200_000];
            java.util.Arrays.fill(value, (byte) 'x');
            for (int i = 0; i < 3; i++) {
                big.set("blob/" + i, value); // 600 KB of values fit in one transaction; with the history entry they do not
            }
            assertThatThrownBy(big::commit).isInstanceOf(ReleaseTooLargeException.class).isInstanceOf(DataTooLargeException.class)
                .hasMessageContaining("release 1 of " + base + " (3 changed keys) needs at least")
                .hasMessageContaining("split it into smaller releases");
            assertThat(client.checkExists().forPath(base + "/blob")).as("nothing half-written").isNull();
            assertThat(client.checkExists().forPath(base + "/.releases")).isNull();
            assertThat(client.checkExists().forPath(base + ".history")).isNull();
        }
    }

    @Test
    void onlyIfReleaseRefusesToWriteOverANewerRelease(BatonClient client, TestInfo info) throws Exception {
        try (ConfigStore store = started(client, base(info))) {
            store.release().set("a", "1").commit();
            store.release().set("a", "2").commit();
            assertThatThrownBy(() -> store.release().set("a", "from what I saw at 1").onlyIfRelease(1).commit())
                .isInstanceOf(ReleaseConflictException.class).hasMessageContaining("expected the store at release 1, but it is at release 2");
            assertThat(store.release().set("a", "3").onlyIfRelease(2).commit().number()).isEqualTo(3);
        }
    }

    @Test
    void aKeyAndTheKeysUnderItGoInOneReleaseButAKeyWithNestedKeysCannotGoAlone(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            store.release().set("svc", "parent").set("svc/port", "1").set("svc/host/name", "h").commit();
            assertThatThrownBy(() -> store.release().remove("svc").commit()).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("'svc': it has nested keys");
            store.release().remove("svc").remove("svc/port").remove("svc/host/name").commit();
            assertThat(store.awaitRelease(2, WAIT)).isTrue();
            assertThat(store.keys()).isEmpty();
        }
    }

    /**
     * A deploy that imports the file the store already holds must not push real releases out of
     * the history: a release that would change nothing writes nothing and takes no number.
     */
    @Test
    void aReleaseThatWouldChangeNothingWritesNothingAndTakesNoNumber(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        String fresh = base + "-fresh";
        try (ConfigStore store = started(client, base); ConfigStore empty = started(client, fresh)) {
            assertThat(empty.release().message("nothing").commit().number()).as("an empty store stays at release 0").isZero();
            assertThat(client.checkExists().forPath(fresh)).as("and is not made").isNull();

            store.release().set("a", "1").set("b", "2").commit();
            assertThat(store.awaitRelease(1, WAIT)).isTrue();
            long fenceWritten = client.getData().forPathWithStat(base + "/.releases").stat().getMzxid();
            long aWritten = client.getData().forPathWithStat(base + "/a").stat().getMzxid();

            Release same = store.release().set("a", "1").set("b", "2").remove("never-there").message("deploy again").commit();
            assertThat(same.number()).as("the release the store is at").isEqualTo(1);
            assertThat(same.changes()).isEmpty();
            assertThat(store.release().commit().changes()).as("no change at all").isEmpty();

            assertThat(client.getData().forPathWithStat(base + "/.releases").stat().getMzxid()).as("fence not written").isEqualTo(fenceWritten);
            assertThat(client.getData().forPathWithStat(base + "/a").stat().getMzxid()).as("key not written").isEqualTo(aWritten);
            assertThat(children(client, base + ".history")).containsExactly("release-0000000001");
            assertThat(store.history()).extracting(Release::number).containsExactly(1L);

            Release next = store.release().set("a", "3").commit();
            assertThat(next.number()).as("no number was taken by the releases that changed nothing").isEqualTo(2);
        }
    }

    @Test
    void aReleaseFromALaggingSnapshotStillWritesWhatItWasAskedTo(BatonClient mine, BatonClient other, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(mine, base); ConfigStore elsewhere = started(other, base)) {
            store.release().set("mode", "blue").set("old", "x").commit();
            assertThat(store.awaitRelease(1, WAIT)).isTrue();
            // hold this client's event executor: its snapshot stops following the servers
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            mine.eventExecutor().execute(() -> {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                elsewhere.set("mode", "green");
                elsewhere.set("late", "y");
                assertThat(store.getString("mode")).as("the snapshot lags").contains("blue");
                Release r = store.release().set("mode", "blue").commit();
                assertThat(r.keys()).as("already blue here, but green on the servers: a change").containsExactly("mode");
                Release gone = store.release().remove("late").commit();
                assertThat(gone.keys()).as("absent here, present on the servers: a change").containsExactly("late");
            } finally {
                held.countDown();
            }
            assertThat(new String(other.getData().forPath(base + "/mode"), UTF_8)).isEqualTo("blue");
            assertThat(other.checkExists().forPath(base + "/late")).isNull();
            assertThat(store.awaitRelease(3, WAIT)).isTrue();
            assertThat(store.getString("mode")).contains("blue");
        }
    }

    /**
     * The validator judges the configuration the release makes on the servers: a writer whose
     * snapshot lags a release of another writer must not be approved on the old state.
     */
    @Test
    void theValidatorNeverJudgesAReleaseOnASnapshotOlderThanTheServers(BatonClient mine, BatonClient other, TestInfo info)
        throws Exception {
        String base = base(info);
        ReleaseValidator poolWithinMax = proposal -> {
            int pool = proposal.result().getInt("db/pool").orElse(0);
            int max = proposal.result().getInt("db/max").orElse(Integer.MAX_VALUE);
            return pool <= max ? List.of() : List.of("db/pool " + pool + " is over db/max " + max);
        };
        try (ConfigStore store = ConfigStore.builder(mine, base).validator(poolWithinMax).validationCatchUp(Duration.ofSeconds(2)).build();
             ConfigStore elsewhere = started(other, base)) {
            store.start();
            assertThat(store.awaitInitialized(WAIT)).isTrue();
            store.release().set("db/max", "20").set("db/pool", "5").commit();
            assertThat(store.awaitRelease(1, WAIT)).isTrue();
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            mine.eventExecutor().execute(() -> {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                elsewhere.release().set("db/max", "8").commit();
                assertThat(store.getInt("db/max")).as("the snapshot lags").contains(20);
                assertThatThrownBy(() -> store.release().set("db/pool", "10").commit())
                    .as("judged on db/max 8 (refused), or not judged at all (conflict); never approved on db/max 20")
                    .isInstanceOfAny(ReleaseRejectedException.class, ReleaseConflictException.class);
            } finally {
                held.countDown();
            }
            assertThat(new String(other.getData().forPath(base + "/db/pool"), UTF_8)).as("nothing written").isEqualTo("5");
            assertThat(store.awaitRelease(2, WAIT)).isTrue();
            assertThatThrownBy(() -> store.release().set("db/pool", "10").commit()).isInstanceOf(ReleaseRejectedException.class)
                .hasMessageContaining("db/pool 10 is over db/max 8");
        }
    }

    /** A key removed elsewhere that the local snapshot still shows must not keep its folder alive. */
    @Test
    void aReleaseFromALaggingSnapshotStillTakesTheFoldersItEmpties(BatonClient mine, BatonClient other, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(mine, base); ConfigStore elsewhere = started(other, base)) {
            store.set("a/b/c", "deep");
            store.set("a/x", "near");
            await().atMost(WAIT).until(() -> store.keys().size() == 2);
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            mine.eventExecutor().execute(() -> {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try {
                assertThat(elsewhere.remove("a/b/c")).isTrue();
                assertThat(store.keys()).as("the snapshot lags").contains("a/b/c");
                store.release().remove("a/x").commit();
                assertThat(other.checkExists().forPath(base + "/a")).as("the folder the release emptied went with it").isNull();
            } finally {
                held.countDown();
            }
            await().atMost(WAIT).until(() -> store.keys().isEmpty());
        }
    }

    @Test
    void concurrentWritersGetConsecutiveNumbersAndNoChangeIsLost(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore one = started(a, base); ConfigStore two = started(b, base)) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<List<Long>>> numbers = new ArrayList<>();
                for (ConfigStore store : List.of(one, two)) {
                    String who = store == one ? "one" : "two";
                    numbers.add(pool.submit(() -> {
                        List<Long> mine = new ArrayList<>();
                        for (int i = 0; i < 15; i++) {
                            mine.add(store.release().set(who + "/" + i, "x").set("last", who + i).commit().number());
                        }
                        return mine;
                    }));
                }
                List<Long> all = new ArrayList<>();
                for (Future<List<Long>> f : numbers) {
                    all.addAll(f.get());
                }
                assertThat(all).as("30 releases, each number once").containsExactlyInAnyOrderElementsOf(
                    java.util.stream.LongStream.rangeClosed(1, 30).boxed().toList());
            } finally {
                pool.shutdownNow();
            }
            assertThat(one.awaitRelease(30, WAIT)).isTrue();
            assertThat(one.keys()).hasSize(31);
            assertThat(one.getString("last")).isNotEqualTo(Optional.empty());
        }
    }

    @Test
    void aWriterReleasingBackToBackStartsEachReleaseFromItsOwnStoreNotFromTheServers(BatonClient client, TestInfo info)
        throws Exception {
        String base = base(info);
        CountingClient counting = CountingClient.wrap(client);
        try (ConfigStore store = started(counting.client(), base)) {
            assertThat(store.release().set("warm", "up").commit().number()).isEqualTo(1);
            assertThat(store.awaitRelease(1, WAIT)).isTrue();
            counting.reset();
            int releases = 40;
            for (int i = 1; i <= releases; i++) {
                assertThat(store.release().set("k", "v" + i).commit().number()).isEqualTo(1 + i);
            }
            // a release read from the servers asks for the base (checkExists) and the history (getChildren); one started from
            // the store's snapshot asks nothing beyond the store's own reads of what changed, which are multi reads
            assertThat(counting.reads(CountingClient.Read.CHECK_EXISTS))
                .as("releases of %d back to back that read the servers first, rather than wait the fraction of a round trip"
                    + " until the store shows the writer's previous release", releases)
                .isLessThanOrEqualTo(releases / 10);
            assertThat(store.awaitRelease(1 + releases, WAIT)).isTrue();
            assertThat(store.getString("k")).contains("v" + releases);
            assertThat(store.history()).extracting(Release::number).first().isEqualTo(1L + releases);
        }
    }

    /** One configReleaseSeen call, as an observer heard it. */
    private record Seen(String recipe, String path, long release, Optional<Duration> since, long shown) {
    }

    @Test
    void aWatchingStoreTellsHowLongAfterItsCommitEachNewReleaseReachedIt(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String base = base(info);
        List<Seen> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicReference<ConfigStore> shown = new java.util.concurrent.atomic.AtomicReference<>();
        BatonObserver observer = new BatonObserver() {
            @Override
            public void configReleaseSeen(String recipe, String path, long release, Optional<Duration> sinceCommitted) {
                // noted here, judged by the test's thread: an assertion failing in here would land on the store's thread
                seen.add(new Seen(recipe, path, release, sinceCommitted, shown.get() == null ? -1 : shown.get().snapshot().release()));
            }
        };
        // the writer's clock five minutes behind the watcher's: the watcher's time is its clock less the release's stamp
        Clock behind = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-5));
        try (ConfigStore writer = ConfigStore.builder(a, base).clock(behind).build()) {
            writer.start();
            assertThat(writer.awaitInitialized(WAIT)).isTrue();
            writer.release().set("k", "1").commit();
            b.addObserver(observer);
            ConfigStore watcher = ConfigStore.builder(b, base).build();
            shown.set(watcher);
            watcher.start();
            try (watcher) {
                assertThat(watcher.awaitInitialized(WAIT)).isTrue();
                assertThat(watcher.snapshot().release()).isEqualTo(1);
                long before = System.nanoTime();
                Release second = writer.release().set("k", "2").commit();
                await().atMost(WAIT).until(() -> seen.size() == 2);
                Duration elapsed = Duration.ofNanos(System.nanoTime() - before);
                assertThat(seen).allSatisfy(s -> assertThat(s.recipe()).isEqualTo("config-store"))
                    .allSatisfy(s -> assertThat(s.shown()).as("the store shows the release it tells of").isEqualTo(s.release()));
                assertThat(seen.get(0)).as("the release found at start: no time of its way")
                    .isEqualTo(new Seen("config-store", base, 1, Optional.empty(), 1));
                Seen told = seen.get(1);
                assertThat(told.path()).isEqualTo(base);
                assertThat(told.release()).isEqualTo(second.number());
                assertThat(told.since()).hasValueSatisfying(since -> assertThat(since).as("five minutes of clock difference plus the way there")
                    .isBetween(Duration.ofMinutes(5), Duration.ofMinutes(5).plus(elapsed).plusSeconds(1)));

                // a writer's clock ahead of the watcher's would make the time negative: it is told as zero
                try (ConfigStore ahead = ConfigStore.builder(a, base).clock(Clock.offset(Clock.systemUTC(), Duration.ofHours(1))).build()) {
                    ahead.start();
                    assertThat(ahead.awaitInitialized(WAIT)).isTrue();
                    ahead.awaitRelease(second.number(), WAIT);
                    Release third = ahead.release().set("k", "3").commit();
                    await().atMost(WAIT).until(() -> seen.size() == 3);
                    assertThat(seen.get(2)).isEqualTo(new Seen("config-store", base, third.number(), Optional.of(Duration.ZERO), third.number()));
                }
                // a plain set is not a release: nothing told
                writer.set("other", "x");
                await().atMost(WAIT).until(() -> watcher.getString("other").isPresent());
                assertThat(seen).hasSize(3);
            }
        } finally {
            b.removeObserver(observer);
        }
    }
}

package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The store's reads, typed views, single-key writes, bad input and watches, against one server. */
@EnsembleTest
class ConfigStoreTest {
    static final Duration WAIT = Duration.ofSeconds(20);

    static String base(TestInfo info) {
        return "/config/" + info.getTestMethod().orElseThrow().getName();
    }

    static ConfigStore started(BatonClient client, String base) throws InterruptedException {
        ConfigStore store = ConfigStore.builder(client, base).build();
        store.start();
        assertThat(store.awaitInitialized(WAIT)).as("store of %s loaded", base).isTrue();
        return store;
    }

    /** A POJO bound from JSON; the JSON may carry more than it knows. */
    record Pool(String url, int size) {
    }

    @Test
    void typedViewsReadWhatWasWrittenAndAMissingKeyIsEmpty(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            store.set("http/port", "8080");
            store.set("http/timeout", "250ms");
            store.set("http/idle", "PT2M");
            store.set("feature/checkout", " on ");
            store.set("limits/bytes", "17179869184");
            store.set("db/pool", "{\"url\":\"jdbc:postgresql://db1/orders\",\"size\":20,\"addedLater\":true}");
            store.set("greeting", "grüß dich");
            await().atMost(WAIT).until(() -> store.keys().size() == 7);

            assertThat(store.getInt("http/port")).contains(8080);
            assertThat(store.getDuration("http/timeout")).contains(Duration.ofMillis(250));
            assertThat(store.getDuration("http/idle")).contains(Duration.ofMinutes(2));
            assertThat(store.getBoolean("feature/checkout")).contains(true);
            assertThat(store.getLong("limits/bytes")).contains(17_179_869_184L);
            assertThat(store.getJson("db/pool", Pool.class)).as("unknown properties are tolerated")
                .contains(new Pool("jdbc:postgresql://db1/orders", 20));
            assertThat(store.getString("greeting")).contains("grüß dich");
            assertThat(store.get("greeting")).map(b -> new String(b, UTF_8)).contains("grüß dich");
            assertThat(store.keys()).containsExactly("db/pool", "feature/checkout", "greeting", "http/idle", "http/port",
                "http/timeout", "limits/bytes");
            assertThat(store.snapshot().keys("http")).containsExactly("http/idle", "http/port", "http/timeout");

            assertThat(store.get("nothing/here")).isEmpty();
            assertThat(store.getInt("nothing/here")).isEmpty();
            assertThat(store.getJson("nothing/here", Pool.class)).isEmpty();
            assertThat(store.getVersioned("nothing/here")).isEmpty();
        }
    }

    @Test
    void aValueOfTheWrongShapeIsATypedErrorNamingKeyExpectationAndValue(BatonClient client, TestInfo info) throws Exception {
        try (ConfigStore store = started(client, base(info))) {
            store.set("port", "eighty");
            store.set("pool", "{\"url\": 5, \"size\": \"many\"}");
            store.set("flag", "maybe");
            store.set("wait", "soon");
            await().atMost(WAIT).until(() -> store.keys().size() == 4);
            assertThatThrownBy(() -> store.getInt("port")).isInstanceOf(ConfigValueException.class)
                .hasMessage("config key 'port': expected an int (a decimal number such as 8080), was 'eighty'");
            assertThatThrownBy(() -> store.getJson("pool", Pool.class)).isInstanceOf(ConfigValueException.class)
                .hasMessageContaining("config key 'pool': the value does not bind to " + Pool.class.getName())
                .hasMessageContaining("\"many\"");
            assertThatThrownBy(() -> store.getBoolean("flag")).isInstanceOf(ConfigValueException.class)
                .hasMessageContaining("expected a boolean").hasMessageContaining("'maybe'");
            assertThatThrownBy(() -> store.getDuration("wait")).isInstanceOf(ConfigValueException.class)
                .hasMessageContaining("expected a duration (30s, 500ms").hasMessageContaining("'soon'");
        }
    }

    @Test
    void badKeysAndOversizedValuesAreRefusedBeforeAnythingIsWritten(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            assertThatThrownBy(() -> store.set("/db/url", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessage("invalid config key '/db/url': it starts with '/'; keys are relative to the store's base path"
                    + " (a key is a relative path such as 'db/url')");
            assertThatThrownBy(() -> store.set("db//url", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageStartingWith("invalid config key 'db//url': it has an empty part ('//')");
            assertThatThrownBy(() -> store.set("db/", "x")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("ends with '/'");
            assertThatThrownBy(() -> store.set("db/../etc", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageStartingWith("invalid config key 'db/../etc': '..' cannot be a part of a key");
            assertThatThrownBy(() -> store.set("./etc", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageStartingWith("invalid config key './etc': '.' cannot be a part of a key");
            assertThatThrownBy(() -> store.set("", "x")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("empty");
            assertThatThrownBy(() -> store.set(".releases", "x")).isInstanceOf(InvalidKeyException.class).hasMessageContaining("reserved");
            assertThatThrownBy(() -> store.release().set("ok", "1").set(".releases/release-0000000001", "x"))
                .isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> store.get("a\u0000b")).isInstanceOf(InvalidKeyException.class);
            assertThatThrownBy(() -> store.set("big", new byte[2 * 1024 * 1024])).isInstanceOf(DataTooLargeException.class)
                .hasMessageContaining("data is 2097152 bytes; the server accepts at most");
            assertThat(client.checkExists().forPath(base + "/big")).as("nothing half-written").isNull();
            assertThat(client.checkExists().forPath(base + "/db")).as("no folder left behind").isNull();
        }
    }

    @Test
    void readingBeforeTheFirstSnapshotSaysHowToWaitForIt(BatonClient client, TestInfo info) {
        try (ConfigStore store = ConfigStore.builder(client, base(info)).build()) {
            assertThatThrownBy(() -> store.get("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has not loaded yet: call start(), then awaitInitialized(timeout)");
        }
    }

    @Test
    void compareAndSetAndUpdateNeverLoseAWrite(BatonClient a, BatonClient b, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore one = started(a, base); ConfigStore two = started(b, base)) {
            assertThat(one.compareAndSet("counter", VersionedValue.ABSENT, "0".getBytes(UTF_8))).isTrue();
            assertThat(two.compareAndSet("counter", VersionedValue.ABSENT, "9".getBytes(UTF_8))).as("it exists now").isFalse();
            await().atMost(WAIT).until(() -> two.getVersioned("counter").isPresent());
            VersionedValue<byte[]> seen = two.getVersioned("counter").orElseThrow();
            assertThat(seen.version()).isZero();
            assertThat(one.compareAndSet("counter", seen.version(), "1".getBytes(UTF_8))).isTrue();
            assertThat(two.compareAndSet("counter", seen.version(), "1".getBytes(UTF_8))).as("version 0 is gone").isFalse();

            // two stores on two clients add 1 fifty times each, concurrently: update() retries on conflict
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (ConfigStore store : List.of(one, two)) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < 50; i++) {
                            store.update("counter", now -> Integer.toString(Integer.parseInt(new String(now.orElseThrow(), UTF_8)) + 1)
                                .getBytes(UTF_8));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            await().atMost(WAIT).until(() -> one.getInt("counter").equals(Optional.of(101)));
            VersionedValue<byte[]> created = one.update("fresh", now -> {
                assertThat(now).as("update of a missing key sees it missing").isEmpty();
                return "first".getBytes(UTF_8);
            });
            assertThat(created.version()).isZero();
            assertThat(one.remove("fresh")).isTrue();
            assertThat(one.remove("fresh")).isFalse();
        }
    }

    @Test
    void anEmptyKeyBecomesAFolderWhenAChildComesAndAKeyAgainWhenItGoes(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            List<String> told = new CopyOnWriteArrayList<>();
            store.watchPrefix("x", u -> u.changes().forEach(c -> told.add(c.key() + "=" + c.valueAsString().orElse("<removed>"))));
            client.create().creatingParentsIfNeeded().forPath(base + "/x");
            await().atMost(WAIT).until(() -> store.keys().contains("x"));
            assertThat(store.getString("x")).as("an empty leaf is a key").contains("");

            // only the child's node changes: the store must look at its parent again
            client.create().forPath(base + "/x/y", "1".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> store.keys().contains("x/y"));
            assertThat(store.keys()).as("with a child, the empty node is a folder").containsExactly("x/y");

            client.setData().forPath(base + "/x", "v".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> store.keys().contains("x"));
            assertThat(store.keys()).as("a node with data is a key, children or not").containsExactly("x", "x/y");
            client.setData().forPath(base + "/x", new byte[0]);
            await().atMost(WAIT).until(() -> !store.keys().contains("x"));
            assertThat(store.keys()).containsExactly("x/y");

            client.delete().forPath(base + "/x/y");
            await().atMost(WAIT).until(() -> !store.keys().contains("x/y"));
            assertThat(store.keys()).as("its last child gone, the empty node is a key again").containsExactly("x");
            assertThat(store.getString("x")).contains("");
            await().atMost(WAIT).until(() -> told.size() == 7);
            assertThat(told).as("the watcher heard each turn, in order").containsExactly("x=", "x=<removed>", "x/y=1", "x=v", "x=<removed>",
                "x=", "x/y=<removed>");
        }
    }

    @Test
    void readsAPlainSubtreeWrittenByOtherToolsWithoutMetadata(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        // what zkCli leaves: persistent nodes, one per key, some with children, no .releases
        client.create().creatingParentsIfNeeded().forPath(base + "/service/name", "orders".getBytes(UTF_8));
        client.create().forPath(base + "/service/port", "9090".getBytes(UTF_8));
        client.create().forPath(base + "/empty");
        client.create().withMode(CreateMode.EPHEMERAL).forPath(base + "/owner", "host-7".getBytes(UTF_8));
        try (ConfigStore store = started(client, base)) {
            assertThat(store.snapshot().asStrings()).as("an empty node with children is a folder, an empty leaf a key").containsExactly(
                java.util.Map.entry("empty", ""), java.util.Map.entry("owner", "host-7"),
                java.util.Map.entry("service/name", "orders"), java.util.Map.entry("service/port", "9090"));
            assertThat(store.snapshot().release()).isZero();
            assertThat(store.history()).isEmpty();

            client.setData().forPath(base + "/service/port", "9091".getBytes(UTF_8));
            client.delete().forPath(base + "/empty");
            await().atMost(WAIT).until(() -> store.getInt("service/port").equals(Optional.of(9091)) && !store.snapshot().contains("empty"));
        }
    }

    @Test
    void foldersMadeForNestedKeysAreNotKeysAndGoWithTheirLastKey(BatonClient client, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore store = started(client, base)) {
            store.set("a/b/c", "deep");
            store.set("a/x", "near");
            await().atMost(WAIT).until(() -> store.keys().size() == 2);
            assertThat(store.keys()).containsExactly("a/b/c", "a/x");
            assertThatThrownBy(() -> store.remove("a")).isInstanceOf(InvalidKeyException.class)
                .as("a well-formed key: no lesson on what a key looks like").hasMessage("invalid config key 'a': it has nested keys: remove them first, or in the same release");

            assertThat(store.remove("a/b/c")).isTrue();
            assertThat(client.checkExists().forPath(base + "/a/b")).as("the emptied folder went with its last key").isNull();
            assertThat(client.checkExists().forPath(base + "/a")).as("a folder with a key left stays").isNotNull();
            store.release().remove("a/x").commit();
            assertThat(client.checkExists().forPath(base + "/a")).as("a release takes the folders it empties").isNull();
            await().atMost(WAIT).until(() -> store.keys().isEmpty());
        }
    }

    @Test
    void watchersHearTheCurrentValueThenEveryChangeInOrder(BatonClient writer, BatonClient reader, TestInfo info) throws Exception {
        String base = base(info);
        try (ConfigStore out = started(writer, base); ConfigStore in = started(reader, base)) {
            out.set("db/url", "v0");
            await().atMost(WAIT).until(() -> in.getString("db/url").equals(Optional.of("v0")));
            List<String> key = new CopyOnWriteArrayList<>();
            List<String> prefix = new CopyOnWriteArrayList<>();
            CountDownLatch first = new CountDownLatch(1);
            ConfigWatch keyWatch = in.watchKey("db/url", u -> {
                u.changes().forEach(c -> key.add(c.valueAsString().orElse("<removed>")));
                first.countDown();
            });
            in.watchPrefix("db", u -> u.changes().forEach(c -> prefix.add(c.key() + "=" + c.valueAsString().orElse("<removed>"))));
            assertThat(first.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            for (int i = 1; i <= 30; i++) {
                out.set("db/url", "v" + i);
            }
            out.set("db/user", "app");
            out.set("other", "not in scope");
            out.remove("db/url");
            await().atMost(WAIT).until(() -> prefix.contains("db/url=<removed>"));
            assertThat(key.get(0)).isEqualTo("v0");
            assertThat(key.get(key.size() - 1)).as("ends on the latest value").isEqualTo("<removed>");
            List<Integer> numbers = key.stream().filter(v -> v.startsWith("v")).map(v -> Integer.parseInt(v.substring(1))).toList();
            assertThat(numbers).as("never goes back").isSorted();
            assertThat(prefix).contains("db/user=app").noneMatch(s -> s.startsWith("other"));
            keyWatch.close();
            out.set("db/url", "after-close");
            await().atMost(WAIT).until(() -> prefix.contains("db/url=after-close"));
            assertThat(key.get(key.size() - 1)).as("a closed watch hears nothing more").isEqualTo("<removed>");
        }
    }
}

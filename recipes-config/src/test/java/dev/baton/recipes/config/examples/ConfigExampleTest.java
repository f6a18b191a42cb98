package dev.baton.recipes.config.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.recipes.config.AtomicValue;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.ConfigWatch;
import dev.baton.recipes.config.DistributedAtomicLong;
import dev.baton.recipes.config.Release;
import dev.baton.recipes.config.ReleaseValidator;
import dev.baton.recipes.config.SharedCount;
import dev.baton.recipes.config.VersionedValue;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The examples of docs/config.md, compiled and run. */
@EnsembleTest
class ConfigExampleTest {
    /** The database settings of the example service, bound from one JSON key. */
    public record Database(String url, int poolSize) {
    }

    /** What a service keeps of its configuration, swapped whole on each release. */
    record Settings(Database database, Duration timeout, boolean newCheckout) {
        static Settings from(ConfigSnapshot c) {
            return new Settings(
                c.getJson("db", Database.class).orElse(new Database("jdbc:postgresql://localhost/orders", 5)),
                c.getDuration("http/timeout").orElse(Duration.ofSeconds(5)),
                c.getBoolean("feature/new-checkout").orElse(false));
        }
    }

    @Test
    void aServiceReadsWatchesAndReleasesItsConfiguration(BatonClient client) throws Exception {
        // --- the store, with a validator that refuses a release that would break the service ---
        ReleaseValidator sanePool = proposal -> proposal.result().getJson("db", Database.class)
            .filter(db -> db.poolSize() < 1 || db.poolSize() > 200)
            .map(db -> List.of("db.poolSize must be 1-200, was " + db.poolSize()))
            .orElse(List.of());
        try (ConfigStore config = ConfigStore.builder(client, "/apps/orders/config")
                 .keepReleases(20)
                 .validator(sanePool)
                 .build()) {
            config.start();
            config.awaitInitialized(Duration.ofSeconds(10));

            // --- read: from the local snapshot, no round trip; a missing key is empty ---
            Duration timeout = config.getDuration("http/timeout").orElse(Duration.ofSeconds(5));
            assertThat(timeout).isEqualTo(Duration.ofSeconds(5));

            // --- keep the service's settings current: one snapshot per update, so never half a release ---
            AtomicReference<Settings> settings = new AtomicReference<>(Settings.from(config.snapshot()));
            ConfigWatch watch = config.watchPrefix("", update -> settings.set(Settings.from(update.snapshot())));

            // --- an operator publishes a release: both keys change together ---
            Release release = config.release()
                .set("db", "{\"url\":\"jdbc:postgresql://db2/orders\",\"poolSize\":20}")
                .set("http/timeout", "750ms")
                .message("move orders to db2")
                .commit();
            config.awaitRelease(release.number(), Duration.ofSeconds(10));
            await().atMost(Duration.ofSeconds(10)).until(() -> settings.get().database().poolSize() == 20);
            assertThat(settings.get().timeout()).isEqualTo(Duration.ofMillis(750));

            // --- a bad release is refused before anything is written; a good one can be rolled back ---
            boolean refused = false;
            try {
                config.release().set("db", "{\"url\":\"jdbc:postgresql://db2/orders\",\"poolSize\":0}").commit();
            } catch (dev.baton.recipes.config.ReleaseRejectedException e) {
                refused = true;   // "release 2 of /apps/orders/config refused by the validator: db.poolSize must be 1-200, was 0"
            }
            assertThat(refused).isTrue();
            config.release().set("feature/new-checkout", "on").commit();
            Release back = config.rollback(release.number());     // feature/new-checkout goes away again
            config.awaitRelease(back.number(), Duration.ofSeconds(10));
            assertThat(config.getBoolean("feature/new-checkout")).isEmpty();

            // --- one key, read-modify-write without losing a concurrent change ---
            config.update("stats/restarts", now -> Integer.toString(now.map(b -> Integer.parseInt(new String(b)) + 1).orElse(1)).getBytes());
            watch.close();
        }

        // --- Curator's shared values, on the same nodes Curator services use ---
        try (SharedCount workers = new SharedCount(client, "/apps/orders/workers", 4)) {
            workers.start();
            VersionedValue<Integer> seen = workers.getVersionedValue();
            if (!workers.trySetCount(seen, seen.value() + 1)) {
                // someone changed it first: getVersionedValue() has the newer count; decide again
            }
        }
        DistributedAtomicLong orderNumbers = new DistributedAtomicLong(client, "/apps/orders/next-order",
            new RetryNTimes(20, Duration.ofMillis(5)));
        AtomicValue<Long> next = orderNumbers.increment();
        if (next.succeeded()) {
            assertThat(next.postValue()).isEqualTo(1L);    // unique across every process counting here
        }
    }
}

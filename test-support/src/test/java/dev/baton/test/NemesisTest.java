package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

@EnsembleTest(nodes = 3)
class NemesisTest {
    EmbeddedEnsemble ensemble;

    private Nemesis.Report run(long seed, List<ClientLink> links, List<BatonClient> clients, int faults) throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        try (Nemesis nemesis = Nemesis.builder(ensemble, seed).links(links).clients(clients)
                 .quietBetween(Duration.ofMillis(50), Duration.ofMillis(100))
                 .faultLength(Duration.ofMillis(100), Duration.ofMillis(300))
                 .clientPause(Duration.ofMillis(300))
                 .log(line -> {
                     log.add(line);
                     System.out.println(line);
                 }).build()) {
            nemesis.start();
            try {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60))
                    .until(() -> kinds(log).size() >= faults || nemesis.failed());
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // say which step did not return, and where it was
                throw new AssertionError("fewer than " + faults + " faults in 60 s; log " + log
                    + "; the nemesis thread is at " + stackOf("baton-nemesis"), e);
            }
            return nemesis.stop();
        }
    }

    @Test
    void injectsSeededFaultsAndHealsEverythingWhenStopped() throws Exception {
        List<ClientLink> links = new ArrayList<>();
        List<BatonClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                ClientLink link = ClientLink.to(ensemble);
                links.add(link);
                clients.add(TestClients.started(link.connectString(), Duration.ofSeconds(10)));
            }
            Nemesis.Report first = run(42, links, clients, 8);
            assertThat(first.total()).isGreaterThanOrEqualTo(8);
            for (int id = 1; id <= 3; id++) {
                assertThat(ensemble.role(id)).as("server %d after stop()", id).isNotEqualTo(ServerRole.STOPPED);
            }
            for (BatonClient client : clients) {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.connectionState().isConnected());
                client.create().forPath("/after-nemesis-" + client.sessionId());
            }

            Nemesis.Report again = run(42, links, clients, 8);
            assertThat(kinds(again.log()).subList(0, 8)).as("the same seed draws the same faults")
                .isEqualTo(kinds(first.log()).subList(0, 8));
        } finally {
            clients.forEach(BatonClient::close);
            links.forEach(ClientLink::close);
        }
    }

    @Test
    void everyKindAskedForHappensTheGuaranteedNumberOfTimes() throws Exception {
        try (ClientLink link = ClientLink.to(ensemble);
             BatonClient client = TestClients.started(link.connectString(), Duration.ofSeconds(10));
             Nemesis nemesis = Nemesis.builder(ensemble, 7).links(List.of(link)).clients(List.of(client))
                 .faults(Nemesis.Fault.RESTART_SERVER, Nemesis.Fault.CUT_CLIENT, Nemesis.Fault.DELAY_CLIENT,
                     Nemesis.Fault.EXPIRE_SESSION)
                 .atLeast(2)
                 .quietBetween(Duration.ofMillis(10), Duration.ofMillis(20))
                 .faultLength(Duration.ofMillis(50), Duration.ofMillis(100))
                 .build()) {
            // a duration far too short for eight faults: the run goes on until each kind happened twice
            Nemesis.Report report = nemesis.runFor(Duration.ofMillis(100));
            assertThat(report.shortfall()).as("kinds short of 2 in %s", report).isEmpty();
            assertThat(report.counts()).containsOnlyKeys(Nemesis.Fault.RESTART_SERVER, Nemesis.Fault.CUT_CLIENT,
                Nemesis.Fault.DELAY_CLIENT, Nemesis.Fault.EXPIRE_SESSION);
            assertThat(report.counts().values()).allMatch(n -> n >= 2);
        }
    }

    @Test
    void aRunCutShortByItsLimitNamesTheKindsThatDidNotHappenEnough() throws Exception {
        try (ClientLink link = ClientLink.to(ensemble);
             Nemesis nemesis = Nemesis.builder(ensemble, 7).links(List.of(link))
                 .faults(Nemesis.Fault.CUT_CLIENT, Nemesis.Fault.DELAY_CLIENT)
                 .atLeast(50)
                 .quietBetween(Duration.ofMillis(100), Duration.ofMillis(100))
                 .faultLength(Duration.ofMillis(100), Duration.ofMillis(100))
                 .build()) {
            Nemesis.Report report = nemesis.runFor(Duration.ofMillis(100), Duration.ofSeconds(1));
            assertThat(report.shortfall()).containsOnlyKeys(Nemesis.Fault.CUT_CLIENT, Nemesis.Fault.DELAY_CLIENT);
        }
    }

    @Test
    void aKindInsistedOnComesBackAfterTheGuaranteedRoundUntilTheRunHasWhatItIsFor() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        BooleanSupplier fiveDelays = () -> kinds(log).stream().filter("DELAY_CLIENT"::equals).count() >= 5;
        try (ClientLink link = ClientLink.to(ensemble);
             Nemesis nemesis = Nemesis.builder(ensemble, 7).links(List.of(link))
                 .faults(Nemesis.Fault.CUT_CLIENT, Nemesis.Fault.DELAY_CLIENT, Nemesis.Fault.PAUSE_CLIENT)
                 .atLeast(1)
                 .insistOn(Nemesis.Fault.DELAY_CLIENT, fiveDelays)
                 .quietBetween(Duration.ofMillis(10), Duration.ofMillis(20))
                 .faultLength(Duration.ofMillis(20), Duration.ofMillis(50))
                 .clientPause(Duration.ofMillis(50))
                 .log(line -> {
                     log.add(line);
                     System.out.println(line);
                 }).build()) {
            nemesis.start();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> kinds(log).size() >= 7 || nemesis.failed());
            nemesis.stop();
        }
        List<String> kinds = kinds(log);
        // the first round: each kind once, in the seed's order; then DELAY_CLIENT until there were five
        // (four in a row drawn at random: one run in 81)
        assertThat(kinds.subList(0, 3)).as("the guaranteed round, in %s", kinds)
            .containsExactlyInAnyOrder("CUT_CLIENT", "DELAY_CLIENT", "PAUSE_CLIENT");
        assertThat(kinds.subList(3, 7)).as("the draws after the round, in %s", kinds).containsOnly("DELAY_CLIENT");
    }

    @Test
    void refusesToInsistOnAKindItCannotInject() {
        assertThatThrownBy(() -> Nemesis.builder(ensemble, 1).faults(Nemesis.Fault.KILL_LEADER)
            .insistOn(Nemesis.Fault.PAUSE_PROCESS, () -> false).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("insist on PAUSE_PROCESS");
    }

    @Test
    void refusesAScheduleWithNothingItCanInject() {
        assertThatThrownBy(() -> Nemesis.builder(ensemble, 1).faults(Nemesis.Fault.CUT_CLIENT).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("can be injected here");
    }

    private static String stackOf(String threadName) {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().equals(threadName)) {
                for (StackTraceElement frame : stack) {
                    out.append("\n  at ").append(frame);
                }
            }
        });
        return out.length() == 0 ? "(not running)" : out.toString();
    }

    private static List<String> kinds(List<String> log) {
        List<String> kinds = new ArrayList<>();
        for (String line : log) {
            String what = line.substring(line.indexOf(' ') + 1);
            if (!what.startsWith("nemesis") && !what.startsWith("healed")) {
                kinds.add(what.split(" ")[0]);
            }
        }
        return kinds;
    }
}

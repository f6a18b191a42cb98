package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.Nemesis;
import dev.baton.test.TestClients;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One recipe's chaos run: an ensemble, clients each behind its own {@link ClientLink}, a seeded
 * {@link Nemesis}, and at the end a verdict — operations completed, faults injected by kind,
 * violations per invariant (must be 0) — printed with the seed and written to
 * {@code target/chaos-reports/<recipe>.txt}.
 *
 * <p>{@code -Dbaton.chaos.seconds=N} sets how long the faults run (default 30);
 * {@code -Dbaton.chaos.seed=S} replays a run's fault schedule.
 */
final class ChaosRun implements AutoCloseable {
    final String recipe;
    final EmbeddedEnsemble ensemble;
    final long seed;
    final List<ClientLink> links = new ArrayList<>();
    final List<BatonClient> clients = new ArrayList<>();
    private final Nemesis nemesis;
    /** 1 for a client whose session the nemesis is ending right now (see {@link #beingExpired}). */
    private final java.util.concurrent.atomic.AtomicIntegerArray killing;
    private Nemesis.Report report;
    private Duration ran = duration();

    ChaosRun(String recipe, EmbeddedEnsemble ensemble, int clientCount, Duration sessionTimeout, Nemesis.Fault first,
             Nemesis.Fault... more) {
        this(recipe, ensemble, clientCount, sessionTimeout, c -> { }, first, more);
    }

    /**
     * As above; {@code onExpired} hears which client the nemesis expires, to record its losses:
     * once just before the kill (the servers may delete its nodes, and others act on that, before
     * the kill returns) and once after it (for anything granted to it meanwhile). It must be
     * idempotent.
     */
    ChaosRun(String recipe, EmbeddedEnsemble ensemble, int clientCount, Duration sessionTimeout,
             java.util.function.IntConsumer onExpired, Nemesis.Fault first, Nemesis.Fault... more) {
        this.recipe = recipe;
        this.ensemble = ensemble;
        this.seed = seed();
        this.killing = new java.util.concurrent.atomic.AtomicIntegerArray(clientCount);
        for (int i = 0; i < clientCount; i++) {
            ClientLink link = ClientLink.to(ensemble);
            links.add(link);
            clients.add(TestClients.started(BatonClient.builder().connectString(link.connectString())
                .sessionTimeout(sessionTimeout).connectionTimeout(Duration.ofSeconds(5))));
        }
        this.nemesis = Nemesis.builder(ensemble, seed).links(links).clients(clients).faults(first, more)
            .quietBetween(Duration.ofMillis(300), Duration.ofMillis(1500))
            .faultLength(Duration.ofMillis(500), Duration.ofMillis(2500))
            .clientPause(sessionTimeout.plusSeconds(2))
            .log(line -> System.out.println("[" + recipe + "] " + line))
            .onExpiring(c -> {
                killing.set(c, 1);
                onExpired.accept(c);
            })
            .onExpired(c -> {
                onExpired.accept(c);
                killing.set(c, 0);
            })
            .build();
    }

    /**
     * Whether the nemesis is ending client {@code c}'s session right now: between the start of
     * the kill and its return. The servers may delete the session's nodes at any moment in that
     * window, and others may act on it before the client hears; a hold granted to the client in
     * the window (or granted just before and recorded in it) rests on a session being ended, so
     * a history counts it lost at once, as the kill's start does for the holds recorded before it.
     */
    boolean beingExpired(int c) {
        return killing.get(c) == 1;
    }

    static long seed() {
        String given = System.getProperty("baton.chaos.seed", "");
        return given.isBlank() ? System.nanoTime() : Long.parseLong(given.trim());
    }

    static Duration duration() {
        return Duration.ofSeconds(Long.getLong("baton.chaos.seconds", 30));
    }

    BatonClient client(int i) {
        return clients.get(i);
    }

    /** Runs the nemesis for the configured duration while the workload (started by the caller) runs. */
    void runFaults() throws InterruptedException {
        runFaults(duration());
    }

    /** Runs the nemesis for {@code length} (a recipe family split across tests shares its duration). */
    void runFaults(Duration length) throws InterruptedException {
        ran = length;
        report = nemesis.runFor(length);
    }

    /**
     * Prints and records the verdict, then fails the test if any check found a violation or
     * nothing was done.
     *
     * @param checks each invariant's name and the problems its checker found
     */
    void verdict(long operations, Map<String, List<String>> checks) throws IOException {
        verdict(recipe, seed, ran, report, operations, checks);
    }

    /** {@link #verdict(long, Map)} for a run that drives its own {@link Nemesis}. */
    static void verdict(String recipe, long seed, Duration ran, Nemesis.Report report, long operations,
                        Map<String, List<String>> checks) throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("chaos ").append(recipe).append(": seed ").append(seed).append(", ").append(ran.toSeconds())
            .append(" s of faults, ").append(operations).append(" operations completed\n");
        s.append("  faults injected: ").append(report == null ? "none" : report.counts()).append('\n');
        Map<String, Integer> violations = new LinkedHashMap<>();
        checks.forEach((name, problems) -> violations.put(name, problems.size()));
        s.append("  violations: ").append(violations).append('\n');
        checks.forEach((name, problems) -> problems.stream().limit(10).forEach(p -> s.append("    ").append(name).append(": ")
            .append(p).append('\n')));
        s.append("  verdict: ").append(violations.values().stream().allMatch(v -> v == 0) && operations > 0 ? "PASS" : "FAIL")
            .append(" (replay with -Dbaton.chaos.seed=").append(seed).append(")\n");
        System.out.print(s);
        Files.createDirectories(reports());
        Files.writeString(reports().resolve(recipe + ".txt"), s.toString(), StandardCharsets.UTF_8);
        assertThat(operations).as("the %s workload made progress under faults (seed %d)", recipe, seed).isPositive();
        checks.forEach((name, problems) -> assertThat(problems).as("%s violations (seed %d)", name, seed).isEmpty());
    }

    /** Where verdicts (and client-process logs) go: {@code -Dbaton.chaos.reports}, else target/chaos-reports. */
    static Path reports() {
        return Path.of(System.getProperty("baton.chaos.reports", "target/chaos-reports"));
    }

    @Override
    public void close() throws InterruptedException {
        nemesis.close();
        clients.forEach(BatonClient::close);
        links.forEach(ClientLink::close);
    }
}

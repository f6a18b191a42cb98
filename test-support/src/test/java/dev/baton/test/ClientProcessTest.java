package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientProcess.Message;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ClientProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final List<Message> messages = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void unixOnly() {
        assumeTrue(ClientProcess.supported(), "client processes need SIGSTOP/SIGCONT (Unix); this is "
            + System.getProperty("os.name"));
    }

    private ClientProcess start(String name) throws Exception {
        return ClientProcess.builder(name, EchoChild.class).args("one", "two")
            .onMessage(messages::add)
            .onRequest(m -> m.field(0).toUpperCase() + "-back")
            .start();
    }

    private Message awaitMessage(Predicate<Message> what) {
        return await().atMost(WAIT).until(() -> messages.stream().filter(what).findFirst(), Optional::isPresent).get();
    }

    private static Predicate<Message> kind(String kind) {
        return m -> m.kind().equals(kind);
    }

    private static Predicate<Message> tickAfter(Instant time) {
        return m -> m.kind().equals("tick") && m.time().isAfter(time);
    }

    @Test
    void reportsAndAnswersCrossTheLineProtocolStampedWithTheWallClock() throws Exception {
        Instant before = Instant.now();
        try (ClientProcess child = start("echo")) {
            Message ready = awaitMessage(kind("ready"));
            Message answered = awaitMessage(kind("answered"));

            assertThat(ready.fields()).containsExactly("one", "two");
            assertThat(answered.field(0)).isEqualTo("HELLO-back");
            assertThat(ready.time()).as("stamped by the child's clock, the same as ours").isBetween(before, Instant.now());
            assertThat(awaitMessage(kind(ClientProcess.STARTED)).longField(0)).isEqualTo(child.pid());
            assertThat(Files.readString(child.log(), StandardCharsets.UTF_8))
                .as("what the child prints on System.out is not protocol").contains("not protocol");
        }
    }

    @Test
    void aPauseFreezesTheWholeJvmUntilItIsResumed() throws Exception {
        try (ClientProcess child = start("frozen")) {
            awaitMessage(kind("tick"));
            child.pause();
            Instant paused = awaitMessage(kind(ClientProcess.PAUSED)).time();

            assertThat(child.isPaused()).isTrue();
            await().during(Duration.ofMillis(500)).atMost(WAIT)
                .until(() -> messages.stream().noneMatch(tickAfter(paused)));

            child.resume();
            Instant resumed = awaitMessage(kind(ClientProcess.RESUMED)).time();
            Message next = awaitMessage(tickAfter(paused));
            assertThat(next.time()).as("the child stamped nothing while it was stopped").isAfter(resumed);
            assertThat(child.isPaused()).isFalse();
        }
    }

    @Test
    void killEndsTheChildAtOnceEvenWhenPausedAndRestartStartsAFreshOne() throws Exception {
        try (ClientProcess child = start("killed")) {
            long first = child.pid();
            awaitMessage(kind("tick"));
            child.pause();
            child.kill();

            assertThat(child.isAlive()).isFalse();
            assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            Instant killed = awaitMessage(kind(ClientProcess.KILLED)).time();

            child.restart();
            assertThat(child.pid()).isNotEqualTo(first);
            assertThat(awaitMessage(m -> m.kind().equals("ready") && m.time().isAfter(killed)).fields()).containsExactly("one", "two");
            assertThat(messages).as("a kill we made is not reported as the child exiting").noneMatch(kind(ClientProcess.EXITED));
        }
    }

    @Test
    void aChildHaltsWhenItsInputEndsAsWhenItsParentDies() throws Exception {
        try (ClientProcess child = start("orphan")) {
            awaitMessage(kind("tick"));
            child.closeInput();

            assertThat(awaitMessage(kind(ClientProcess.EXITED)).field(0)).isEqualTo("0");
            assertThat(child.isAlive()).isFalse();
        }
    }

    @Test
    void closeSaysWhyAChildThatCrashedEndedAndShowsTheEndOfItsLog() throws Exception {
        ClientProcess child = ClientProcess.builder("crasher", EchoChild.class).args("crash", "no-such-ensemble")
            .onMessage(messages::add).start();
        assertThat(awaitMessage(kind(ClientProcess.EXITED)).field(0)).isEqualTo("1");

        // a test waiting for the worker's reports would time out; its close() must say what happened
        assertThatThrownBy(child::close).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("client process crasher exited by itself with status 1")
            .hasMessageContaining("IllegalStateException: the worker could not start: no-such-ensemble");
        assertThat(child.log()).as("a temporary log is deleted all the same").doesNotExist();
    }

    @Test
    void aCrashedChildsLogThatIsNotUtf8IsShownAllTheSame() throws Exception {
        // a child on Java 17 in an ISO-8859-1 locale writes its stderr in that charset
        ClientProcess child = ClientProcess.builder("crasher", EchoChild.class).args("crash-latin1", "no-such-ensemble")
            .onMessage(messages::add).start();
        assertThat(awaitMessage(kind(ClientProcess.EXITED)).field(0)).isEqualTo("1");

        assertThatThrownBy(child::close).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("client process crasher exited by itself with status 1")
            .hasMessageContaining("ller's worker says:")
            .hasMessageContaining("IllegalStateException: the worker could not start: no-such-ensemble");
    }

    @Test
    void aNemesisPausesAndKillsClientProcessesAndItsStopLeavesThemRunning() throws Exception {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(1).build(); ClientProcess child = start("victim")) {
            ensemble.start();
            awaitMessage(kind("tick"));
            Nemesis.Report report;
            try (Nemesis nemesis = Nemesis.builder(ensemble, 7).processes(List.of(child))
                     .faults(Nemesis.Fault.PAUSE_PROCESS, Nemesis.Fault.KILL_PROCESS)
                     .quietBetween(Duration.ofMillis(50), Duration.ofMillis(100))
                     .faultLength(Duration.ofMillis(100), Duration.ofMillis(200))
                     .clientPause(Duration.ofMillis(300))
                     .build()) {
                nemesis.start();
                await().atMost(WAIT).until(() -> nemesis.failed()
                    || messages.stream().anyMatch(kind(ClientProcess.RESUMED)) && messages.stream().anyMatch(kind(ClientProcess.KILLED)));
                report = nemesis.stop();
            }

            assertThat(report.counts()).containsKeys(Nemesis.Fault.PAUSE_PROCESS, Nemesis.Fault.KILL_PROCESS);
            assertThat(child.isAlive()).as("a killed process is started again").isTrue();
            assertThat(child.isPaused()).isFalse();
            awaitMessage(tickAfter(Instant.now()));
        }
    }

    @Test
    void closeKillsTheChildAndSaysWhenAHandlerFailed() throws Exception {
        ClientProcess child = ClientProcess.builder("failing", EchoChild.class)
            .onMessage(messages::add)
            .onRequest(m -> {
                throw new IllegalArgumentException("no echo today");
            })
            .start();
        long pid = child.pid();
        awaitMessage(kind("ask-failed"));

        assertThatThrownBy(child::close).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("failing").hasRootCauseMessage("no echo today");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void aHandlerThatBlocksFailsTheCloseShowingWhereItIsInsteadOfHangingIt() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch blocked = new java.util.concurrent.CountDownLatch(1);
        ClientProcess child = ClientProcess.builder("stuck", EchoChild.class).args("one", "two")
            .onMessage(m -> {
                if (m.kind().equals("tick")) {
                    blocked.countDown();
                    try {
                        release.await(); // a test's handler that waits for something that never comes
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            })
            .onRequest(m -> "back")
            .handlerTimeout(Duration.ofSeconds(1))
            .start();
        try {
            assertThat(blocked.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).as("the handler got a tick").isTrue();
            long before = System.nanoTime();
            assertThatThrownBy(child::close).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client process stuck").hasMessageContaining("handler has not returned")
                .cause().hasMessageContaining("where the reader thread");
            assertThat(Duration.ofNanos(System.nanoTime() - before)).as("bounded by the handler timeout, not for ever")
                .isLessThan(WAIT);
        } finally {
            release.countDown();
        }
        assertThatThrownBy(() -> ClientProcess.builder("x", EchoChild.class).handlerTimeout(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("handlerTimeout must be more than zero");
    }
}

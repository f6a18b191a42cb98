package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The multi-lock's and the semaphore's "all or none before one deadline", without a server. */
class AllOrNothingTest {
    private final List<String> givenBack = new CopyOnWriteArrayList<>();
    private final List<Duration> budgets = new CopyOnWriteArrayList<>();

    private Function<Deadline, CompletableFuture<String>> step(CompletableFuture<String> outcome) {
        return deadline -> {
            budgets.add(deadline.isNone() ? Duration.ofDays(-1) : deadline.remaining());
            return outcome;
        };
    }

    @Test
    void everyStepSharesOneBudget() throws Exception {
        AtomicLong now = new AtomicLong(1_000);
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<List<String>> all = AllOrNothing.acquire(
            List.of(step(first), step(second), step(CompletableFuture.completedFuture("c"))), Deadline.after(Duration.ofSeconds(10), now::get),
            givenBack::add);

        now.addAndGet(Duration.ofSeconds(3).toNanos()); // the first step took 3 s
        first.complete("a");
        now.addAndGet(Duration.ofSeconds(8).toNanos()); // the second took 8 s: the budget is spent
        second.complete("b");

        assertThat(all.get()).containsExactly("a", "b", "c");
        assertThat(budgets).containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(7), Duration.ZERO);
        assertThat(givenBack).isEmpty();
    }

    @Test
    void aSpentBudgetMakesTheRemainingStepsLookOnce() throws Exception {
        CompletableFuture<List<String>> all = AllOrNothing.acquire(
            List.of(step(CompletableFuture.completedFuture("a")), step(CompletableFuture.completedFuture("b"))), Deadline.after(Duration.ZERO),
            givenBack::add);

        assertThat(all.get()).containsExactly("a", "b");
        assertThat(budgets).containsExactly(Duration.ZERO, Duration.ZERO);
    }

    @Test
    void noLimitMeansNoLimitForEveryStep() throws Exception {
        AllOrNothing.acquire(List.of(step(CompletableFuture.completedFuture("a"))), Deadline.none(), givenBack::add).get();

        assertThat(budgets).containsExactly(Duration.ofDays(-1));
    }

    @Test
    void aTimedOutStepGivesBackWhatWasTakenInReverseOrder() throws Exception {
        CompletableFuture<List<String>> all = AllOrNothing.acquire(List.of(step(CompletableFuture.completedFuture("a")),
            step(CompletableFuture.completedFuture("b")), step(CompletableFuture.completedFuture(null))), Deadline.after(Duration.ofSeconds(1)),
            givenBack::add);

        assertThat(all.get()).isNull();
        assertThat(givenBack).containsExactly("b", "a");
    }

    @Test
    void aFailedStepFailsTheWholeAndGivesBack() {
        CompletableFuture<List<String>> all = AllOrNothing.acquire(List.of(step(CompletableFuture.completedFuture("a")),
            step(CompletableFuture.failedFuture(new IllegalStateException("boom")))), Deadline.none(), givenBack::add);

        assertThat(all).isCompletedExceptionally();
        assertThat(givenBack).containsExactly("a");
    }

    @Test
    void cancellingCancelsTheStepUnderWayGivesBackAndGivesBackALateArrival() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        CompletableFuture<List<String>> all = AllOrNothing.acquire(List.of(step(CompletableFuture.completedFuture("a")),
            step(pending)), Deadline.none(), givenBack::add);

        all.cancel(true);

        assertThat(pending).as("the step under way is cancelled").isCancelled();
        assertThat(givenBack).containsExactly("a");
    }

    @Test
    void aValueArrivingAfterTheWholeEndedIsGivenBack() {
        CompletableFuture<String> late = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterrupt) {
                return false; // too late to cancel: its value is on the way
            }
        };
        CompletableFuture<List<String>> all = AllOrNothing.acquire(List.of(step(late)), Deadline.none(), givenBack::add);
        all.complete(null); // as a timer would

        late.complete("x");

        assertThat(givenBack).containsExactly("x");
    }
}

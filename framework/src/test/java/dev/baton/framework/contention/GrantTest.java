package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.InterProcessLock;
import dev.baton.framework.TransactionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/** The handle recipes give out, without a server. */
class GrantTest {
    /** A hold whose validity the test decides. */
    private static final class FakeHold implements Hold {
        boolean valid = true;
        int deletes;

        @Override
        public long fencingToken() {
            return 42;
        }

        @Override
        public List<String> nodes() {
            return List.of("/a/_c_x-lock-0000000001");
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public Optional<String> lossReason() {
            return valid ? Optional.empty() : Optional.of("session expired");
        }

        @Override
        public void onLost(Runnable callback) {
        }

        @Override
        public TransactionBuilder guard(TransactionBuilder transaction) {
            return transaction;
        }

        @Override
        public boolean connected() {
            return true;
        }

        @Override
        public CompletableFuture<Void> delete() {
            deletes++;
            return CompletableFuture.completedFuture(null);
        }
    }

    private static final class Special extends OwnershipLostException {
        Special(String message) {
            super(message);
        }
    }

    private static final class SpecialGrant extends Grant {
        SpecialGrant(Hold hold, List<Grant> released) {
            super(hold, "lease of test", released::add);
        }

        @Override
        protected OwnershipLostException newLostException(String message) {
            return new Special(message);
        }
    }

    @Test
    void releaseOfALostGrantDeletesAndThenThrowsTheRecipesException() {
        FakeHold hold = new FakeHold();
        List<Grant> released = new ArrayList<>();
        Grant grant = new SpecialGrant(hold, released);
        hold.valid = false;

        assertThatThrownBy(grant::release).isInstanceOf(Special.class).isInstanceOf(IllegalMonitorStateException.class)
            .hasMessageContaining("lease of test was lost").hasMessageContaining("session expired");
        assertThat(hold.deletes).isEqualTo(1);
        assertThat(released).containsExactly(grant);
        assertThatThrownBy(grant::release).isInstanceOf(IllegalMonitorStateException.class).isNotInstanceOf(Special.class)
            .hasMessageContaining("already released");
        grant.close();
        grant.releaseQuietly();
        assertThat(hold.deletes).as("closing or quietly releasing a released grant does nothing").isEqualTo(1);
    }

    @Test
    void aValidGrantReleasesOnceAndGuardsOnlyWhileHeld() {
        FakeHold hold = new FakeHold();
        Grant grant = new SpecialGrant(hold, new ArrayList<>());
        assertThat(grant.isValid()).isTrue();
        assertThat(grant.fencingToken()).isEqualTo(42);
        TransactionBuilder transaction = (TransactionBuilder) java.lang.reflect.Proxy.newProxyInstance(
            TransactionBuilder.class.getClassLoader(), new Class<?>[] {TransactionBuilder.class}, (p, m, a) -> null);
        assertThat(grant.guard(transaction)).isSameAs(transaction);

        grant.close();

        assertThat(grant.isValid()).isFalse();
        assertThat(hold.deletes).isEqualTo(1);
        assertThatThrownBy(() -> grant.guard(transaction)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was released");
    }

    @Test
    void everyInterProcessLockHasALockView() throws Exception {
        AtomicInteger zeroTries = new AtomicInteger();
        AtomicInteger releases = new AtomicInteger();
        InterProcessLock lock = new InterProcessLock() {
            @Override
            public void acquire() {
            }

            @Override
            public boolean acquire(Duration timeout) {
                if (timeout.isZero()) {
                    zeroTries.incrementAndGet();
                }
                return true;
            }

            @Override
            public void release() {
                releases.incrementAndGet();
            }

            @Override
            public boolean isAcquiredInThisProcess() {
                return false;
            }

            @Override
            public long fencingToken() {
                return 0;
            }
        };
        Lock view = lock.asLock();
        assertThat(view.tryLock()).isTrue();
        view.unlock();
        assertThat(zeroTries).hasValue(1);
        assertThat(releases).hasValue(1);
        assertThatThrownBy(view::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }
}

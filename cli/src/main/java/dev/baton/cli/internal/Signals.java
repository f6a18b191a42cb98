package dev.baton.cli.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import sun.misc.Signal;

/**
 * Catches SIGINT, SIGTERM and SIGHUP sent to {@code baton}. While waiting for a lock they end
 * the wait (the queue node is removed); while a command runs they are passed on to it.
 *
 * <p>No signal is lost between the two: the wait's handler declines a signal that comes after
 * the grant (it can no longer cancel anything), and a declined signal is kept for whoever takes
 * over — baton checks for one before it starts the command, and the command's handler receives
 * any that came in between. Delivery and a change of target exclude each other, so a signal goes
 * either to the old target or to the new one, never to neither.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported), the JDK's only way to handle a signal
 * without exiting.
 */
public final class Signals {
    private static final String[] FORWARDED = {"INT", "TERM", "HUP"};
    private static final Object LOCK = new Object();
    /** Where signals go; guarded by LOCK. */
    private static Predicate<String> target;
    /** Signals caught that no target took, oldest first; guarded by LOCK. */
    private static final Deque<String> kept = new ArrayDeque<>();
    private static boolean installed;

    private Signals() {
    }

    /**
     * From now on, those signals go to {@code target} instead of ending the JVM, signals kept
     * until now first. The handlers are installed on the first call; later calls only change the
     * target.
     *
     * @param target called with the signal's name ({@code "INT"}, {@code "TERM"} or {@code "HUP"}),
     *     on a thread the JDK starts for each signal, or on the caller's for a kept one
     */
    public static void forwardTo(Consumer<String> target) {
        offerTo(signal -> {
            target.accept(signal);
            return true;
        });
    }

    /**
     * From now on, those signals are offered to {@code target}, kept ones first; one it declines
     * is kept for the next target or {@link #takeKept()}. The handlers are installed on the first
     * call.
     *
     * @param target given the signal's name ({@code "INT"}, {@code "TERM"} or {@code "HUP"});
     *     returns whether it took the signal (false: keep it)
     */
    public static void offerTo(Predicate<String> target) {
        synchronized (LOCK) {
            Signals.target = target;
            install();
            while (!kept.isEmpty() && target.test(kept.peekFirst())) {
                kept.removeFirst();
            }
        }
    }

    /**
     * {@return the oldest signal caught that no target took, if any} It is then no longer kept.
     */
    public static Optional<String> takeKept() {
        synchronized (LOCK) {
            return Optional.ofNullable(kept.pollFirst());
        }
    }

    /**
     * What the handler does with a caught signal: offers it to the current target, or keeps it
     * if there is none or it declines. Public so that a test can hand it a signal the way the JVM
     * does.
     *
     * @param signal the signal's name: {@code "INT"}, {@code "TERM"} or {@code "HUP"}
     */
    public static void deliver(String signal) {
        synchronized (LOCK) {
            if (target == null || !target.test(signal)) {
                kept.addLast(signal);
            }
        }
    }

    private static void install() {
        if (installed) {
            return;
        }
        for (String name : FORWARDED) {
            try {
                Signal.handle(new Signal(name), signal -> deliver(signal.getName()));
            } catch (IllegalArgumentException notOnThisPlatform) {
                // the signal does not exist here; nothing to forward
            }
        }
        installed = true;
    }
}

package dev.baton.cli.internal;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * Catches SIGINT, SIGTERM and SIGHUP sent to {@code baton}. While waiting for a lock they end
 * the wait (the queue node is removed); while a command runs they are passed on to it.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported), the JDK's only way to handle a signal
 * without exiting.
 */
public final class Signals {
    private static final String[] FORWARDED = {"INT", "TERM", "HUP"};
    private static final AtomicReference<Consumer<String>> TARGET = new AtomicReference<>();
    private static volatile boolean installed;

    private Signals() {
    }

    /** From now on, those signals go to {@code target} (by name: "INT", "TERM", "HUP") instead of ending the JVM. */
    public static synchronized void forwardTo(Consumer<String> target) {
        TARGET.set(target);
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

    /** What the handler does with a caught signal ("INT", "TERM", "HUP"): gives it to the current target. */
    public static void deliver(String signal) {
        Consumer<String> t = TARGET.get();
        if (t != null) {
            t.accept(signal);
        }
    }
}

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

    /**
     * From now on, those signals go to {@code target} instead of ending the JVM. The handlers are
     * installed on the first call; later calls only change the target.
     *
     * @param target called, on a thread the JDK starts for each signal, with the signal's name:
     *     {@code "INT"}, {@code "TERM"} or {@code "HUP"}; {@code null} makes the signals do nothing
     */
    public static synchronized void forwardTo(Consumer<String> target) {
        TARGET.set(target);
        if (installed) {
            return;
        }
        for (String name : FORWARDED) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    Consumer<String> t = TARGET.get();
                    if (t != null) {
                        t.accept(signal.getName());
                    }
                });
            } catch (IllegalArgumentException notOnThisPlatform) {
                // the signal does not exist here; nothing to forward
            }
        }
        installed = true;
    }
}

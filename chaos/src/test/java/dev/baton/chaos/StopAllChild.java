package dev.baton.chaos;

import dev.baton.test.ParentChannel;
import java.util.concurrent.CountDownLatch;

/**
 * A client process for {@link StopAllTest}: with the argument {@code crash} it throws out of
 * {@code main} (a worker that fails while it sets up), else it reports {@code ready} and waits
 * until it is killed or its parent goes away.
 */
final class StopAllChild {
    private StopAllChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentChannel parent = ParentChannel.open();
        if (args[0].equals("crash")) {
            throw new IllegalStateException("the worker could not start");
        }
        parent.report("ready");
        new CountDownLatch(1).await(); // nobody counts it down: the child lives until it is killed
    }
}

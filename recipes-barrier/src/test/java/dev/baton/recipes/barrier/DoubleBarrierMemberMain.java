package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.test.ParentChannel;
import dev.baton.test.TestClients;
import java.time.Duration;

/**
 * A double-barrier member in a JVM of its own, for a test to SIGKILL: it reports "entering" with
 * its member name, enters, reports "entered", and then does nothing until it is killed (or its
 * parent goes away).
 *
 * <p>Arguments: connect string, barrier path, member count, session timeout in milliseconds.
 */
final class DoubleBarrierMemberMain {
    private DoubleBarrierMemberMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentChannel parent = ParentChannel.open();
        BatonClient client = TestClients.started(args[0], Duration.ofMillis(Long.parseLong(args[3])));
        DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(client, args[1], Integer.parseInt(args[2]));
        parent.report("entering", barrier.memberName());
        barrier.enter();
        parent.report("entered", barrier.memberName());
        Thread.currentThread().join();   // inside the barrier until killed
    }
}

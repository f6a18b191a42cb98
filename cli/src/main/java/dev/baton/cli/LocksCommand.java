package dev.baton.cli;

import dev.baton.cli.RecipeScan.Contender;
import dev.baton.cli.RecipeScan.Found;
import dev.baton.cli.RecipeScan.Kind;
import dev.baton.framework.BatonClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton locks [PATH]}: every mutex, semaphore, read/write lock and ZooKeeper WriteLock
 * under a path, each with its holders and its waiters in line order, and each node's session,
 * age and fencing token (the node's creation zxid, as the recipes define it).
 */
@Command(name = "locks",
    description = {"Show every lock under a path: holders, waiters in order, sessions, ages, fencing tokens.",
        "Show every mutex (InterProcessMutex, and LeaderSelector, whose layout is a mutex's), semaphore, read/write lock "
            + "and ZooKeeper WriteLock under PATH, Curator's and Baton's alike: who holds it and who waits, in line order, "
            + "with each node's session, age and fencing token (its creation zxid). A semaphore's newest lease shows as "
            + "'counting' while its owner still counts the leases (maxLeases is not stored in ZooKeeper)."})
final class LocksCommand implements Callable<Integer> {
    private static final Set<Kind> LOCKS = Set.of(Kind.MUTEX, Kind.READ_WRITE, Kind.SEMAPHORE, Kind.WRITE_LOCK);

    @Mixin
    ConnectOptions connection;
    @Mixin
    Output output;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = "/",
        description = "Where to look, with everything below it (default: /, all but /zookeeper).")
    String path;

    /**
     * One lock.
     *
     * @param path its folder
     * @param kind mutex, rwlock, semaphore or writelock
     * @param holders who holds it, oldest first
     * @param waiters who waits, in the order they will get it (first, for a semaphore, the lease whose owner is
     *     still counting: state {@code counting})
     */
    record Lock(String path, String kind, List<Contender> holders, List<Contender> waiters) {
    }

    /**
     * What {@code --json} prints.
     *
     * @param path where the command looked
     * @param locks every lock found, in path order
     */
    record Report(String path, List<Lock> locks) {
    }

    @Override
    public Integer call() throws InterruptedException {
        String root = TreeCommands.path(path);
        List<Lock> locks = new ArrayList<>();
        try (BatonClient client = connection.connect()) {
            for (Found found : RecipeScan.scan(client, root)) {
                if (LOCKS.contains(found.kind())) {
                    List<Contender> line = RecipeScan.line(client, found);
                    List<Contender> holders = line.stream().filter(Contender::holds).toList();
                    List<Contender> waiters = line.stream().filter(c -> !c.holds()).toList();
                    locks.add(new Lock(found.path(), found.kind().label, holders, waiters));
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Output.json(out, new Report(root, locks));
        } else if (locks.isEmpty()) {
            out.println("no locks under " + root);
        } else {
            for (Lock lock : locks) {
                out.println(lock.path() + "  " + lock.kind() + "  " + lock.holders().size() + " holding, " + lock.waiters().size() + " waiting");
                List<Contender> line = new ArrayList<>(lock.holders());
                line.addAll(lock.waiters());
                if (!line.isEmpty()) {
                    RecipeScan.print(out, line);
                }
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}

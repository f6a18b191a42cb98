package dev.baton.cli;

import dev.baton.cli.RecipeScan.Contender;
import dev.baton.cli.RecipeScan.Found;
import dev.baton.cli.RecipeScan.Kind;
import dev.baton.framework.BatonClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton leaders [PATH]}: every election under a path, with its leader, its term and the
 * candidates in the order they would take over.
 *
 * <p>The leader is the participant whose node is first in line, the one entitled to lead (a
 * latch under the CONNECTION policy may have stepped down for a while without its node moving).
 * Its term is its node's creation zxid: the fencing token the recipe hands the leader, larger for
 * every later term.
 */
@Command(name = "leaders",
    description = {"Show every election under a path: the leader, its term, the candidates in order.",
        "Show every LeaderLatch election under PATH (Curator's and Baton's): the leader (first in line), its term (the "
            + "fencing token the recipe gives it: its node's creation zxid) and the candidates in the order they would take "
            + "over, with each one's participant id, session and age. A LeaderSelector's line is laid out like a mutex; "
            + "--selectors shows those too (every mutex under PATH then shows as an election)."})
final class LeadersCommand implements Callable<Integer> {
    @Mixin
    ConnectOptions connection;
    @Mixin
    Output output;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = "/",
        description = "Where to look, with everything below it (default: /, all but /zookeeper).")
    String path;
    @Option(names = "--selectors", description = "Also show lock- lines (LeaderSelector elections, and mutexes).")
    boolean selectors;

    /**
     * One election.
     *
     * @param path its folder
     * @param kind latch, or selector for a lock- line
     * @param leader the participant first in line, or null when nobody takes part
     * @param term the leader's term (its node's creation zxid, the recipe's fencing token), or null
     * @param candidates the others, in the order they would lead
     */
    record Election(String path, String kind, Contender leader, Long term, List<Contender> candidates) {
    }

    /**
     * What {@code --json} prints.
     *
     * @param path where the command looked
     * @param elections every election found, in path order
     */
    record Report(String path, List<Election> elections) {
    }

    @Override
    public Integer call() throws InterruptedException {
        String root = TreeCommands.path(path);
        List<Election> elections = new ArrayList<>();
        try (BatonClient client = connection.connect()) {
            for (Found found : RecipeScan.scan(client, root)) {
                if (found.kind() == Kind.LATCH || selectors && found.kind() == Kind.MUTEX) {
                    List<Contender> line = RecipeScan.line(client, found).stream()
                        .map(c -> c.holds() ? new Contender(c.node(), "leads", c.session(), c.ageMillis(), c.token(), c.data()) : c)
                        .toList();
                    Contender leader = line.isEmpty() ? null : line.get(0);
                    elections.add(new Election(found.path(), found.kind() == Kind.LATCH ? "latch" : "selector", leader,
                        leader == null ? null : leader.token(), line.isEmpty() ? List.of() : line.subList(1, line.size())));
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Output.json(out, new Report(root, elections));
        } else if (elections.isEmpty()) {
            out.println("no elections under " + root);
        } else {
            for (Election e : elections) {
                out.println(e.path() + "  " + e.kind() + "  " + (e.leader() == null ? "no leader"
                    : "leader " + (e.leader().data().isEmpty() ? e.leader().session() : "'" + Output.cell(e.leader().data(), 40) + "'")
                        + " term " + e.term() + ", " + e.candidates().size() + " waiting"));
                if (e.leader() != null) {
                    List<Contender> line = new ArrayList<>();
                    line.add(e.leader());
                    line.addAll(e.candidates());
                    RecipeScan.print(out, line);
                }
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}

package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.ChildrenCache;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton members GROUP [--watch]}: who is in a group (GroupMember's layout, Curator's too). */
@Command(name = "members",
    description = {"List the members of a group.",
        "One line per member: its id, two spaces, its data. With --watch: '+ ID  DATA' for each member now and each "
            + "that joins, '~ ID  DATA' when a member's data changes, '- ID' when one leaves, until Ctrl-C. "
            + "GROUP is a path if it starts with /, else /baton/groups/GROUP."})
final class MembersCommand implements Callable<Integer> {
    @Mixin
    ConnectOptions connection;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "GROUP", description = "The group.")
    String group;
    @Option(names = "--watch", description = "Keep printing joins, changes and leaves until Ctrl-C.")
    boolean watch;

    @Override
    public Integer call() throws InterruptedException {
        String path = Names.path("groups", group);
        PrintWriter out = spec.commandLine().getOut();
        if (!watch) {
            try (BatonClient client = connection.connect()) {
                for (String id : ids(client, path)) {
                    try {
                        out.println(line(id, client.getData().forPath(ZPaths.join(path, id))));
                    } catch (NoNodeException left) {
                        // left between the listing and the read
                    }
                }
                out.flush();
                return ExitCodes.OK;
            }
        }
        try (Lifetime life = new Lifetime();
             BatonClient client = connection.connect();
             ChildrenCache cache = new ChildrenCache(client, path)) {
            cache.addListener(event -> print(out, event));
            cache.start();
            cache.awaitInitialized(Duration.ofSeconds(30));
            life.awaitStop();
            return ExitCodes.OK;
        }
    }

    private static List<String> ids(BatonClient client, String path) throws InterruptedException {
        try {
            List<String> ids = new ArrayList<>(client.getChildren().forPath(path));
            ids.sort(null);
            return ids;
        } catch (NoNodeException noGroup) {
            return List.of();
        }
    }

    private static String line(String id, byte[] data) {
        return data.length == 0 ? id : id + "  " + new String(data, UTF_8);
    }

    private static void print(PrintWriter out, CacheEvent event) {
        ChildData member = event.node();
        String line = switch (event.type()) {
            case ADDED -> "+ " + line(member.name(), member.data());
            case UPDATED -> "~ " + line(member.name(), member.data());
            case REMOVED -> "- " + member.name();
            case INITIALIZED -> null;
        };
        if (line != null) {
            synchronized (out) {
                out.println(line);
                out.flush();
            }
        }
    }
}

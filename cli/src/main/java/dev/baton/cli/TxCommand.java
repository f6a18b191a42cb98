package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.ZPaths;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.TransactionFolder;
import dev.baton.recipes.transaction.TransactionStatus;
import dev.baton.recipes.transaction.Vote;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton tx ls|show}: an operator's look at a two-phase-commit folder (read only). It reads
 * through {@link TransactionFolder}, so it shows what the servers hold: transactions still there
 * are undecided ones, and decided ones not every party has acknowledged yet (or whose retention
 * has not run out).
 */
@Command(name = "tx",
    description = {"Look at the transactions of a two-phase-commit folder (read only).",
        "tx ls FOLDER: one line per transaction: id, decision (or undecided), votes, acknowledgements. "
        + "tx show FOLDER [ID]: every detail of each transaction (or of ID; exit 1 if it is not there). A FOLDER that is "
        + "not there exits 1. "
        + "FOLDER is a path if it starts with /, else /baton/transactions/FOLDER."})
final class TxCommand implements Callable<Integer> {
    @Mixin
    ConnectOptions connection;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "ACTION", description = "ls or show.")
    String action;
    @Parameters(index = "1", paramLabel = "FOLDER", description = "The transaction folder.")
    String folder;
    @Parameters(index = "2", arity = "0..1", paramLabel = "ID", description = "For show: one transaction's id.")
    String id;

    @Override
    public Integer call() throws InterruptedException {
        // refused before connecting (exit 64 at once)
        if (!action.equals("ls") && !action.equals("show")) {
            throw new CliExit(ExitCodes.USAGE, "tx action must be ls or show, was '" + action + "'");
        }
        if (action.equals("ls") && id != null) {
            throw new CliExit(ExitCodes.USAGE, "tx ls takes no ID (use tx show FOLDER ID)");
        }
        if (id != null && (id.isEmpty() || id.contains("/") || !nodeName(id))) {
            throw new CliExit(ExitCodes.USAGE, "a transaction ID is a node name (not empty, without '/', not '.' or '..'); was '"
                + id + "'");
        }
        String path = Names.path("transactions", folder);
        try (BatonClient client = connection.connect()) {
            // a mistyped FOLDER reads as one with no transactions: say it is not there, as ls and get do
            if (client.checkExists().forPath(path) == null) {
                throw new CliExit(ExitCodes.NOT_ACQUIRED, "no node " + path);
            }
            TransactionFolder view = new TransactionFolder(client, path);
            PrintWriter out = spec.commandLine().getOut();
            if (action.equals("ls")) {
                view.transactions().forEach(t -> out.println(line(t)));
            } else if (id == null) {
                Set<String> participants = view.participants();
                out.println("participants registered: " + (participants.isEmpty() ? "none" : String.join(" ", participants)));
                view.transactions().forEach(t -> show(out, t));
            } else {
                Optional<TransactionStatus> one = view.transaction(id);
                if (one.isEmpty()) {
                    throw new CliExit(ExitCodes.NOT_ACQUIRED, "no transaction " + id + " in " + path);
                }
                show(out, one.get());
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** Whether {@code name} can name a node ({@code .}, {@code ..} and some characters cannot). */
    private static boolean nodeName(String name) {
        try {
            ZPaths.validate("transaction ID", "/" + name);
            return true;
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** {@code ID DECISION votes=a:commit,b:- acks=a,coordinator}: one transaction on one line, for scripts. */
    static String line(TransactionStatus t) {
        return t.id() + " " + t.decision().map(d -> d.outcome().name().toLowerCase()).orElse("undecided")
            + " votes=" + votes(t, ":", ",") + " acks=" + acks(t);
    }

    static void show(PrintWriter out, TransactionStatus t) {
        out.println("transaction " + t.id());
        out.println("  created      " + t.created());
        out.println("  deadline     " + t.transaction().deadline().toMillis() + " ms");
        out.println("  payload      " + t.transaction().payload().length + " bytes");
        out.println("  participants " + String.join(" ", t.transaction().participants()));
        out.println("  votes        " + votes(t, "=", " "));
        out.println("  decision     " + t.decision().map(TxCommand::decision).orElse("undecided"));
        out.println("  acknowledged " + acks(t));
    }

    private static String decision(Decision d) {
        return d.outcome().name().toLowerCase() + (d.reason().isEmpty() ? "" : " (" + d.reason() + ")");
    }

    /** Each participant's vote in the transaction's order; {@code -} for none yet. */
    private static String votes(TransactionStatus t, String is, String between) {
        StringJoiner all = new StringJoiner(between);
        for (String p : t.transaction().participants()) {
            Vote v = t.votes().get(p);
            all.add(p + is + (v == null ? "-" : v.name().toLowerCase()));
        }
        return all.toString();
    }

    private static String acks(TransactionStatus t) {
        StringJoiner all = new StringJoiner(",");
        List.copyOf(t.acknowledged()).forEach(all::add);
        if (t.coordinatorAcknowledged()) {
            all.add("coordinator");
        }
        return all.length() == 0 ? "-" : all.toString();
    }
}

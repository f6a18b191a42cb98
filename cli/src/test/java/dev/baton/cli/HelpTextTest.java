package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every help text of the command tree, read from its model (the process-level checks of a few of
 * them are in {@link UsageErrorsTest}): one style across all commands.
 */
class HelpTextTest {
    private static List<CommandLine> allCommands() {
        List<CommandLine> all = new ArrayList<>();
        collect(Baton.commandLine(), all);
        return all;
    }

    private static void collect(CommandLine line, List<CommandLine> into) {
        into.add(line);
        line.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    private static String name(CommandLine line) {
        return line.getCommandSpec().qualifiedName();
    }

    @Test
    void everyOptionAndArgumentIsDescribedWithAnUppercasePlaceholder() {
        for (CommandLine line : allCommands()) {
            CommandSpec spec = line.getCommandSpec();
            List<ArgSpec> args = new ArrayList<>(spec.options());
            args.addAll(spec.positionalParameters());
            for (ArgSpec arg : args) {
                String what = name(line) + " " + (arg instanceof OptionSpec o ? o.longestName() : arg.paramLabel());
                assertThat(String.join(" ", arg.description())).as("%s has a description", what).isNotBlank();
                if (arg.arity().max() > 0) {
                    assertThat(arg.paramLabel()).as("%s's placeholder", what).matches("[A-Z][A-Z0-9_]*");
                }
            }
        }
    }

    @Test
    void everyHelpTextFitsEightyColumnsAndOnlyTheTopCommandHasVersion() {
        for (CommandLine line : allCommands()) {
            String usage = line.getUsageMessage();
            assertThat(usage.lines()).as(name(line)).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
            boolean top = line.getParent() == null;
            assertThat(line.getCommandSpec().findOption("--version") != null).as("%s has --version", name(line)).isEqualTo(top);
            if (!(line.getCommand() instanceof CommandLine.HelpCommand)) {
                assertThat(line.getCommandSpec().findOption("--help")).as("%s has --help", name(line)).isNotNull();
            }
        }
    }
}

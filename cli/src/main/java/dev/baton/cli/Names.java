package dev.baton.cli;

import dev.baton.framework.ZPaths;

/**
 * Where a named recipe lives: a NAME that starts with {@code /} is used as the path itself;
 * otherwise it goes under {@code /baton/<kind>/NAME} ({@code /baton/locks/backup}).
 */
final class Names {
    static final String ROOT = "/baton";

    private Names() {
    }

    static String path(String kind, String name) {
        String path = name.startsWith("/") ? name : ROOT + "/" + kind + "/" + name;
        if ("/".equals(path)) {
            // every recipe would refuse it too, but as a failure of the program (exit 70, or a stack trace)
            throw new CliExit(ExitCodes.USAGE, "bad name '/': a recipe needs a folder of its own, not the root (such as /app/" + kind
                + ", or a name, which goes under " + ROOT + "/" + kind + "/)");
        }
        try {
            return ZPaths.validate(kind, path);
        } catch (RuntimeException e) {
            throw new CliExit(ExitCodes.USAGE, "bad name '" + name + "': " + e.getMessage());
        }
    }
}

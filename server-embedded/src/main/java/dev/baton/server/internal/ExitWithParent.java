package dev.baton.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The main class of a child-process server: runs the main class named by its first argument with
 * the other arguments, and halts the JVM once its standard input reaches end-of-file.
 *
 * <p>Standard input is a pipe whose other end only the JVM that started the server holds, so
 * end-of-file means that JVM has exited, however it died: SIGKILL runs no shutdown hook, and
 * without this a server outlived a killed test JVM or {@code baton server}, keeping its ports and
 * its data folder for ever. A server frozen by SIGSTOP at that moment halts when thawed.
 *
 * <p>It then writes one line saying so to standard error (a server's {@code server.log}) and halts
 * with exit code 66 (sysexits' EX_NOINPUT: its input, the parent's pipe, ended),
 * so whoever reaps it can tell this from a stop: SIGTERM, which the parent sends when it closes
 * the ensemble or exits normally, gives 143, and SIGKILL 137. ZooKeeper's own exit codes are below 16.
 *
 * <p>One class file that needs java.base alone: {@link ProcessNode} copies it into the server's
 * folder and puts that first on the class path, so it runs beside any ZooKeeper release's jars.
 */
public final class ExitWithParent {
    /**
     * The exit code of a server halted because the JVM that started it has gone: not a signal's
     * (128 + N), nor one ZooKeeper uses.
     */
    static final int PARENT_GONE = 66;

    private ExitWithParent() {
    }

    /**
     * Watches standard input and runs {@code args[0]}'s main method with the rest of {@code args}.
     *
     * @param args the main class to run, then its arguments
     * @throws Throwable whatever that main method throws
     */
    public static void main(String[] args) throws Throwable {
        // read now: once the parent is gone, this process's parent is whoever adopted it
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        Thread watch = new Thread(() -> haltAtEndOfInput(parent), "baton-exit-with-parent");
        watch.setDaemon(true);
        watch.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void haltAtEndOfInput(long parent) {
        byte[] discard = new byte[256];
        InputStream in = System.in;
        try {
            while (in.read(discard) >= 0) {
                // nothing is sent; read on until the pipe closes
            }
        } catch (IOException broken) {
            // a broken pipe: the parent is gone all the same
        }
        // standard error is the server's log file (ProcessNode), so this line cannot hold up the halt
        System.err.println("baton: standard input ended: the JVM that started this server (pid " + parent
            + ") is gone; halting with exit code " + PARENT_GONE);
        System.err.flush();
        Runtime.getRuntime().halt(PARENT_GONE);
    }
}

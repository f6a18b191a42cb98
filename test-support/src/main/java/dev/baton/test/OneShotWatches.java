package dev.baton.test;

import dev.baton.framework.BatonClient;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.zookeeper.ZooKeeper;

/**
 * The paths where a client holds one-shot watches, by kind, as its ZooKeeper handle lists them: what
 * a test looks at to see that a recipe is waiting (its watch is set), or that it took a watch back.
 *
 * <p>ZooKeeper keeps these lists for its own tests ({@code getExistWatches}, {@code getDataWatches},
 * {@code getChildWatches}, protected on {@link ZooKeeper}); this reads them by reflection, so a
 * ZooKeeper release that renames them fails here, in one place. The lists are the client's side
 * only: a watch the server dropped with its session may still be listed until the client hears of it.
 *
 * <pre>{@code
 * await().until(() -> OneShotWatches.EXISTS.on(client).contains(path + "/ready"));   // the member waits
 * }</pre>
 */
public enum OneShotWatches {
    /** Exists watches: left by {@code checkExists().usingWatcher(...)} on a node that is not there. */
    EXISTS("getExistWatches"),
    /** Data watches: left by {@code getData().usingWatcher(...)}, or by an exists watch on a node that is there. */
    DATA("getDataWatches"),
    /** Child watches: left by {@code getChildren().usingWatcher(...)}. */
    CHILD("getChildWatches");

    private final String listMethod;

    OneShotWatches(String listMethod) {
        this.listMethod = listMethod;
    }

    /**
     * {@return the paths (sorted) where {@code client}'s current ZooKeeper handle holds a watch of this kind}
     *
     * @param client the client to look at
     */
    public Set<String> on(BatonClient client) {
        return on(client, this);
    }

    /**
     * {@return the paths (sorted) where {@code client}'s current ZooKeeper handle holds a watch of any of {@code kinds}}
     *
     * @param client the client to look at
     * @param kinds the kinds of watch to list
     */
    public static Set<String> on(BatonClient client, OneShotWatches... kinds) {
        Objects.requireNonNull(client, "client");
        ZooKeeper zk = client.zookeeper();
        Set<String> paths = new TreeSet<>();
        for (OneShotWatches kind : kinds) {
            paths.addAll(kind.list(zk));
        }
        return paths;
    }

    @SuppressWarnings("unchecked")
    private List<String> list(ZooKeeper zk) {
        try {
            Method m = ZooKeeper.class.getDeclaredMethod(listMethod);
            m.setAccessible(true);
            return (List<String>) m.invoke(zk);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("this ZooKeeper client has no " + listMethod + "() to list its " + name()
                + " watches: " + e, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(listMethod + "() failed: " + e.getCause(), e.getCause());
        }
    }
}

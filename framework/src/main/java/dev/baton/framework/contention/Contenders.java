package dev.baton.framework.contention;

import dev.baton.framework.internal.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Puts a recipe's children in line: keeps the names that carry one of its markers
 * ({@code "lock-"}, {@code "__READ__"}, ...) and sorts them by the sequence number after the
 * marker — never by the whole name, whose protection prefix ({@code _c_<uuid>-}) is random.
 */
public final class Contenders {
    private Contenders() {
    }

    /**
     * {@return the children of a recipe's folder that belong to it, lowest sequence first}
     *
     * @param children the names in the folder
     * @param markers the recipe's markers
     */
    public static List<String> inOrder(List<String> children, Set<String> markers) {
        List<String> mine = new ArrayList<>();
        for (String child : children) {
            if (markerOf(child, markers) != null) {
                mine.add(child);
            }
        }
        mine.sort(Comparator.comparingLong((String name) -> sequence(name, markers)).thenComparing(Comparator.naturalOrder()));
        return mine;
    }

    /**
     * {@return the sequence number of {@code name} (the digits after its marker), or -1 if it has none}
     *
     * @param name a node's name
     * @param markers the recipe's markers
     */
    public static long sequence(String name, Set<String> markers) {
        String marker = markerOf(name, markers);
        if (marker == null) {
            return -1;
        }
        String digits = name.substring(name.lastIndexOf(marker) + marker.length());
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * {@return the marker {@code name} carries (its last occurrence wins), or null} An empty marker never
     * matches: it only names nodes (see {@link Contention#of}) and cannot say where a sequence starts.
     *
     * @param name a node's name
     * @param markers the recipe's markers
     */
    public static String markerOf(String name, Set<String> markers) {
        String found = null;
        int at = -1;
        for (String marker : markers) {
            if (marker.isEmpty()) {
                continue;
            }
            int i = name.lastIndexOf(marker);
            if (i > at) {
                at = i;
                found = marker;
            }
        }
        if (found == null) {
            return null;
        }
        String rest = name.substring(at + found.length());
        return Paths.isSequenceNumber(rest) ? found : null;
    }
}

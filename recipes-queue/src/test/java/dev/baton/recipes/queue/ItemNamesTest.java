package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItemNamesTest {

    @Test
    void priorityPartIsCuratorsSignFlagAndEightHexDigits() {
        assertThat(ItemNames.priorityPart(5)).isEqualTo("100000005");
        assertThat(ItemNames.priorityPart(0)).isEqualTo("100000000");
        assertThat(ItemNames.priorityPart(-1)).isEqualTo("0FFFFFFFF");
        assertThat(ItemNames.priorityPart(Integer.MIN_VALUE)).isEqualTo("080000000");
        assertThat(ItemNames.priorityPart(Integer.MAX_VALUE)).isEqualTo("17FFFFFFF");
    }

    @Test
    void priorityKeysSortLowestFirstThenBySequence() {
        List<String> names = new ArrayList<>();
        int[] priorities = {7, -3, Integer.MIN_VALUE, 0, Integer.MAX_VALUE, -3};
        for (int i = 0; i < priorities.length; i++) {
            names.add("queue-" + ItemNames.priorityPart(priorities[i]) + String.format("%010d", i));
        }
        List<String> sorted = names.stream()
            .sorted(Comparator.comparing(n -> ItemNames.key(ItemOrder.PRIORITY, "queue-", n, -1)))
            .toList();
        assertThat(sorted).extracting(n -> ItemNames.key(ItemOrder.PRIORITY, "queue-", n, -1).primary())
            .containsExactly((long) Integer.MIN_VALUE, -3L, -3L, 0L, 7L, (long) Integer.MAX_VALUE);
        // and Curator's string order agrees
        assertThat(names.stream().sorted().toList()).isEqualTo(sorted);
    }

    @Test
    void delayAndIdPartsAreCuratorsAndReadBack() {
        long due = 1_764_000_000_000L;
        String delayName = "queue-" + ItemNames.delayPart(due) + "0000000042";
        assertThat(delayName).isEqualTo("queue-|" + Long.toHexString(due).toUpperCase() + "|0000000042");
        ItemKey key = ItemNames.key(ItemOrder.DELAY, "queue-", delayName, 3);
        assertThat(key).isEqualTo(new ItemKey(due, 3, 42));
        String idName = "queue-" + ItemNames.idPart("a/b|c") + "0000000007";
        assertThat(idName).isEqualTo("queue-|a_b_c|0000000007");
        assertThat(ItemNames.idOf("queue-", idName)).isEqualTo("a_b_c");
        assertThat(ItemNames.key(ItemOrder.ID, "queue-", idName, -1)).isEqualTo(new ItemKey(0, -1, 7));
    }

    @Test
    void foreignNodesShardsAndHelpersAreNotItems() {
        assertThat(ItemNames.key(ItemOrder.FIFO, "queue-", "receipts", -1)).isNull();
        assertThat(ItemNames.key(ItemOrder.FIFO, "queue-", "shard-0000000001", -1)).isNull();
        assertThat(ItemNames.key(ItemOrder.FIFO, "queue-", "queue-abc", -1)).isNull();
        assertThat(ItemNames.key(ItemOrder.FIFO, "qn-", "queue-0000000001", -1)).isNull();
        assertThat(ItemNames.key(ItemOrder.FIFO, "qn-", "qn-0000000001", -1)).isEqualTo(new ItemKey(0, -1, 1));
        assertThat(ItemNames.shardSequence("shard-0000000012")).isEqualTo(12);
        assertThat(ItemNames.shardSequence("queue-0000000012")).isEqualTo(-1);
        assertThat(ItemNames.shardSequence("shard-12")).isEqualTo(-1);
    }

    @Test
    void unreadablePriorityOrDelayCountsAsZeroAsCuratorReadsIt() {
        assertThat(ItemNames.key(ItemOrder.PRIORITY, "queue-", "queue-0000000005", -1).primary()).isZero();
        assertThat(ItemNames.key(ItemOrder.DELAY, "queue-", "queue-|zz|0000000005", -1).primary()).isZero();
    }

    @Test
    void flatItemsComeBeforeShardedOnesAndShardsInOrder() {
        ItemKey flat = new ItemKey(0, -1, 900);
        ItemKey shard1 = new ItemKey(0, 1, 5);
        ItemKey shard2 = new ItemKey(0, 2, 0);
        assertThat(List.of(shard2, flat, shard1).stream().sorted().toList()).containsExactly(flat, shard1, shard2);
    }
}

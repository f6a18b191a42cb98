package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NodeData;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@EnsembleTest
class QueueStoreTest {

    private static QueueStore store(BatonClient client, String path) throws InterruptedException {
        QueueStore store = new QueueStore(client, path, "qn-", ItemOrder.FIFO, false, new Receipts(client, path + "/receipts"));
        store.ensurePath();
        return store;
    }

    private static List<byte[]> items(int n) {
        return IntStream.range(0, n).mapToObj(i -> ("item-" + i).getBytes(StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aBatchTakeLeavesOutWhatAnotherConsumerTookAndRemovesTheRestInOrder(BatonClient mine, BatonClient other)
        throws Exception {
        QueueStore store = store(mine, "/store/skip");
        store.put(items(6), "");
        List<ItemRef> refs = store.list(null);
        List<NodeData> datas = new ArrayList<>();
        for (ItemRef ref : refs) {
            datas.add(store.read(ref));
        }
        // between the read and the take, another consumer takes item 2 and item 4 changes
        other.delete().forPath(refs.get(2).path());
        other.setData().forPath(refs.get(4).path(), "changed".getBytes(StandardCharsets.UTF_8));

        List<Taken> taken = store.takeAll(refs, datas);

        assertThat(taken).extracting(t -> new String(t.data(), StandardCharsets.UTF_8))
            .containsExactly("item-0", "item-1", "item-3", "item-5");
        assertThat(taken).extracting(Taken::ref).containsExactly(refs.get(0), refs.get(1), refs.get(3), refs.get(5));
        assertThat(store.list(null)).as("the changed item stays, to be read again").extracting(ItemRef::path)
            .containsExactly(refs.get(4).path());
    }

    @Test
    void aBatchTakeOfItemsAllGoneTakesNothing(BatonClient mine, BatonClient other) throws Exception {
        QueueStore store = store(mine, "/store/gone");
        store.put(items(3), "");
        List<ItemRef> refs = store.list(null);
        List<NodeData> datas = new ArrayList<>();
        for (ItemRef ref : refs) {
            datas.add(store.read(ref));
            other.delete().forPath(ref.path());
        }
        assertThat(store.takeAll(refs, datas)).isEmpty();
    }
}

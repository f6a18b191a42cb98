package dev.baton.recipes.lock;

import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Hold;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** The grant of a multi-lock: every part's grant, valid only while all of them are. */
final class CompositeHold implements Hold {
    private final List<Hold> parts;

    CompositeHold(List<Hold> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a composite hold needs at least one part");
        }
        this.parts = List.copyOf(parts);
    }

    /**
     * The largest part's token. Parts are taken in list order, each after the one before is
     * held, so the last node was created after the previous holder had all of them: the largest
     * token grows strictly from holder to holder of the same multi-lock.
     */
    @Override
    public long fencingToken() {
        return parts.stream().mapToLong(Hold::fencingToken).max().orElseThrow();
    }

    @Override
    public List<String> nodes() {
        List<String> all = new ArrayList<>();
        parts.forEach(part -> all.addAll(part.nodes()));
        return all;
    }

    @Override
    public boolean isValid() {
        return parts.stream().allMatch(Hold::isValid);
    }

    @Override
    public Optional<String> lossReason() {
        return parts.stream().map(Hold::lossReason).flatMap(Optional::stream).findFirst();
    }

    @Override
    public void onLost(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        AtomicBoolean ran = new AtomicBoolean();
        for (Hold part : parts) {
            part.onLost(() -> {
                if (ran.compareAndSet(false, true)) {
                    callback.run();
                }
            });
        }
    }

    @Override
    public TransactionBuilder guard(TransactionBuilder transaction) {
        for (Hold part : parts) {
            part.guard(transaction);
        }
        return transaction;
    }

    @Override
    public boolean connected() {
        return parts.stream().allMatch(Hold::connected);
    }

    /** Deletes the parts in reverse order of acquisition. */
    @Override
    public CompletableFuture<Void> delete() {
        List<CompletableFuture<Void>> deletes = new ArrayList<>();
        for (int i = parts.size() - 1; i >= 0; i--) {
            deletes.add(parts.get(i).delete());
        }
        return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new));
    }
}

package dev.baton.recipes.transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A handler for tests: answers prepare as told and records every call, per transaction. */
final class RecordingHandler implements TransactionHandler {
    /** How prepare answers. */
    @FunctionalInterface
    interface Answer {
        Vote answer(Transaction tx) throws Exception;
    }

    volatile Answer answer = tx -> Vote.COMMIT;
    final List<String> prepared = new CopyOnWriteArrayList<>();
    final Map<String, List<Outcome>> told = new ConcurrentHashMap<>();
    final List<String> unknown = new CopyOnWriteArrayList<>();
    final Map<String, byte[]> payloads = new ConcurrentHashMap<>();

    RecordingHandler answering(Answer a) {
        this.answer = a;
        return this;
    }

    @Override
    public Vote prepare(Transaction tx) throws Exception {
        prepared.add(tx.id());
        payloads.put(tx.id(), tx.payload());
        return answer.answer(tx);
    }

    @Override
    public void commit(Transaction tx) {
        told.computeIfAbsent(tx.id(), k -> new CopyOnWriteArrayList<>()).add(Outcome.COMMIT);
    }

    @Override
    public void abort(Transaction tx) {
        told.computeIfAbsent(tx.id(), k -> new CopyOnWriteArrayList<>()).add(Outcome.ABORT);
    }

    @Override
    public void outcomeUnknown(Transaction tx) {
        unknown.add(tx.id());
    }

    /** What this handler was told about {@code txId}, in order (empty if nothing). */
    List<Outcome> toldAbout(String txId) {
        return new ArrayList<>(told.getOrDefault(txId, List.of()));
    }
}

package dev.baton.framework;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A BatonClient that counts which operations a recipe or the engine asks for (to prove round trips saved). */
final class CountingClient {
    final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final BatonClient client;

    CountingClient(BatonClient delegate) {
        InvocationHandler handler = (proxy, method, args) -> {
            calls.computeIfAbsent(method.getName(), k -> new AtomicInteger()).incrementAndGet();
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        this.client = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class}, handler);
    }

    int count(String operation) {
        AtomicInteger n = calls.get(operation);
        return n == null ? 0 : n.get();
    }
}

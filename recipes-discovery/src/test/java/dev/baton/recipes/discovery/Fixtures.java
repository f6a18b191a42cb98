package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;

/** Small builders shared by the integration tests. */
final class Fixtures {
    private Fixtures() {
    }

    /** A started discovery of {@link Endpoint} payloads under {@code basePath}. */
    static ServiceDiscovery<Endpoint> discovery(BatonClient client, String basePath) throws InterruptedException {
        ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class).client(client).basePath(basePath).build();
        discovery.start();
        return discovery;
    }

    static ServiceInstance<Endpoint> instance(String name, String id, int port) {
        return ServiceInstance.<Endpoint>builder().name(name).id(id).address("10.0.0." + (port % 250)).port(port)
            .uriSpec("{scheme}://{address}:{port}").payload(new Endpoint("z1", "v1")).build();
    }
}

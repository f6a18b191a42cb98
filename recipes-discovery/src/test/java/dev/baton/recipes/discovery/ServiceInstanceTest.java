package dev.baton.recipes.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceInstanceTest {
    @Test
    void defaultsAreARandomIdThisHostsAddressDynamicEnabledAndUp() {
        ServiceInstance<Void> a = ServiceInstance.<Void>builder().name("orders").build();
        ServiceInstance<Void> b = ServiceInstance.<Void>builder().name("orders").build();
        assertThat(a.id()).isNotEqualTo(b.id()).hasSize(36);
        assertThat(a.address()).isNotBlank();
        assertThat(a.port()).isNull();
        assertThat(a.serviceType()).isEqualTo(ServiceType.DYNAMIC);
        assertThat(a.enabled()).isTrue();
        assertThat(a.health()).isEqualTo(Health.UP);
        assertThat(a.isAvailable()).isTrue();
        assertThat(a.weight()).isEqualTo(1);
        assertThat(a.zone()).isNull();
        assertThat(a.registrationTimeUTC()).isPositive();
    }

    @Test
    void buildsTheUriFromTheTemplate() {
        ServiceInstance<Void> plain = ServiceInstance.<Void>builder().name("orders").id("i1").address("10.0.0.7").port(8080)
            .uriSpec("{scheme}://{address}:{port}/{name}/{id}").build();
        assertThat(plain.buildUriSpec()).isEqualTo("http://10.0.0.7:8080/orders/i1");
        assertThat(plain.uri()).isEqualTo(URI.create("http://10.0.0.7:8080/orders/i1"));
        ServiceInstance<Void> tls = plain.toBuilder().sslPort(8443).uriSpec("{scheme}://{address}:{ssl-port}?t={service-type}").build();
        assertThat(tls.buildUriSpec()).isEqualTo("https://10.0.0.7:8443?t=dynamic");
        assertThat(tls.buildUriSpec(Map.of("scheme", "grpcs"))).isEqualTo("grpcs://10.0.0.7:8443?t=dynamic");
    }

    @Test
    void uriWithoutTemplateFailsClearly() {
        ServiceInstance<Void> none = ServiceInstance.<Void>builder().name("orders").id("i1").build();
        assertThat(none.buildUriSpec()).isEmpty();
        assertThatThrownBy(none::uri).isInstanceOf(IllegalStateException.class).hasMessageContaining("has no uriSpec");
    }

    @Test
    void healthOtherThanUpDisablesAndUpEnablesAgain() {
        ServiceInstance<Void> up = ServiceInstance.<Void>builder().name("orders").build();
        ServiceInstance<Void> maintenance = up.toBuilder().health(Health.MAINTENANCE).build();
        assertThat(maintenance.enabled()).isFalse();
        assertThat(maintenance.health()).isEqualTo(Health.MAINTENANCE);
        assertThat(maintenance.metadata()).containsEntry("health", "MAINTENANCE");
        assertThat(maintenance.isAvailable()).isFalse();
        ServiceInstance<Void> back = maintenance.toBuilder().health(Health.UP).build();
        assertThat(back.isAvailable()).isTrue();
        assertThat(back.metadata()).doesNotContainKey("health");
        assertThat(back).isEqualTo(up);
    }

    @Test
    void disabledButUpIsNotAvailable() {
        assertThat(ServiceInstance.<Void>builder().name("orders").enabled(false).build().isAvailable()).isFalse();
    }

    @Test
    void zoneAndWeightLiveInTheMetadata() {
        ServiceInstance<Void> i = ServiceInstance.<Void>builder().name("orders").zone("eu-1").weight(5).metadata("team", "pay").build();
        assertThat(i.zone()).isEqualTo("eu-1");
        assertThat(i.weight()).isEqualTo(5);
        assertThat(i.metadata()).containsExactly(Map.entry("team", "pay"), Map.entry("weight", "5"), Map.entry("zone", "eu-1"));
    }

    @Test
    void unreadableWeightOrHealthFromOtherWritersFallsBackSafely() {
        ServiceInstance<Void> i = ServiceInstance.<Void>builder().name("orders").metadata("weight", "heavy").metadata("health", "DRAINING").build();
        assertThat(i.weight()).isEqualTo(ServiceInstance.DEFAULT_WEIGHT);
        assertThat(i.health()).isEqualTo(Health.DOWN);
    }

    @Test
    void toBuilderCopiesEveryField() {
        ServiceInstance<String> i = ServiceInstance.<String>builder().name("orders").id("x").address("h").port(1).sslPort(2)
            .payload("p").serviceType(ServiceType.PERMANENT).uriSpec("{address}").enabled(false).registrationTimeUTC(7)
            .zone("z").build();
        assertThat(i.toBuilder().build()).isEqualTo(i).hasSameHashCodeAs(i);
    }

    @Test
    void badInputFailsAtOnceNamingTheValue() {
        ServiceInstanceBuilder<Void> b = ServiceInstance.builder();
        assertThatThrownBy(() -> b.name("a/b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a/b'");
        assertThatThrownBy(() -> b.name("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.id("..")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'..'");
        assertThatThrownBy(() -> b.port(70000)).hasMessageContaining("port must be 0 to 65535, was 70000");
        assertThatThrownBy(() -> b.sslPort(-1)).hasMessageContaining("sslPort must be 0 to 65535, was -1");
        assertThatThrownBy(() -> b.weight(-2)).hasMessageContaining("weight must be 0 or more, was -2");
        assertThatThrownBy(() -> b.uriSpec("{oops")).hasMessageContaining("{oops");
        assertThatThrownBy(() -> b.address(" ")).hasMessageContaining("address must not be blank");
        assertThatThrownBy(() -> b.metadata("", "v")).hasMessageContaining("metadata key must not be empty");
        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("name is required");
    }

    @Test
    void curatorsAccessorNamesReturnWhatTheShortNamesReturn() {
        ServiceInstance<String> instance = ServiceInstance.<String>builder()
            .name("orders").id("o-1").address("10.0.0.7").port(8080).sslPort(8443).payload("v2")
            .registrationTimeUTC(1234L).serviceType(ServiceType.STATIC).enabled(false).build();
        assertThat(instance.getName()).isEqualTo(instance.name()).isEqualTo("orders");
        assertThat(instance.getId()).isEqualTo(instance.id()).isEqualTo("o-1");
        assertThat(instance.getAddress()).isEqualTo(instance.address()).isEqualTo("10.0.0.7");
        assertThat(instance.getPort()).isEqualTo(instance.port()).isEqualTo(8080);
        assertThat(instance.getSslPort()).isEqualTo(instance.sslPort()).isEqualTo(8443);
        assertThat(instance.getPayload()).isEqualTo(instance.payload()).isEqualTo("v2");
        assertThat(instance.getRegistrationTimeUTC()).isEqualTo(instance.registrationTimeUTC()).isEqualTo(1234L);
        assertThat(instance.getServiceType()).isEqualTo(instance.serviceType()).isEqualTo(ServiceType.STATIC);
        assertThat(instance.isEnabled()).isEqualTo(instance.enabled()).isFalse();
    }
}

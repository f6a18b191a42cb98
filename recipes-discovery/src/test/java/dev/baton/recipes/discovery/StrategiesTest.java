package dev.baton.recipes.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Distributions of the strategies over fixed snapshots, without a server; random ones use fixed seeds. */
class StrategiesTest {
    private static ServiceInstance<Void> instance(String id, String zone, int weight) {
        ServiceInstanceBuilder<Void> b = ServiceInstance.<Void>builder().name("s").id(id).address("h").weight(weight);
        return (zone == null ? b : b.zone(zone)).build();
    }

    private static Instances<Void> instances(int n) {
        List<ServiceInstance<Void>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(instance("i" + i, null, 1));
        }
        return Instances.of(list);
    }

    private static Map<String, Integer> counts(ProviderStrategy<Void> strategy, Instances<Void> from, int calls) {
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < calls; i++) {
            counts.merge(strategy.getInstance(from).id(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void roundRobinGivesEachInstanceExactlyOncePerRound() {
        Instances<Void> five = instances(5);
        RoundRobinStrategy<Void> strategy = new RoundRobinStrategy<>();
        for (int round = 0; round < 3; round++) {
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                order.add(strategy.getInstance(five).id());
            }
            assertThat(order).as("round %d", round).containsExactly("i0", "i1", "i2", "i3", "i4");
        }
        assertThat(counts(strategy, five, 5000)).allSatisfy((id, n) -> assertThat(n).isEqualTo(1000));
    }

    @Test
    void randomIsUniformWithinTolerance() {
        Map<String, Integer> counts = counts(new RandomStrategy<>(new Random(42)), instances(4), 40_000);
        assertThat(counts).hasSize(4).allSatisfy((id, n) -> assertThat(n).isCloseTo(10_000, within(500)));
    }

    @Test
    void randomWithTheSameSeedRepeatsItself() {
        Instances<Void> ten = instances(10);
        RandomStrategy<Void> a = new RandomStrategy<>(new Random(7));
        RandomStrategy<Void> b = new RandomStrategy<>(new Random(7));
        for (int i = 0; i < 100; i++) {
            assertThat(a.getInstance(ten).id()).isEqualTo(b.getInstance(ten).id());
        }
    }

    @Test
    void weightedFollowsTheWeightsWithinTolerance() {
        Instances<Void> weighted = Instances.of(List.of(instance("a", null, 1), instance("b", null, 3), instance("c", null, 6)));
        Map<String, Integer> counts = counts(new WeightedStrategy<>(ServiceInstance::weight, new Random(1)), weighted, 100_000);
        assertThat(counts.get("a")).isCloseTo(10_000, within(700));
        assertThat(counts.get("b")).isCloseTo(30_000, within(1_000));
        assertThat(counts.get("c")).isCloseTo(60_000, within(1_000));
    }

    @Test
    void weightedGivesEveryInstanceItsShareAmongManyUnevenWeights() {
        List<ServiceInstance<Void>> list = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < 23; i++) {
            list.add(instance("i" + i, null, i % 5));
            total += i % 5;
        }
        int draws = 460_000;
        Map<String, Integer> counts = counts(new WeightedStrategy<>(ServiceInstance::weight, new Random(11)), Instances.of(list), draws);
        for (int i = 0; i < 23; i++) {
            double expected = (double) draws * (i % 5) / total;
            // five standard deviations of a binomial count: a broken table is far outside, chance is not
            assertThat((double) counts.getOrDefault("i" + i, 0)).as("instance i%d of weight %d", i, i % 5)
                .isCloseTo(expected, within(5 * Math.sqrt(expected) + 1));
        }
    }

    @Test
    void weightZeroIsOnlyUsedWhenNothingElseIs() {
        Instances<Void> mixed = Instances.of(List.of(instance("zero", null, 0), instance("one", null, 1), instance("zero2", null, 0)));
        assertThat(counts(new WeightedStrategy<>(ServiceInstance::weight, new Random(3)), mixed, 1000)).containsOnlyKeys("one");
        Instances<Void> allZero = Instances.of(List.of(instance("z1", null, 0), instance("z2", null, 0)));
        assertThat(counts(new WeightedStrategy<>(ServiceInstance::weight, new Random(3)), allZero, 1000)).containsOnlyKeys("z1", "z2");
    }

    @Test
    void weightedCanTakeItsWeightsFromAFunction() {
        Instances<Void> two = instances(2);
        Map<String, Integer> counts = counts(new WeightedStrategy<>(i -> i.id().equals("i0") ? 9 : 1, new Random(5)), two, 10_000);
        assertThat(counts.get("i0")).isCloseTo(9_000, within(300));
    }

    @Test
    void stickyKeepsItsInstanceWhileItIsThereAndMovesWhenItGoes() {
        Instances<Void> three = instances(3);
        StickyStrategy<Void> sticky = new StickyStrategy<>(new RoundRobinStrategy<>());
        ServiceInstance<Void> first = sticky.getInstance(three);
        assertThat(counts(sticky, three, 100)).containsOnlyKeys(first.id());
        // a new snapshot that still has it: stays
        Instances<Void> reordered = Instances.of(List.of(three.get(2), three.get(1), three.get(0)));
        assertThat(sticky.getInstance(reordered).id()).isEqualTo(first.id());
        // a snapshot without it: moves, then sticks to the new one
        Instances<Void> without = three.filter(i -> !i.id().equals(first.id()));
        ServiceInstance<Void> second = sticky.getInstance(without);
        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(counts(sticky, without, 100)).containsOnlyKeys(second.id());
    }

    @Test
    void zoneAwarePrefersTheLocalZoneAndFailsOverWhenItIsEmpty() {
        Instances<Void> spread = Instances.of(List.of(instance("a1", "a", 1), instance("b1", "b", 1), instance("a2", "a", 1),
            instance("none", null, 1)));
        ZoneAwareStrategy<Void> inA = new ZoneAwareStrategy<>("a");
        assertThat(counts(inA, spread, 100)).containsOnly(Map.entry("a1", 50), Map.entry("a2", 50));
        Instances<Void> noA = spread.filter(i -> !"a".equals(i.zone()));
        assertThat(counts(inA, noA, 100)).containsOnly(Map.entry("b1", 50), Map.entry("none", 50));
    }

    @Test
    void zoneAwareCanTakeTheZoneFromThePayload() {
        List<ServiceInstance<Endpoint>> list = List.of(
            ServiceInstance.<Endpoint>builder().name("s").id("x").payload(new Endpoint("eu", "v1")).build(),
            ServiceInstance.<Endpoint>builder().name("s").id("y").payload(new Endpoint("us", "v1")).build());
        ZoneAwareStrategy<Endpoint> us = new ZoneAwareStrategy<>("us", i -> i.payload().zone, new RandomStrategy<>(new Random(2)));
        for (int i = 0; i < 20; i++) {
            assertThat(us.getInstance(Instances.of(list)).id()).isEqualTo("y");
        }
    }

    @Test
    void zoneAwareRejectsABlankZone() {
        assertThatThrownBy(() -> new ZoneAwareStrategy<Void>(" ")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("localZone must not be blank");
    }

    @Test
    void snapshotFilterReturnsItselfWhenNothingIsRemoved() {
        Instances<Void> three = instances(3);
        assertThat(three.filter(i -> true)).isSameAs(three);
        assertThat(three.filter(i -> false)).isSameAs(Instances.empty());
        assertThat(three.indexOf("i2")).isEqualTo(2);
        assertThat(three.indexOf("nope")).isEqualTo(-1);
    }
}

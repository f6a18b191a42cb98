package dev.baton.chaos;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A chaos class that may run while two other paired classes run in test JVMs of their own (the
 * {@code paired} execution in chaos/pom.xml, three JVMs). Every paired class works on an ensemble of
 * its own JVM (each JVM starts its own shared ensembles) and judges its clients against bounds
 * that do not depend on having the machine alone: its verdicts held with two other scenarios beside
 * it (docs/testing.md has the runs). The classes left unpaired run first, one at a time, with the
 * machine to themselves: {@link SessionEndDeliveryTest} measures the delivery time behind
 * {@link ChaosRun#DELIVERY_MARGIN}, and the election and process-worker scenarios judge their
 * holders against that margin on timing measured alone.
 */
@Tag("paired")
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface Paired {
}

/**
 * What the starter shows of the client to Spring Boot's actuator and Micrometer: the
 * {@link dev.baton.spring.observe.BatonHealthIndicator} behind {@code /actuator/health}, and the
 * {@link dev.baton.spring.observe.BatonMetricsBinding} that ties baton-metrics to the context's
 * {@code MeterRegistry}.
 */
package dev.baton.spring.observe;

package dev.baton.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link BatonStartupException}, wherever it is in the chain of causes, into Spring Boot's
 * "APPLICATION FAILED TO START" report: the description is what was wrong, the action names the
 * property to fix. Registered in {@code META-INF/spring.factories}. A {@code baton.*} value refused
 * while binding is reported by Boot's own analyzer, which already names the property and the value.
 */
public class BatonStartupFailureAnalyzer extends AbstractFailureAnalyzer<BatonStartupException> {

    /** Creates the analyzer (Spring Boot does). */
    public BatonStartupFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, BatonStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}

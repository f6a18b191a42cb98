package dev.baton.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads durations the way people write them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or
 * ISO-8601 {@code PT10S}. A negative one ({@code PT-1S}) is refused: no option of baton means
 * anything by it.
 */
public final class Durations implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern SIMPLE = Pattern.compile("(-?)(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /**
     * A duration as the command line writes it: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or
     * ISO-8601 ({@code PT10S}).
     *
     * @param value the text given on the command line
     * @return the duration it names
     * @throws picocli.CommandLine.TypeConversionException if it names none, saying which forms are accepted
     */
    public static Duration parse(String value) {
        Matcher m = SIMPLE.matcher(value.trim());
        if (m.matches()) {
            if (!m.group(1).isEmpty()) {
                throw new CommandLine.TypeConversionException("'" + value + "' must not be negative");
            }
            try {
                long n = Long.parseLong(m.group(2));
                return switch (m.group(3)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    default -> Duration.ofHours(n);
                };
            } catch (NumberFormatException | ArithmeticException tooLarge) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too large for a duration");
            }
        }
        Duration parsed;
        try {
            parsed = Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: write 500ms, 10s, 2m, 1h or PT10S");
        }
        if (parsed.isNegative()) {
            throw new CommandLine.TypeConversionException("'" + value + "' must not be negative");
        }
        return parsed;
    }

    /**
     * {@return a short human form: 1.5s, 200ms, 2m}
     *
     * @param d the duration to show
     */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 120_000) {
            return (ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.format("%.1f", ms / 1000.0)) + "s";
        }
        return d.toMinutes() + "m";
    }
}

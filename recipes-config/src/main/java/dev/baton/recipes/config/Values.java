package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How the typed views read a value's bytes; each failure names the key, the type and the value. */
final class Values {
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h|d)");
    private static final int SHOWN = 60;

    private Values() {
    }

    static String text(byte[] value) {
        return new String(value, UTF_8);
    }

    static int asInt(String key, byte[] value) {
        String text = text(value).trim();
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw wrong(key, "an int (a decimal number such as 8080)", value, e);
        }
    }

    static long asLong(String key, byte[] value) {
        String text = text(value).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw wrong(key, "a long (a decimal number)", value, e);
        }
    }

    static boolean asBoolean(String key, byte[] value) {
        return switch (text(value).trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw wrong(key, "a boolean (true/false, yes/no or on/off)", value, null);
        };
    }

    static Duration asDuration(String key, byte[] value) {
        String text = text(value).trim();
        Matcher m = SHORT_DURATION.matcher(text);
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw wrong(key, "a duration (30s, 500ms, 2m, 1h, 1d or ISO-8601 such as PT30S)", value, e);
            }
            return switch (m.group(2)) {
                case "ns" -> Duration.ofNanos(n);
                case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1000L));
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> throw new IllegalStateException("unit " + m.group(2));
            };
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw wrong(key, "a duration (30s, 500ms, 2m, 1h, 1d or ISO-8601 such as PT30S)", value, e);
        }
    }

    static <T> T asJson(String key, byte[] value, Class<T> type, ObjectMapper mapper) {
        try {
            T bound = mapper.readValue(value, type);
            if (bound == null) {
                throw new ConfigValueException(key, "config key '" + key + "': expected JSON for " + type.getName()
                    + ", was null", null);
            }
            return bound;
        } catch (JacksonException e) {
            throw new ConfigValueException(key, "config key '" + key + "': the value does not bind to " + type.getName()
                + ": " + e.getOriginalMessage() + " (value: " + shown(value) + ")", e);
        } catch (java.io.IOException e) {
            throw new ConfigValueException(key, "config key '" + key + "': cannot read JSON: " + e.getMessage(), e);
        }
    }

    private static ConfigValueException wrong(String key, String expected, byte[] value, Throwable cause) {
        return new ConfigValueException(key, "config key '" + key + "': expected " + expected + ", was " + shown(value), cause);
    }

    /** The value as a person reads it in a message: quoted, cut at 60 characters. */
    static String shown(byte[] value) {
        String text = text(value);
        return "'" + (text.length() > SHOWN ? text.substring(0, SHOWN) + "...' (" + value.length + " bytes)" : text + "'");
    }
}

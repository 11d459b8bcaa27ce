package io.qawk.orchestrator.bench;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.qawk.orchestrator.hawkbit.HawkbitConfig;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.smallrye.config.WithDefault;

/**
 * A {@link HawkbitConfig} outside CDI for tests of the double: every method answers its {@code @WithDefault} unless
 * overridden by name, so it keeps compiling when the interface grows.
 */
final class GatewayConfig {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private GatewayConfig() {
    }

    /** A gateway (fresh meter registry) talking to {@code url} with user "bench". */
    static HawkbitGateway gateway(String url, Map<String, Object> overrides) {
        return new HawkbitGateway(config(url, overrides), new SimpleMeterRegistry());
    }

    static HawkbitConfig config(String url, Map<String, Object> overrides) {
        Map<String, Object> values = new HashMap<>();
        values.put("url", Optional.of(url));
        values.put("user", Optional.of("bench"));
        values.put("password", Optional.of("bench-password"));
        values.put("retryDelay", Duration.ofMillis(5));
        values.put("retryMaxDelay", Duration.ofMillis(20));
        values.putAll(overrides);
        return (HawkbitConfig) Proxy.newProxyInstance(HawkbitConfig.class.getClassLoader(),
                new Class<?>[]{HawkbitConfig.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "toString":
                            return "GatewayConfig" + values;
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            break;
                    }
                    if (values.containsKey(method.getName())) {
                        return values.get(method.getName());
                    }
                    if (method.isDefault()) {
                        return MethodHandles.privateLookupIn(HawkbitConfig.class,
                                MethodHandles.lookup()).unreflectSpecial(method, HawkbitConfig.class)
                                .bindTo(proxy).invokeWithArguments(args == null ? new Object[0] : args);
                    }
                    return defaultOf(method);
                });
    }

    private static Object defaultOf(Method method) {
        Class<?> type = method.getReturnType();
        WithDefault d = method.getAnnotation(WithDefault.class);
        if (d == null) {
            if (type == Optional.class) {
                return Optional.empty();
            }
            if (type.isInterface()) {
                // a group of settings (qawk.hawkbit.budget.*): each of its methods answers its own default
                return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                        (group, m, args) -> switch (m.getName()) {
                            case "toString" -> type.getSimpleName() + "(defaults)";
                            case "hashCode" -> System.identityHashCode(group);
                            case "equals" -> group == args[0];
                            default -> defaultOf(m);
                        });
            }
            throw new IllegalStateException("no default for " + method.getName());
        }
        String v = d.value();
        if (type == double.class || type == Double.class) {
            return Double.parseDouble(v);
        }
        if (type == int.class || type == Integer.class) {
            return Integer.parseInt(v);
        }
        if (type == long.class || type == Long.class) {
            return Long.parseLong(v);
        }
        if (type == boolean.class || type == Boolean.class) {
            return Boolean.parseBoolean(v);
        }
        if (type == String.class) {
            return v;
        }
        if (type == Duration.class) {
            Matcher m = SHORT_DURATION.matcher(v.trim());
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                switch (m.group(2)) {
                    case "ms":
                        return Duration.ofMillis(n);
                    case "s":
                        return Duration.ofSeconds(n);
                    case "m":
                        return Duration.ofMinutes(n);
                    case "h":
                        return Duration.ofHours(n);
                    default:
                        return Duration.ofDays(n);
                }
            }
            return Duration.parse(v);
        }
        if (type.isEnum()) {
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equalsIgnoreCase(v.toUpperCase(Locale.ROOT))) {
                    return constant;
                }
            }
        }
        throw new IllegalStateException("cannot convert default of " + method.getName() + ": " + v);
    }
}

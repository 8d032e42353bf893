package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One setting of the core's {@link CpuProfilerOptions} (a bean property there) with its {@code profiler.cpu.*} key
 * and the {@link CpuProfilerProperties} field that binds it, in the order the properties class declares them
 * (README's order). Found by reflection, so a setting added on one side only fails the tests that use this.
 */
record OptionKey(String key, PropertyDescriptor option, Field field) {

    /** Where the option's name is not the key's camel case. */
    private static final Map<String, String> RENAMED = Map.of("retainedBytes", "retained-size",
            "jfrIncludeSystemInfo", "jfr.include-system-info", "saturationEnabled", "saturation.enabled",
            "saturationThreshold", "saturation.threshold", "saturationWindow", "saturation.window");

    static List<OptionKey> all() {
        List<OptionKey> keys = new ArrayList<>();
        try {
            for (PropertyDescriptor d : Introspector.getBeanInfo(CpuProfilerOptions.class, Object.class)
                    .getPropertyDescriptors()) {
                if (d.getWriteMethod() == null) {
                    continue;
                }
                String key = RENAMED.getOrDefault(d.getName(), kebab(d.getName()));
                keys.add(new OptionKey(key, d, field(key)));
            }
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
        List<Field> order = new ArrayList<>(Arrays.asList(CpuProfilerProperties.Cpu.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Jfr.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Saturation.class.getDeclaredFields()));
        keys.sort(Comparator.comparingInt(k -> order.indexOf(k.field())));
        return keys;
    }

    String property() {
        return CpuProfilerOptions.PREFIX + key;
    }

    Class<?> type() {
        return option.getPropertyType();
    }

    Object get(CpuProfilerOptions options) {
        try {
            return option.getReadMethod().invoke(options);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The binding: {@code Cpu}'s component of that name, or the nested group's ({@code Jfr}, {@code Saturation}); null when there is none. */
    private static Field field(String key) {
        Class<?> owner = key.startsWith("jfr.") ? CpuProfilerProperties.Jfr.class
                : key.startsWith("saturation.") ? CpuProfilerProperties.Saturation.class : CpuProfilerProperties.Cpu.class;
        String name = camel(key.substring(key.indexOf('.') + 1));
        try {
            return owner.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
    }

    private static String camel(String kebab) {
        StringBuilder b = new StringBuilder();
        for (String part : kebab.split("-")) {
            b.append(b.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return b.toString();
    }
}

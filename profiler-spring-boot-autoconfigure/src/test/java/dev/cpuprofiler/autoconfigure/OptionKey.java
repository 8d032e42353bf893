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
import java.util.Locale;

/**
 * One setting of the core's {@link CpuProfilerOptions} (a bean property there, or of its nested group {@code jfr},
 * {@code saturation} or {@code reference}) with its {@code profiler.cpu.*} key, named as the option is, and the {@link CpuProfilerProperties}
 * component that binds it, in the order the properties class declares them (docs/settings.md's order). Found by
 * reflection, so a setting added on one side only fails the tests that use this.
 *
 * @param group the nested group's name ({@code jfr}), or null for a setting of the options themselves
 */
record OptionKey(String key, String group, PropertyDescriptor option, Field field) {

    static List<OptionKey> all() {
        List<OptionKey> keys = new ArrayList<>();
        collect(CpuProfilerOptions.class, null, keys);
        List<Field> order = new ArrayList<>(Arrays.asList(CpuProfilerProperties.Cpu.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Jfr.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Saturation.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Reference.class.getDeclaredFields()));
        order.addAll(Arrays.asList(CpuProfilerProperties.Latency.class.getDeclaredFields()));
        keys.sort(Comparator.comparingInt(k -> order.indexOf(k.field())));
        return keys;
    }

    /** Each settable property of {@code type}; a read-only one is a nested group, whose settings are collected too. */
    private static void collect(Class<?> type, String group, List<OptionKey> keys) {
        try {
            for (PropertyDescriptor d : Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors()) {
                if (d.getWriteMethod() != null) {
                    String key = (group == null ? "" : group + ".") + kebab(d.getName());
                    keys.add(new OptionKey(key, group, d, field(group, d.getName())));
                } else if (group == null && d.getPropertyType().getEnclosingClass() == CpuProfilerOptions.class) {
                    collect(d.getPropertyType(), d.getName(), keys);
                }
            }
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code profiler.cpu.*}, but the latency trigger's {@code profiler.latency.*}, a group of its own. */
    String property() {
        return "latency".equals(group) ? CpuProfilerOptions.Latency.PREFIX + key.substring("latency.".length())
                : CpuProfilerOptions.PREFIX + key;
    }

    Class<?> type() {
        return option.getPropertyType();
    }

    Object get(CpuProfilerOptions options) {
        try {
            Object owner = group == null ? options
                    : new PropertyDescriptor(group, CpuProfilerOptions.class, "get" + capitalized(group), null)
                            .getReadMethod().invoke(options);
            return option.getReadMethod().invoke(owner);
        } catch (IllegalAccessException | InvocationTargetException | IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The binding: {@code Cpu}'s component of that name, or the nested group's ({@code Jfr}, {@code Saturation},
     * {@code Reference}).
     */
    private static Field field(String group, String name) {
        try {
            Class<?> owner = group == null ? CpuProfilerProperties.Cpu.class
                    : Class.forName(CpuProfilerProperties.class.getName() + "$" + capitalized(group));
            return owner.getDeclaredField(name);
        } catch (ClassNotFoundException | NoSuchFieldException e) {
            return null;
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
    }

    private static String capitalized(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}

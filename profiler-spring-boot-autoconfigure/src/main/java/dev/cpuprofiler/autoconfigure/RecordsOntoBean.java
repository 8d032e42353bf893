package dev.cpuprofiler.autoconfigure;

import java.lang.reflect.RecordComponent;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.unit.DataSize;

/**
 * Copies bound property records onto the core's JavaBean options, so that each setting is declared once on either
 * side and never mapped by hand: each component onto the bean property of its name, a nested record onto the nested
 * bean of its name ({@code jfr}, {@code saturation}, {@code reference}), a {@link DataSize} in bytes. A component left
 * unset (null) keeps the bean's default; one the bean has no property for is skipped.
 */
final class RecordsOntoBean {

    private RecordsOntoBean() {
    }

    static void copy(Record values, Object bean) {
        copy(values, "", PropertyAccessorFactory.forBeanPropertyAccess(bean));
    }

    private static void copy(Record values, String prefix, BeanWrapper bean) {
        for (RecordComponent component : values.getClass().getRecordComponents()) {
            String name = prefix + component.getName();
            Object value = ReflectionUtils.invokeMethod(component.getAccessor(), values);
            if (value instanceof Record group && bean.isReadableProperty(name)) {
                copy(group, name + ".", bean);
            } else if (value != null && bean.isWritableProperty(name)) {
                bean.setPropertyValue(name, value instanceof DataSize size ? size.toBytes() : value);
            }
        }
    }
}

package io.heaptap.jmx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The text JConsole and VisualVM show for an attribute, operation or parameter of heaptap's MXBean. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface Description {
    String value();

    /** A parameter's name (JMX has no other way to learn it). */
    String name() default "";
}

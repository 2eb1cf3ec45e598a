package io.heaptap.jmx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The text JConsole and VisualVM show for an attribute, operation or parameter of heaptap's MXBean. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface Description {
    /** Empty for an option parameter: its help then comes from the option it sets ({@code CaptureKeys}, {@code LeakWatchKeys}...). */
    String value() default "";

    /** A parameter's name (JMX has no other way to learn it). */
    String name() default "";

    /** The option a parameter sets, when its name is not the option's ({@code allowOrigin} sets {@code cors-origin}). */
    String option() default "";
}

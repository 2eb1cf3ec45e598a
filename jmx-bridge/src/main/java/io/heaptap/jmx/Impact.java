package io.heaptap.jmx;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An operation's impact as JMX clients show it ({@link javax.management.MBeanOperationInfo#ACTION} and the
 * like): one that changes the session, writes a file or pauses the application says so; without this
 * annotation an operation only reads ({@code INFO}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Impact {
    int value();
}

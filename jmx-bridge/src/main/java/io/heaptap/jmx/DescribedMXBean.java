package io.heaptap.jmx;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.heaptap.nativeagent.NativeAgent;
import io.heaptap.wire.options.CaptureKeys;
import io.heaptap.wire.options.LeakWatchKeys;
import io.heaptap.wire.options.PathKeys;
import io.heaptap.wire.options.ServeKeys;
import io.heaptap.wire.options.OptionKey;

import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanException;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.NotificationEmitter;
import javax.management.ReflectionException;
import javax.management.StandardEmitterMBean;

/**
 * The MXBean as JConsole and VisualVM show it: descriptions and real parameter names from the
 * {@link Description} annotations of {@link HeaptapMXBean}, instead of JMX's "p1", "p2". heaptap's
 * own exception types become the plain JDK type they extend, with the same message, because a JMX
 * client without heaptap's classes could not unmarshal them.
 */
final class DescribedMXBean extends StandardEmitterMBean {

    DescribedMXBean(HeaptapMXBean bean, NotificationEmitter emitter) {
        super(bean, HeaptapMXBean.class, true, emitter);
    }

    // Both run on an RMI or a JMX client's thread, marked as heaptap's work meanwhile, so what the
    // bean allocates does not show in the application's profile.
    @Override
    public Object invoke(String operation, Object[] params, String[] signature) throws MBeanException, ReflectionException {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return super.invoke(operation, params, signature);
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException, MBeanException, ReflectionException {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return super.getAttribute(attribute);
        } catch (RuntimeException e) {
            throw JdkExceptions.plain(e);
        }
    }

    // StandardMBean reads several attributes at once (JConsole does) without getAttribute above.
    @Override
    public AttributeList getAttributes(String[] attributes) {
        try (NativeAgent.HeaptapWork work = NativeAgent.heaptapWork()) {
            return super.getAttributes(attributes);
        }
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        return HeaptapMXBean.class.getAnnotation(Description.class).value();
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        for (String prefix : new String[] {"get", "is"}) {
            try {
                return describe(HeaptapMXBean.class.getMethod(prefix + info.getName()));
            } catch (NoSuchMethodException e) {
                // try the other prefix
            }
        }
        return info.getDescription();
    }

    @Override
    protected String getDescription(MBeanOperationInfo op) {
        return operation(op).map(DescribedMXBean::describe).orElse(op.getDescription());
    }

    @Override
    protected String getDescription(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return parameter(op, sequence).map(d -> describe(d, vocabulary(op.getName()))).orElse(param.getDescription());
    }

    /** INFO unless the operation says otherwise ({@link Impact}): JConsole and VisualVM show it. */
    @Override
    protected int getImpact(MBeanOperationInfo op) {
        return operation(op).map(m -> m.getAnnotation(Impact.class)).map(Impact::value).orElse(MBeanOperationInfo.INFO);
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return parameter(op, sequence).map(Description::name).filter(n -> !n.isEmpty()).orElse(param.getName());
    }

    /** A parameter without text of its own is its operation's option of that name: its help, range and default. */
    private static String describe(Description d, List<OptionKey> keys) {
        if (!d.value().isEmpty()) {
            return d.value();
        }
        String option = d.option().isEmpty() ? d.name() : d.option();
        return keys.stream().filter(k -> k.camelName().equals(option) || k.name().equals(option)).findFirst()
                .map(OptionKey::describe)
                .orElseThrow(() -> new IllegalStateException("no description and no option named " + option));
    }

    /** The keys an operation's parameters set: a leak watch's duration is not a capture's. */
    private static List<OptionKey> vocabulary(String operation) {
        return switch (operation) {
            case "startLeakWatch" -> LeakWatchKeys.ALL;
            case "referencePaths" -> PathKeys.ALL;
            case "startServing", "startContinuous", "startOtlpPush" -> ServeKeys.ALL;
            default -> CaptureKeys.ALL;
        };
    }

    private static String describe(Method m) {
        Description d = m.getAnnotation(Description.class);
        return d == null ? m.getName() : d.value();
    }

    /** Overloads of heaptap's operations differ in their number of parameters. */
    private static Optional<Method> operation(MBeanOperationInfo op) {
        return Arrays.stream(HeaptapMXBean.class.getMethods())
                .filter(m -> m.getName().equals(op.getName()) && m.getParameterCount() == op.getSignature().length)
                .findFirst();
    }

    private static Optional<Description> parameter(MBeanOperationInfo op, int sequence) {
        return operation(op).map(m -> m.getParameters()[sequence].getAnnotation(Description.class));
    }
}

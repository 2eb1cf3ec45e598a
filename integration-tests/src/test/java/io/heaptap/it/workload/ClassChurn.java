package io.heaptap.it.workload;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * An application that keeps loading classes, as generated code does: on "churn" a daemon thread
 * defines, in a fresh class loader each time, a new class ({@code gen.Churn<N>}, hand-made bytecode)
 * whose one method allocates an array of its own class (40 KB), and calls it ten times: at the
 * sample rates of continuous mode every class brings a new frame, stack, method and allocated class
 * to the profile. Each class and its loader
 * become garbage at once, so classes unload as they would. Prints "churning"; "count" prints
 * "count N", the classes defined so far.
 */
public final class ClassChurn {
    static volatile Object sink;
    static volatile long defined;

    private ClassChurn() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            switch (command) {
                case "churn" -> {
                    Thread t = new Thread(ClassChurn::churn, "churn");
                    t.setDaemon(true);
                    t.start();
                    System.out.println("churning");
                }
                case "count" -> System.out.println("count " + defined);
                default -> System.out.println("unknown " + command);
            }
        });
    }

    static void churn() {
        for (long n = 0; ; n++) {
            String name = "gen.Churn" + n;
            try {
                Class<?> generated = new OneClass().define(name, classBytes(name.replace('.', '/')));
                Method run = generated.getMethod("run");
                for (int i = 0; i < 10; i++) {  // under the 15 calls after which reflection generates an accessor class
                    sink = run.invoke(null);
                }
                defined = n + 1;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A loader for one class: it and its class can be unloaded as soon as both are unreachable. */
    static final class OneClass extends ClassLoader {
        OneClass() {
            super(ClassChurn.class.getClassLoader());
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** {@code public class <name> { public static Object run() { return new <name>[10000]; } }} as a class file (version 52). */
    static byte[] classBytes(String internalName) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(52);
            out.writeShort(8);  // constant pool: 7 entries
            utf8(out, internalName);           // 1
            out.writeByte(7);
            out.writeShort(1);                 // 2: this class
            utf8(out, "java/lang/Object");     // 3
            out.writeByte(7);
            out.writeShort(3);                 // 4: super class
            utf8(out, "run");                  // 5
            utf8(out, "()Ljava/lang/Object;"); // 6
            utf8(out, "Code");                 // 7
            out.writeShort(0x0021);            // public super
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(0);                 // interfaces
            out.writeShort(0);                 // fields
            out.writeShort(1);                 // methods
            out.writeShort(0x0009);            // public static
            out.writeShort(5);
            out.writeShort(6);
            out.writeShort(1);                 // one attribute: Code
            out.writeShort(7);
            out.writeInt(19);
            out.writeShort(1);                 // max stack
            out.writeShort(0);                 // max locals
            out.writeInt(7);
            out.write(new byte[] {0x11, 0x27, 0x10, (byte) 0xBD, 0x00, 0x02, (byte) 0xB0});  // sipush 10000; anewarray #2; areturn
            out.writeShort(0);                 // exception table
            out.writeShort(0);                 // code attributes
            out.writeShort(0);                 // class attributes
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void utf8(DataOutputStream out, String s) throws IOException {
        out.writeByte(1);
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }
}

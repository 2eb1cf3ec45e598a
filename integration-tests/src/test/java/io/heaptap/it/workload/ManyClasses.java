package io.heaptap.it.workload;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * A target with {@link #CLASSES} classes of its own: "load" defines them in one class loader (each a minimal
 * class file made here, {@code gen/C<n>} with a constructor and nothing else) and keeps one instance of each, so
 * every one is a row of a census; "drop-after-gc" lets go of the loader and the instances at the end of the next
 * whole-heap collection (a forced one: the target allocates nothing else), so the collection after that unloads
 * them all, between two censuses.
 */
public final class ManyClasses {
    public static final int CLASSES = 50_000;
    static volatile List<Object> kept = new ArrayList<>();
    static volatile ClassLoader loader;

    private ManyClasses() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            if (command.equals("load")) {
                load();
                System.out.println("loaded " + CLASSES + " classes; " + ManagementFactory.getClassLoadingMXBean().getLoadedClassCount()
                        + " loaded in all");
            } else if (command.equals("drop-after-gc")) {
                armDrop();
                System.out.println("armed");
            }
        });
    }

    private static void load() {
        Generated generated = new Generated();
        List<Object> objects = new ArrayList<>(CLASSES);
        for (int i = 0; i < CLASSES; i++) {
            try {
                objects.add(generated.define(i).getDeclaredConstructor().newInstance());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        loader = generated;
        kept = objects;
    }

    private static void armDrop() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            NotificationEmitter emitter = (NotificationEmitter) gc;
            NotificationListener listener = new NotificationListener() {
                @Override
                public void handleNotification(javax.management.Notification n, Object handback) {
                    CompositeData info = (CompositeData) n.getUserData();
                    if (String.valueOf(info.get("gcAction")).contains("major") && loader != null) {
                        loader = null;
                        kept = new ArrayList<>();
                        System.out.println("dropped");
                    }
                }
            };
            emitter.addNotificationListener(listener, null, null);
        }
    }

    /** One loader for all the classes, so dropping it unloads them all. */
    static final class Generated extends ClassLoader {
        Generated() {
            super(ManyClasses.class.getClassLoader());
        }

        Class<?> define(int n) {
            String name = String.format("gen/C%05d", n);
            byte[] bytes = classFile(name);
            return defineClass(name.replace('/', '.'), bytes, 0, bytes.length);
        }
    }

    /**
     * {@code public class <name> { public <name>() { super(); } }}, version 52 (straight-line code needs no stack
     * map): the constant pool, then the one method.
     */
    static byte[] classFile(String internalName) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(52);
            out.writeShort(10);  // constant pool count: entries 1-9
            out.writeByte(1);
            out.writeUTF(internalName);          // #1
            out.writeByte(7);
            out.writeShort(1);                   // #2 class: this
            out.writeByte(1);
            out.writeUTF("java/lang/Object");    // #3
            out.writeByte(7);
            out.writeShort(3);                   // #4 class: super
            out.writeByte(1);
            out.writeUTF("<init>");              // #5
            out.writeByte(1);
            out.writeUTF("()V");                 // #6
            out.writeByte(12);
            out.writeShort(5);
            out.writeShort(6);                   // #7 name and type
            out.writeByte(10);
            out.writeShort(4);
            out.writeShort(7);                   // #8 Object.<init>
            out.writeByte(1);
            out.writeUTF("Code");                // #9
            out.writeShort(0x0021);              // public super
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(0);                   // interfaces
            out.writeShort(0);                   // fields
            out.writeShort(1);                   // methods
            out.writeShort(0x0001);
            out.writeShort(5);
            out.writeShort(6);
            out.writeShort(1);                   // one attribute: Code
            out.writeShort(9);
            out.writeInt(17);
            out.writeShort(1);                   // max stack
            out.writeShort(1);                   // max locals
            out.writeInt(5);
            out.write(new byte[] {0x2a, (byte) 0xb7, 0x00, 0x08, (byte) 0xb1});  // aload_0, invokespecial #8, return
            out.writeShort(0);                   // exception table
            out.writeShort(0);                   // code attributes
            out.writeShort(0);                   // class attributes
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

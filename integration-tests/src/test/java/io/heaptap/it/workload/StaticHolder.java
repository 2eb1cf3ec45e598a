package io.heaptap.it.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * A target whose objects are held by a static list, for "how is it held?". On "fill" it adds
 * {@link #COUNT} {@link Leaked} objects to {@link #LIST} ("filled"). On "big" it builds a heap of
 * about {@link #BIG_OBJECTS} small objects held elsewhere, so a walk has much to go through ("built").
 * "ping" answers "pong": the target still runs.
 */
public final class StaticHolder {
    public static final int COUNT = 200_000;
    public static final int BIG_OBJECTS = 4_000_000;

    static final List<Object> LIST = new ArrayList<>();
    static final List<Object[]> BIG = new ArrayList<>();

    /** The held object: 24 bytes, so a 1 KiB interval samples a few thousand of them. */
    public static final class Leaked {
        final long id;

        Leaked(long id) {
            this.id = id;
        }
    }

    private StaticHolder() {
    }

    public static void main(String[] args) throws Exception {
        Commands.serve(command -> {
            switch (command) {
                case "fill" -> {
                    fill();
                    System.out.println("filled");
                }
                case "big" -> {
                    big();
                    System.out.println("built");
                }
                case "ping" -> System.out.println("pong");
                default -> System.out.println("unknown " + command);
            }
        });
    }

    static void fill() {
        for (int i = 0; i < COUNT; i++) {
            LIST.add(new Leaked(i));
        }
    }

    static void big() {
        for (int i = 0; i < BIG_OBJECTS / 64; i++) {
            Object[] chunk = new Object[63];
            for (int k = 0; k < chunk.length; k++) {
                chunk[k] = new Object();
            }
            BIG.add(chunk);
        }
    }
}

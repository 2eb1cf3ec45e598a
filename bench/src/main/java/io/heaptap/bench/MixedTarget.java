package io.heaptap.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A more realistic service: each "request" parses some input (allocation), updates a retained
 * working set of about 100 MB (old objects, GC work) and does some CPU work (hashing).
 */
public final class MixedTarget {
    static final LongAdder OPS = new LongAdder();
    static final int SET_SIZE = 200_000;
    static volatile Object sink;

    private MixedTarget() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(MixedTarget::work, "mixed-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        AllocationHeavyTarget.Protocol.serve(OPS);
    }

    static void work() {
        Map<Integer, byte[]> workingSet = new HashMap<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (true) {
            List<String> fields = new ArrayList<>();
            for (int f = 0; f < 8; f++) {
                fields.add("field-" + random.nextInt(1000));
            }
            workingSet.put(random.nextInt(SET_SIZE), new byte[256 + random.nextInt(512)]);
            long h = 0;
            for (String field : fields) {
                for (int k = 0; k < 50; k++) {
                    h = h * 31 + field.hashCode() + k;
                }
            }
            sink = fields;
            if (h == 42) {
                sink = workingSet;
            }
            OPS.increment();
        }
    }
}

package io.heaptap.profile.format;

import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Stacks merged into one tree, root first, for flame graphs. Nodes too small to see
 * (below {@link #MIN_SHARE} of the total) are folded into one "[small frames]" child per parent,
 * which keeps a page of a 64k-stack profile light enough for a browser.
 */
final class FlameTree {
    static final double MIN_SHARE = 1e-4;

    final String name;
    double total;
    double self;
    final Map<String, FlameTree> children = new LinkedHashMap<>();

    private FlameTree(String name) {
        this.name = name;
    }

    /** The tree of one measure (allocated bytes, live bytes) over the sites that have some. */
    static FlameTree of(String rootName, List<AllocationSite> sites, ToDoubleFunction<AllocationSite> measure) {
        FlameTree root = new FlameTree(rootName);
        for (AllocationSite site : sites) {
            double value = measure.applyAsDouble(site);
            if (value <= 0) {
                continue;
            }
            FlameTree node = root;
            node.total += value;
            for (Frame f : StackLines.rootFirstWithType(site)) {
                node = node.children.computeIfAbsent(f.displayName(), FlameTree::new);
                node.total += value;
            }
            node.self += value;
        }
        root.prune(root.total * MIN_SHARE);
        return root;
    }

    private void prune(double minimum) {
        double folded = 0;
        var it = children.values().iterator();
        while (it.hasNext()) {
            FlameTree child = it.next();
            if (child.total < minimum) {
                folded += child.total;
                it.remove();
            } else {
                child.prune(minimum);
            }
        }
        if (folded > 0) {
            FlameTree small = children.computeIfAbsent("[small frames]", FlameTree::new);
            small.total += folded;
            small.self += folded;
        }
    }

    /** {@code {"n":name,"s":self,"c":[...]}}, the shape the page's script reads. */
    void writeJson(JsonOutput j) {
        j.beginObject().field("n", name).field("s", Math.round(self));
        if (!children.isEmpty()) {
            j.name("c").beginArray();
            children.values().forEach(c -> c.writeJson(j));
            j.endArray();
        }
        j.endObject();
    }
}

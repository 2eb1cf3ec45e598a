package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;
import io.heaptap.profile.AllocationSite;
import io.heaptap.profile.Frame;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collapsed stacks for flamegraph.pl and speedscope: {@code root;...;method;Type bytes}, one line
 * per distinct stack, the count being estimated allocated bytes rounded to an integer.
 */
final class CollapsedWriter implements ProfileWriter {

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        Map<String, Double> lines = new LinkedHashMap<>();
        for (AllocationSite site : profile.sitesByBytes()) {
            lines.merge(line(StackLines.rootFirstWithType(site)), site.estimatedBytes(), Double::sum);
        }
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        for (Map.Entry<String, Double> e : lines.entrySet()) {
            long count = Math.round(e.getValue());
            if (count > 0) {
                w.write(e.getKey());
                w.write(' ');
                w.write(Long.toString(count));
                w.write('\n');
            }
        }
        w.flush();
    }

    private static String line(List<Frame> frames) {
        StringBuilder sb = new StringBuilder();
        for (Frame f : frames) {
            if (sb.length() > 0) {
                sb.append(';');
            }
            // ';' separates frames and ' ' the count: neither may appear inside a name, nor may a control character.
            sb.append(TerminalText.escape(f.functionName().replace(';', ':').replace(' ', '_')));
        }
        return sb.toString();
    }
}

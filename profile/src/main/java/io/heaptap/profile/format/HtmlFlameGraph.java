package io.heaptap.profile.format;

import io.heaptap.profile.AllocationProfile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A self-contained HTML page: the flame graphs of estimated allocated and live bytes, with d3 and
 * the renderer inlined, so it opens from a file with no network.
 */
final class HtmlFlameGraph implements ProfileWriter {

    @Override
    public void write(AllocationProfile profile, OutputStream out) throws IOException {
        String page = FlameGraphAssets.pageTemplate()
                .replace("/*D3*/", inlineScript(FlameGraphAssets.d3()))
                .replace("/*FLAMEGRAPH*/", inlineScript(FlameGraphAssets.renderer()))
                .replace("/*DATA*/", inlineScript(FlameGraphAssets.data(profile)));
        out.write(page.getBytes(StandardCharsets.UTF_8));
    }

    /** Text inside a script element must not close it early. */
    private static String inlineScript(String text) {
        return text.replace("</script", "<\\/script");
    }
}

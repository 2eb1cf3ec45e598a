package io.heaptap.profile.leak;

import io.heaptap.profile.format.FlameGraphAssets;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The leak report as a self-contained page: a chart of estimated live bytes over time for the top
 * sites, and the ranking with its evidence. d3 and the data are inlined, so it opens offline.
 */
public final class LeakHtml {
    /** Sites drawn in the chart: more lines than this cannot be told apart. */
    static final int CHARTED = 8;

    private LeakHtml() {
    }

    public static String of(LeakReport report, int rows) {
        String data = "const HEAPTAP_LEAKS = " + LeakJson.of(report, rows) + ";\nconst HEAPTAP_CHARTED = " + CHARTED + ";";
        return template()
                .replace("/*D3*/", inlineScript(FlameGraphAssets.d3()))
                .replace("/*DATA*/", inlineScript(data));
    }

    private static String template() {
        try (InputStream in = LeakHtml.class.getResourceAsStream("leaks.html")) {
            if (in == null) {
                throw new IllegalStateException("heaptap.jar is incomplete: leaks.html is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read leaks.html from heaptap.jar", e);
        }
    }

    /** Text inside a script element must not close it early. */
    private static String inlineScript(String text) {
        return text.replace("</script", "<\\/script");
    }
}

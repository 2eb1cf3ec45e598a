package io.heaptap.it.cli;

import static io.heaptap.it.support.Chromium.CHROMEDRIVER;
import static io.heaptap.it.support.Chromium.CHROMIUM;
import static io.heaptap.it.support.Chromium.chromium;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.HeaptapCli;
import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.workload.Allocator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The HTML report ({@code --format html}) in a real headless Chromium, opened from a file as a user
 * opens it: the sites table with intervals beside the flame graph, what GC and heaptap cost, a row
 * that highlights its frames, the class census of {@code --gc}, and nothing wider than the window at
 * 1,400 and 1,000 px. Screenshots are
 * kept as integration-tests/target/it-work/html-report-WIDTH.png.
 */
class HtmlReportIT {
    @Test
    void theReportReadsAtAGlanceAndFitsTheWindow() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "install chromium and chromium-driver (./test does): the HTML report test needs a real browser");
        Path work = Paths.workDir("html-report");
        Path report = work.resolve("report.html");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class)) {
            HeaptapCli.Result r = HeaptapCli.run("capture", Long.toString(target.pid()), "--duration", "2s", "--gc",
                    "--out", report.toString());
            assertEquals(0, r.exitCode(), r::toString);
        }
        WebDriver browser = chromium(work);
        try {
            for (int width : List.of(1400, 1000)) {
                browser.manage().window().setSize(new Dimension(width, 1000));
                browser.get(report.toUri().toString());
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
                wait.until(b -> b.findElements(By.cssSelector("#sites tbody tr")).size() >= 2);

                List<WebElement> rows = browser.findElements(By.cssSelector("#sites tbody tr"));
                String first = rows.get(0).getText();
                assertTrue(first.matches("(?s).*±[0-9]+%.*"), "an estimate with its interval: " + first);
                assertTrue(browser.getPageSource().contains("Allocator.allocate"), "the workload's frames are named");
                assertTrue(browser.findElement(By.id("gc")).getText().contains("collector:"), "what GC cost is shown");
                assertTrue(browser.findElement(By.id("cost")).getText().contains("sample callback"),
                        "what heaptap cost is shown: " + browser.findElement(By.id("cost")).getText());
                assertTrue(browser.findElements(By.cssSelector("#chart rect")).size() > 3, "the flame graph is drawn");
                // --gc: the whole heap by class after the forced collection, exact, the rest as one row.
                List<WebElement> classes = browser.findElements(By.cssSelector("#census-table tbody tr"));
                assertTrue(classes.size() >= 2 && classes.get(classes.size() - 1).getText().contains("other classes)"),
                        "the census's classes and the rest: " + classes.size());
                assertTrue(browser.findElement(By.id("census-lines")).getText().contains("heap in use after GC"),
                        browser.findElement(By.id("census-lines")).getText());

                JavascriptExecutor js = (JavascriptExecutor) browser;
                Object overflow = js.executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
                assertTrue(((Number) overflow).longValue() <= 0, width + " px: the page is wider than the window by " + overflow);
                // Figures are never cut: every number and heading fits its cell (names may end in an ellipsis,
                // with the whole name in the tooltip).
                Object cut = js.executeScript("return Array.from(document.querySelectorAll('td.num, th'))"
                        + ".filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent).join(' | ');");
                assertEquals("", cut, width + " px: cut cells");

                // A row highlights its frames in the flame graph and says what share they hold.
                rows.get(0).click();
                WebElement matched = browser.findElement(By.id("matched"));
                wait.until(b -> matched.getText().startsWith("matched:"));
                Matcher m = Pattern.compile("matched: ([0-9.]+)%").matcher(matched.getText());
                assertTrue(m.find() && Double.parseDouble(m.group(1)) > 0, matched.getText());
                assertTrue(!browser.findElements(By.cssSelector("#chart rect.match")).isEmpty(), "frames highlighted");

                File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
                Path kept = work.getParent().resolve("html-report-" + width + ".png");
                Files.copy(shot.toPath(), kept, StandardCopyOption.REPLACE_EXISTING);
                assertTrue(Files.size(kept) > 10_000, "a real screenshot");
            }
        } finally {
            browser.quit();
        }
    }
}

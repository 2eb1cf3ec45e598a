package io.heaptap.it.http;

import static io.heaptap.it.support.Chromium.CHROMIUM;
import static io.heaptap.it.support.Chromium.CHROMEDRIVER;
import static io.heaptap.it.support.Chromium.chromium;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heaptap.it.support.Jdk;
import io.heaptap.it.support.Paths;
import io.heaptap.it.support.TargetJvm;
import io.heaptap.it.support.HttpEndpoint;
import io.heaptap.it.workload.Allocator;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in a real headless Chromium (Debian's chromium and chromium-driver): start a capture
 * with the button, watch the flame graph render with the workload's hot frame, stop it; then a leak
 * watch with a forced GC, and the whole heap accounted for under its ranking. The
 * screenshots, at 1,400 and 1,000 px, are kept as integration-tests/target/it-work/web-page-WIDTH.png,
 * build artifacts; at both widths nothing is wider than the window and no figure is cut.
 */
class WebPageIT {
    @Test
    void startWatchTheFlameGraphAndStop() throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "install chromium and chromium-driver (./test does): the web page test needs a real browser");
        Path work = Paths.workDir("web-page");
        try (TargetJvm target = TargetJvm.start(Jdk.newest(), Allocator.class)) {
            // Signed in as a browser user is: the token as the password of HTTP Basic.
            String url = HttpEndpoint.serve(target.pid()).browserUrl();
            WebDriver browser = chromium(work);
            try {
                browser.get(url);
                // The page redraws the flame graph every 2 s while recording: an element found may be gone when read.
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
                wait.ignoring(StaleElementReferenceException.class);
                WebElement status = browser.findElement(By.id("status"));
                wait.until(b -> "idle".equals(status.getAttribute("data-state")));

                WebElement duration = browser.findElement(By.id("duration"));
                duration.clear();
                duration.sendKeys("2m");
                browser.findElement(By.id("start")).click();
                wait.until(b -> "recording".equals(status.getAttribute("data-state")));

                // The flame graph is drawn, and the workload's hot allocating frame is in it.
                wait.until(b -> b.findElements(By.cssSelector("#alloc-graph g title")).stream()
                        .anyMatch(t -> t.getAttribute("textContent").contains("Allocator.allocateBuffer")));
                wait.until(b -> !b.findElements(By.cssSelector("#top-alloc tbody tr")).isEmpty());
                List<WebElement> rects = browser.findElements(By.cssSelector("#alloc-graph rect"));
                assertTrue(rects.size() > 3, "frames drawn: " + rects.size());
                assertTrue(status.getText().contains("left"), status.getText());

                for (int width : List.of(1400, 1000)) {
                    browser.manage().window().setSize(new Dimension(width, 1000));
                    JavascriptExecutor js = (JavascriptExecutor) browser;
                    Object overflow = js.executeScript("return document.documentElement.scrollWidth - window.innerWidth;");
                    assertTrue(((Number) overflow).longValue() <= 0, width + " px: the page is wider than the window by " + overflow);
                    // Figures and headings are never cut or wrapped: one line a row (names may end in an ellipsis,
                    // whole in the tooltip).
                    Object cut = js.executeScript("return Array.from(document.querySelectorAll('table td.num, table th'))"
                            + ".filter(c => c.scrollWidth > c.clientWidth + 1 || c.getClientRects().length > 1"
                            + " || c.offsetHeight > 2.2 * parseFloat(getComputedStyle(c).lineHeight || 16))"
                            + ".map(c => c.textContent).join(' | ');");
                    assertEquals("", cut, width + " px: cut or wrapped cells");
                    String firstRow = browser.findElement(By.cssSelector("#top-alloc tbody tr")).getText();
                    assertTrue(firstRow.matches("(?s).*±[0-9]+%.*"), "an estimate with its interval: " + firstRow);

                    File shot = ((ChromeDriver) browser).getScreenshotAs(OutputType.FILE);
                    Path kept = work.getParent().resolve("web-page-" + width + ".png");
                    Files.copy(shot.toPath(), kept, StandardCopyOption.REPLACE_EXISTING);
                    assertTrue(Files.size(kept) > 10_000, "a real screenshot");
                }

                browser.findElement(By.id("stop")).click();
                wait.until(b -> "stopped".equals(status.getAttribute("data-state")));
                assertEquals("", browser.findElement(By.id("error")).getText(), "no error shown");

                // A census on demand: the whole heap by class, exact, with the pauses it cost.
                browser.findElement(By.id("census-take")).click();
                wait.until(b -> b.findElements(By.cssSelector("#census-table tbody tr")).size() >= 2);
                String census = browser.findElement(By.id("census-status")).getText();
                assertTrue(census.matches("heap in use after the forced GC [0-9.]+ [KMG]iB of [0-9.]+ [KMG]iB max; census .*"), census);
                String biggest = browser.findElement(By.cssSelector("#census-table tbody tr")).getText();
                assertTrue(biggest.matches("[0-9.]+ [KMG]?i?B [0-9.]+ [0-9,]+ \\S+.*"), "bytes, share, instances, class: " + biggest);
                assertEquals("", browser.findElement(By.id("error")).getText(), "no error shown");

                // A leak watch with a forced GC: the page shows the whole heap after it, what the sampled sites
                // explain and what the class census names for the rest.
                WebElement every = browser.findElement(By.id("leak-every"));
                every.clear();
                every.sendKeys("2s");
                WebElement watchFor = browser.findElement(By.id("leak-duration"));
                watchFor.clear();
                watchFor.sendKeys("6s");
                browser.findElement(By.id("leak-gc")).click();
                browser.findElement(By.id("leak-start")).click();
                WebElement heap = browser.findElement(By.id("leak-heap"));
                wait.until(b -> heap.getText().contains("heap after the last forced GC"));
                assertTrue(heap.getText().matches("(?s).*accounted for [0-9]+%.*"), heap.getText());
                assertTrue(heap.getText().contains("the class census names"), heap.getText());
                assertEquals("", browser.findElement(By.id("error")).getText(), "no error shown");
            } finally {
                browser.quit();
            }
        }
    }
}

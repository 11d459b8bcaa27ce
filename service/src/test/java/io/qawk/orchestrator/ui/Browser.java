package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.BuildInstalls;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import java.util.function.Predicate;
import java.util.logging.Level;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium driven through {@code /usr/bin/chromedriver}, logged in with HTTP Basic by an
 * {@link AuthProxy} in front of the service (the DevTools protocol would tie the test to the Chromium versions the
 * Selenium release knows, and Debian's chromium is not always one of them). Nothing is downloaded: the driver is given explicitly, so Selenium Manager is never run. When
 * the browser is missing this fails (never skips) and says how to install it.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    final ChromeDriver driver;
    private final Path profile;
    private final String user;
    private final String password;
    private AuthProxy proxy;

    private Browser(ChromeDriver driver, Path profile, String user, String password) {
        this.driver = driver;
        this.profile = profile;
        this.user = user;
        this.password = password;
    }

    /** Starts a fresh browser (own profile) whose requests to the service carry these Basic credentials. */
    static Browser start(String user, String password) {
        Optional<String> installFailed = BuildInstalls.await("browser");
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The browser tests need Debian's chromium and chromium-driver ("
                    + CHROMIUM + ", " + CHROMEDRIVER + "), which are not installed. Install them with "
                    + "src/test/scripts/install-browser.sh (apt-get install -y chromium chromium-driver)."
                    + installFailed.map(why -> " " + why).orElse(""));
        }
        // Belt and braces: with the driver given explicitly Selenium Manager is skipped; these keep it (and
        // anything looking for the driver by property) from ever reaching for the network.
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        System.setProperty("SE_OFFLINE", "true");
        Path profile;
        try {
            profile = Files.createTempDirectory("qawk-ui-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--user-data-dir=" + profile,
                "--window-size=1280,1000", "--lang=en-GB");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withSilent(true)
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1280, 1000));
        return new Browser(driver, profile, user, password);
    }

    /**
     * Opens {@code uri} as it is, through no proxy: for signing in on the identity provider's own page (a browser
     * started with no Basic credentials).
     */
    void navigate(URI uri) {
        driver.get(uri.toString());
    }

    /** Opens {@code uri} of the service, through a proxy that logs the browser in. */
    void open(URI uri) {
        driver.get(proxyTo(uri).through(uri).toString());
    }

    /**
     * Until closed, the page's requests to the service at {@code service} whose path and query match are answered by
     * {@code answer} instead of the service.
     */
    AuthProxy.Interception intercept(URI service, Predicate<String> uriMatches,
                                     Function<AuthProxy.Seen, AuthProxy.Answer> answer) {
        return proxyTo(service).intercept(uriMatches, answer);
    }

    private AuthProxy proxyTo(URI uri) {
        URI origin = URI.create(uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort());
        if (proxy == null || !proxy.origin().equals(origin)) {
            if (proxy != null) {
                proxy.close();
            }
            proxy = AuthProxy.to(uri, user, password);
        }
        return proxy;
    }

    /** Waits for a condition; on a timeout leaves the screen, the page and the browser console under target/screenshots. */
    <T> T await(Duration within, Function<ChromeDriver, T> until) {
        try {
            return new WebDriverWait(driver, within, Duration.ofMillis(100)).ignoring(StaleElementReferenceException.class)
                    .until(d -> until.apply(driver));
        } catch (TimeoutException e) {
            String name = "timeout-" + System.currentTimeMillis();
            try {
                screenshot(name);
                Files.writeString(SCREENSHOTS.resolve(name + ".html"), driver.getPageSource());
                StringBuilder log = new StringBuilder();
                driver.manage().logs().get(LogType.BROWSER).forEach(l -> log.append(l).append('\n'));
                Files.writeString(SCREENSHOTS.resolve(name + ".log"), log);
            } catch (RuntimeException | IOException ignored) {
                // best effort: the timeout is what matters
            }
            throw new TimeoutException(e.getMessage() + " (page, screen and console saved as target/screenshots/" + name + ".*)", e);
        }
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    /**
     * Clicks the element {@code css} finds. The screen re-renders what it follows live, so the element found may be
     * replaced before the click lands: then it is found again and clicked (within 10 s).
     */
    void click(String css) {
        new WebDriverWait(driver, Duration.ofSeconds(10), Duration.ofMillis(50))
                .ignoring(StaleElementReferenceException.class).until(d -> {
                    d.findElement(By.cssSelector(css)).click();
                    return true;
                });
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Writes {@code target/screenshots/<name>.png}. */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Path to = SCREENSHOTS.resolve(name + ".png");
            Files.move(shot.toPath(), to, StandardCopyOption.REPLACE_EXISTING);
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code target/screenshots/<name>.png}: the element {@code css} finds, all of it. */
    Path screenshotOf(String css, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File shot = find(css).getScreenshotAs(OutputType.FILE);
            Path to = SCREENSHOTS.resolve(name + ".png");
            Files.move(shot.toPath(), to, StandardCopyOption.REPLACE_EXISTING);
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary profile left behind is harmless
            }
        }
    }
}

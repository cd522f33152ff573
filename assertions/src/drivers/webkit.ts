import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { type Child, freePort, startChild } from '@openmates/fixtures';
import { Builder, By, error, Key, type WebDriver, type WebElement } from 'selenium-webdriver';
import type { BrowserPage } from './page-actions.ts';

/**
 * Debian's WebKitGTK (installed by scripts/setup.d/webkit.sh): its WebDriver server and the
 * MiniBrowser it drives. WebKitGTK speaks classic W3C WebDriver only (no BiDi).
 */
export const WEBKIT_LAUNCH = {
  webDriver: process.env.WEBKIT_WEBDRIVER ?? 'WebKitWebDriver',
  miniBrowser: process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  xvfb: process.env.XVFB ?? 'Xvfb',
} as const;

/** How long a control may take to appear, and how often the page is asked meanwhile. */
const FIND_TIMEOUT_MS = 10_000;
const POLL_MS = 20;

/** An Xvfb display and a WebKitWebDriver on it, started by the caller and ended by `close`. */
export interface WebKitHost {
  /**
   * A new MiniBrowser window; `dark` starts it with GTK's dark variant, which WebKit reports as
   * `prefers-color-scheme: dark`; `javascript: false` turns off the page's own scripts (WebKit's
   * `enable-javascript-markup`), as for a person browsing without JavaScript, while WebDriver can
   * still read the page.
   */
  session(options?: { dark?: boolean; javascript?: boolean }): Promise<WebDriver>;
  /** Ends every session still open, then WebKitWebDriver, then the display. */
  close(): Promise<void>;
}

/**
 * Starts Xvfb on a display it picks itself (`-displayfd`), then WebKitWebDriver on a free loopback
 * port with that display. MiniBrowser has no headless mode, hence the display. Both are foreground
 * children ended by `close`: a WebKitWebDriver left running keeps the test process alive.
 * `env` adds to MiniBrowser's environment (it inherits WebKitWebDriver's).
 */
export async function startWebKit(env: Record<string, string> = {}): Promise<WebKitHost> {
  if (!existsSync(WEBKIT_LAUNCH.miniBrowser))
    throw new Error(`${WEBKIT_LAUNCH.miniBrowser} is missing: bash scripts/setup.d/webkit.sh installs it`);
  const xvfb = await startChild(
    WEBKIT_LAUNCH.xvfb,
    ['-displayfd', '1', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'],
    { ready: /^(\d+)\n/m },
  ).catch(missing('Xvfb'));
  let driverServer: Child | undefined;
  const sessions = new Set<WebDriver>();
  const close = async () => {
    await Promise.allSettled([...sessions].map((s) => s.quit()));
    sessions.clear();
    await driverServer?.stop('SIGTERM');
    await xvfb.stop('SIGTERM');
  };
  try {
    const port = await freePort();
    driverServer = await startChild(WEBKIT_LAUNCH.webDriver, [`--port=${port}`, '--host=local'], {
      env: {
        ...process.env,
        DISPLAY: `:${xvfb.match[1]}`,
        // No accessibility bus or desktop settings daemon runs here: GTK is told not to look for them.
        NO_AT_BRIDGE: '1',
        GSETTINGS_BACKEND: 'memory',
        ...env,
      },
    }).catch(missing('WebKitWebDriver'));
    const url = `http://127.0.0.1:${port}`;
    await serving(url, driverServer);
    return {
      async session({ dark = false, javascript = true } = {}) {
        const driver = await new Builder()
          .usingServer(url)
          .withCapabilities({
            browserName: 'MiniBrowser',
            'webkitgtk:browserOptions': {
              binary: WEBKIT_LAUNCH.miniBrowser,
              args: [
                '--automation',
                ...(dark ? ['--dark-mode'] : []),
                ...(javascript ? [] : ['--enable-javascript-markup=false']),
              ],
            },
          })
          .build();
        sessions.add(driver);
        const quit = driver.quit.bind(driver);
        driver.quit = async () => {
          sessions.delete(driver);
          await quit();
        };
        return driver;
      },
      close,
    };
  } catch (failure) {
    await close();
    throw failure;
  }
}

/** Says what to run when a program is not installed; passes any other failure on. */
function missing(program: string): (failure: unknown) => never {
  return (failure) => {
    if ((failure as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${program} is not installed: bash scripts/setup.d/webkit.sh installs it`);
    throw failure;
  };
}

/** Resolves once WebKitWebDriver answers `/status`: it prints nothing when it starts listening. */
async function serving(url: string, server: Child): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (server.process.exitCode !== null) throw new Error(`WebKitWebDriver exited: ${server.output.join('')}`);
    try {
      const status = await fetch(`${url}/status`);
      if (status.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer ${url}/status within 20 s`);
    await delay(POLL_MS);
  }
}

/**
 * A click or a key press can return before the old page has unloaded: the next command then meets
 * a frame that is going away (NoSuchFrame) or an element of the old document (StaleElement). Such a
 * command is sent again; any other error is the test's.
 */
function unloading(failure: unknown): boolean {
  return failure instanceof error.NoSuchFrameError || failure instanceof error.StaleElementReferenceError;
}

async function retrying<T>(action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + FIND_TIMEOUT_MS;
  for (;;) {
    try {
      return await action();
    } catch (failure) {
      if (!unloading(failure) || Date.now() > deadline) throw failure;
    }
  }
}

/** Finds a control by its `<label>`'s text, whitespace collapsed, as a person reads it. */
const LABELLED = `
  const norm = (s) => s.replace(/\\s+/g, ' ').trim();
  for (const label of document.querySelectorAll('label'))
    if (norm(label.textContent ?? '') === arguments[0]) return label.control;
  return null;`;

/** Finds a button by its accessible name: its `aria-label`, else its text. */
const NAMED_BUTTON = `
  const norm = (s) => s.replace(/\\s+/g, ' ').trim();
  for (const button of document.querySelectorAll('button'))
    if (button.getAttribute('aria-hidden') !== 'true' && norm(button.getAttribute('aria-label') ?? button.textContent ?? '') === arguments[0])
      return button;
  return null;`;

/** Selenium's WebDriver session as the shared page actions drive it. */
export function seleniumPage(driver: WebDriver): BrowserPage {
  /**
   * Scrolls the element to the middle of the window, then clicks it. WebKitGTK scrolls an element
   * below the fold into view itself but then clicks where it was, so the click lands on nothing.
   */
  const click = async (element: WebElement) => {
    await driver.executeScript("arguments[0].scrollIntoView({ block: 'center', inline: 'center' });", element);
    await element.click();
  };
  /** Waits for the element a script finds, through page loads in between. */
  const found = (script: string, arg: unknown, what: string): Promise<WebElement> =>
    driver.wait(
      async () => {
        try {
          return ((await driver.executeScript(script, arg)) as WebElement | null) ?? false;
        } catch (failure) {
          if (unloading(failure)) return false;
          throw failure;
        }
      },
      FIND_TIMEOUT_MS,
      `no ${what}`,
      POLL_MS,
    ) as Promise<WebElement>;
  const labelled = (label: string) => found(LABELLED, label, `control labelled "${label}"`);
  return {
    goto: (url) => driver.get(url),
    evaluate: <R, A>(fn: (arg: A) => R, arg?: A) =>
      retrying(() => driver.executeScript<R>(`return (${fn.toString()})(arguments[0]);`, arg)),
    async waitUntil(predicate, timeoutMs) {
      const script = `return (${predicate.toString()})() === true;`;
      await driver.wait(
        async () => {
          try {
            return (await driver.executeScript<boolean>(script)) === true;
          } catch (failure) {
            if (unloading(failure)) return false;
            throw failure;
          }
        },
        timeoutMs,
        `the page never satisfied ${predicate.toString()}`,
        POLL_MS,
      );
    },
    fill: (label, value) =>
      retrying(async () => {
        const control = await labelled(label);
        await control.clear();
        await control.sendKeys(value);
      }),
    select: (label, value) =>
      retrying(async () => {
        const control = await labelled(label);
        const options = await control.findElements(By.css('option'));
        for (const option of options)
          if ((await option.getAttribute('value')) === value) {
            await click(option);
            return;
          }
        throw new Error(`the select labelled "${label}" has no option ${JSON.stringify(value)}`);
      }),
    pressEnter: (label) => retrying(async () => (await labelled(label)).sendKeys(Key.ENTER)),
    clickButton: (name) => retrying(async () => click(await found(NAMED_BUTTON, name, `button named "${name}"`))),
    clickNth: (selector, index) =>
      retrying(async () => {
        const all = await driver.wait<WebElement[]>(
          async () => {
            const elements = await driver.findElements(By.css(selector));
            return elements.length > index ? elements : false;
          },
          FIND_TIMEOUT_MS,
          `no element ${index} of ${selector}`,
          POLL_MS,
        );
        const element = all[index];
        if (element) await click(element);
      }),
    content: () => retrying(() => driver.getPageSource()),
  };
}

// webkit.js: WebKitGTK (Safari's engine): Debian's MiniBrowser driven by its
// WebKitWebDriver (WebDriver classic, through selenium-webdriver), on an Xvfb display
// of its own. One WebKitWebDriver holds one session; a dark page opens in a second
// one whose MiniBrowser runs --dark-mode, started when first asked for. Each page is a
// window of the session. MiniBrowser's window is never narrower than 447 px: a narrower
// page is opened in an iframe of that width, which every command then acts in.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { Builder, Key, Origin } from 'selenium-webdriver';
import { pointOf, focusOn, boxOf, path, elementOf } from './page.js';

export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** The narrowest window MiniBrowser makes. */
export const WEBKIT_MIN_WIDTH = 447;

// Playwright's key names -> WebDriver's
const KEYS = {
  Enter: Key.RETURN, Tab: Key.TAB, Space: ' ', Escape: Key.ESCAPE, Backspace: Key.BACK_SPACE, Delete: Key.DELETE,
  Home: Key.HOME, End: Key.END, PageUp: Key.PAGE_UP, PageDown: Key.PAGE_DOWN,
  ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, ArrowUp: Key.ARROW_UP, ArrowDown: Key.ARROW_DOWN,
  Shift: Key.SHIFT, Control: Key.CONTROL, Alt: Key.ALT,
};

// what this process started: ended with it, even when a test fails before closing them
const children = new Set();
process.on('exit', () => { for (const c of children) c.kill(); });
const started = (child) => {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
};

const freePort = () => new Promise((resolve, reject) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }).on('error', reject);
});

// An X display for the browsers: the DISPLAY given, or an Xvfb of this process's own.
async function xvfb() {
  if (process.env.WEBKIT_DISPLAY) return { display: process.env.WEBKIT_DISPLAY, stop() {} };
  const child = started(spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x2400x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] }));
  const display = await new Promise((resolve, reject) => {
    let out = '';
    child.stdio[3].on('data', (d) => { out += d; if (out.includes('\n')) resolve(`:${out.trim()}`); });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it gave a display`)));
  });
  return { display, stop: () => child.kill() };
}

// A WebKitWebDriver on a free port and its one session.
async function session(display, args) {
  const port = await freePort();
  // no GPU here: composited layers would be drawn by Mesa's software GL (llvmpipe), a third
  // of the engine's CPU time, and its element screenshots came out black
  const env = { ...process.env, DISPLAY: display, WEBKIT_DISABLE_COMPOSITING_MODE: '1' };
  const driverProcess = started(spawn('WebKitWebDriver', [`--port=${port}`], { env, stdio: 'ignore' }));
  const exited = new Promise((_, reject) => driverProcess.on('exit', (code) => reject(new Error(`WebKitWebDriver exited (${code})`))));
  exited.catch(() => {});
  for (let up = false; !up;) {
    up = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false);
    if (!up) await Promise.race([new Promise((r) => setTimeout(r, 50)), exited]);
  }
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
    browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation', ...args] },
  }).build();
  await driver.manage().setTimeouts({ script: 120_000 });
  const home = await driver.getWindowHandle(); // never closed: closing a session's last window ends it
  let current = home;
  return {
    driver,
    home,
    spare: new Map(), // size -> [windows of closed pages, blank]
    // run `fn` with `handle`'s window (and its frame) current
    async in(handle, framed, fn) {
      if (current !== handle) {
        await driver.switchTo().window(handle);
        if (framed) await driver.switchTo().frame(0);
        current = handle;
      }
      return fn();
    },
    forget(handle) { if (current === handle) current = null; },
    async close() { await driver.quit().catch(() => {}); driverProcess.kill(); },
  };
}

export async function webkit() {
  const x = await xvfb();
  const sessions = { light: session(x.display, []) };
  const { driver } = await sessions.light;
  const version = (await driver.getCapabilities()).get('browserVersion');
  return {
    name: 'webkit',
    version: `WebKitGTK ${version}`,
    async open(url, { width = 1100, height = 900, colorScheme = 'light' } = {}) {
      sessions[colorScheme] ??= session(x.display, colorScheme === 'dark' ? ['--dark-mode'] : []);
      const s = await sessions[colorScheme];
      const framed = width < WEBKIT_MIN_WIDTH;
      // a window a closed page left, of this size, else a new one
      const size = `${Math.max(width, WEBKIT_MIN_WIDTH)}x${height}`;
      let handle = s.spare.get(size)?.pop();
      if (!handle) {
        await s.in(s.home, false, () => {});
        await s.driver.switchTo().newWindow('window');
        handle = await s.driver.getWindowHandle();
        s.forget(s.home);
        await fit(s.driver, Math.max(width, WEBKIT_MIN_WIDTH), height);
      }
      const page = wrap(s, handle, framed, { width, height, size });
      await page.goto(url);
      return page;
    },
    async close() {
      await Promise.all(Object.values(sessions).map(async (s) => (await s).close()));
      x.stop();
    },
  };
}

// size the window so that its viewport is width x height: the window adds its chrome, measured
// as the window's size less its viewport's, read again until they agree (a resize lands later)
async function fit(driver, width, height) {
  const win = driver.manage().window();
  for (let k = 0; k < 100; k++) {
    const [w, h] = await driver.executeScript('return [innerWidth, innerHeight]') ?? [];
    if (w === width && h === height) return;
    const rect = await win.getRect();
    if (w > 0 && h > 0) {
      await win.setRect({ width: Math.max(width, width + rect.width - w), height: Math.max(height, height + rect.height - h) });
    }
    await new Promise((r) => setTimeout(r, 20)); // (a new window not shown yet, or a resize not landed)
  }
  throw new Error(`webkit: a window of ${width} x ${height} px could not be made`);
}

function wrap(s, handle, framed, { width, height, size }) {
  const { driver } = s;
  const run = (fn) => s.in(handle, framed, fn);
  const evaluate = (fn, arg) => run(() => driver.executeScript(`return (${fn})(arguments[0])`, arg));
  const actions = () => driver.actions({ async: true });
  const at = (p) => ({ x: Math.round(p.x), y: Math.round(p.y), origin: Origin.VIEWPORT });
  return {
    raw: driver,
    evaluate,
    url: () => run(() => driver.executeScript('return location.href')),
    async goto(url) {
      if (!framed) return run(() => driver.get(url));
      // the page in an iframe of its width, at the window's top left
      await driver.switchTo().window(handle);
      s.forget(handle);
      await driver.get('about:blank');
      await driver.executeScript(`return new Promise((resolve) => {
        document.body.style.margin = '0';
        const f = document.createElement('iframe');
        f.style.cssText = 'border:0;display:block;width:' + arguments[1] + 'px;height:' + arguments[2] + 'px';
        f.onload = () => resolve();
        f.src = arguments[0];
        document.body.append(f);
      })`, url, width, height);
      await run(() => {});
    },
    click: (target) => run(async () => { const p = await pointOf(evaluate, target); await actions().move(at(p)).press().release().perform(); }),
    focus: (target) => focusOn(evaluate, target),
    box: (target) => boxOf(evaluate, target),
    press: (key) => run(() => actions().keyDown(KEYS[key] ?? key).keyUp(KEYS[key] ?? key).perform()),
    type: (text) => run(() => actions().sendKeys(text).perform()),
    drag: (from, to) => run(async () => {
      const [a, b] = [await pointOf(evaluate, from), await pointOf(evaluate, to)];
      let chain = actions().move(at(a)).press();
      for (const p of path(a, b)) chain = chain.move({ ...at(p), duration: 16 });
      await chain.release().perform();
    }),
    screenshot: (file, target) => run(async () => {
      const png = Buffer.from(target ? await (await elementOf(evaluate, target)).takeScreenshot(true) : await driver.takeScreenshot(), 'base64');
      if (file) await writeFile(file, png);
      return png;
    }),
    problems: () => evaluate(() => window.__problems ?? ['no probe in the page']),
    async close() {
      // the window is kept, blank, for the next page of its size
      await driver.switchTo().window(handle);
      s.forget(handle);
      await driver.get('about:blank');
      s.spare.set(size, [...(s.spare.get(size) ?? []), handle]);
    },
  };
}

// firefox.js: Debian's Firefox ESR through puppeteer-core over WebDriver BiDi, headless.
// BiDi has no colour-scheme emulation: a dark page opens in a second Firefox whose
// content is told it is dark (a preference), launched when first asked for.
import puppeteer from 'puppeteer-core';
import { writeFile } from 'node:fs/promises';
import { pointOf, focusOn, boxOf, path, elementOf } from './page.js';
import { PROBE_SCRIPT } from '../probes.js';

export const FIREFOX_EXECUTABLE = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

const start = (scheme) => puppeteer.launch({
  browser: 'firefox', executablePath: FIREFOX_EXECUTABLE, headless: true,
  // 0 dark, 1 light: what prefers-color-scheme says to pages
  extraPrefsFirefox: { 'layout.css.prefers-color-scheme.content-override': scheme === 'dark' ? 0 : 1 },
});

export async function firefox() {
  const browsers = { light: start('light') };
  const version = await (await browsers.light).version();
  return {
    name: 'firefox',
    version: version.replace(/^firefox\//i, 'Firefox '),
    async open(url, { width = 1100, height = 900, colorScheme = 'light' } = {}) {
      browsers[colorScheme] ??= start(colorScheme);
      const context = await (await browsers[colorScheme]).createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height });
      await page.evaluateOnNewDocument(PROBE_SCRIPT);
      await page.goto(url, { waitUntil: 'load' });
      return wrap(page, context);
    },
    async close() { await Promise.all(Object.values(browsers).map(async (b) => (await b).close())); },
  };
}

// fn, run in the page, its result passed back as JSON (BiDi hands back an array that a
// result holds twice as a reference puppeteer does not resolve)
const asJson = (fn) => new Function('arg', `return (async () => JSON.stringify(await (${fn})(arg)) ?? 'null')()`);

function wrap(page, context) {
  const evaluate = async (fn, arg) => JSON.parse(await page.evaluate(asJson(fn), arg));
  return {
    raw: page,
    evaluate,
    url: () => page.evaluate(() => location.href),
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    async click(target) { const p = await pointOf(evaluate, target); await page.mouse.click(p.x, p.y); },
    focus: (target) => focusOn(evaluate, target),
    box: (target) => boxOf(evaluate, target),
    press: (key) => page.keyboard.press(key === 'Space' ? ' ' : key), // (BiDi's name for it)
    type: (text) => page.keyboard.type(text),
    async drag(from, to) {
      const [a, b] = [await pointOf(evaluate, from), await pointOf(evaluate, to)];
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      for (const p of path(a, b)) await page.mouse.move(p.x, p.y);
      await page.mouse.up();
    },
    async screenshot(file, target) {
      const png = Buffer.from(target ? await (await elementOf((fn, arg) => page.evaluateHandle(fn, arg), target)).screenshot() : await page.screenshot());
      if (file) await writeFile(file, png);
      return png;
    },
    problems: () => page.evaluate(() => window.__problems ?? ['no probe in the page']),
    close: () => context.close(),
  };
}

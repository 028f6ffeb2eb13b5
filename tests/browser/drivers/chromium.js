// chromium.js: Debian's Chromium through playwright-core, headless.
import { chromium as playwright } from 'playwright-core';
import { writeFile } from 'node:fs/promises';
import { CHROMIUM_ARGS, CHROMIUM_TEST_EXECUTABLE } from '../../../scripts/chromium.mjs';
import { pointOf, focusOn, boxOf, path, elementOf } from './page.js';
import { PROBE_SCRIPT } from '../probes.js';

export async function chromium() {
  const browser = await playwright.launch({ executablePath: CHROMIUM_TEST_EXECUTABLE, args: CHROMIUM_ARGS });
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async open(url, { width = 1100, height = 900, colorScheme = 'light' } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.addInitScript(PROBE_SCRIPT);
      await page.goto(url, { waitUntil: 'load' });
      return wrap(page, context);
    },
    close: () => browser.close(),
  };
}

function wrap(page, context) {
  const evaluate = (fn, arg) => page.evaluate(fn, arg);
  return {
    raw: page,
    evaluate,
    url: () => page.evaluate(() => location.href),
    goto: (url) => page.goto(url, { waitUntil: 'load' }),
    async click(target) { const p = await pointOf(evaluate, target); await page.mouse.click(p.x, p.y); },
    focus: (target) => focusOn(evaluate, target),
    box: (target) => boxOf(evaluate, target),
    press: (key) => page.keyboard.press(key),
    type: (text) => page.keyboard.type(text),
    async drag(from, to) {
      const [a, b] = [await pointOf(evaluate, from), await pointOf(evaluate, to)];
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      for (const p of path(a, b)) await page.mouse.move(p.x, p.y);
      await page.mouse.up();
    },
    async screenshot(file, target) {
      const png = target ? await (await elementOf((fn, arg) => page.evaluateHandle(fn, arg), target)).screenshot() : await page.screenshot();
      if (file) await writeFile(file, png);
      return png;
    },
    problems: () => page.evaluate(() => window.__problems ?? ['no probe in the page']),
    close: () => context.close(),
  };
}

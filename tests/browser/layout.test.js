// Every figure on the article page at phone and tablet widths: it fits the
// column and the page never scrolls sideways; no piece of text overlaps
// another or a control, none is cut off; every text (cell labels on their
// cells, coloured labels, notes) contrasts at least 4.5:1 with what is behind
// it (3:1 for large text), in the light and the dark theme. One page serves
// every view: the viewport is resized and the colour scheme switched (which
// also checks that the figures follow a theme switch). Screenshots of each
// figure at 360 px, light and dark, go to tests/artifacts/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, measured, frames, screenshot, contrastRatio, layoutProblems, SCREENSHOTS, ALL_FIGURES } from './harness.js';

let server;
let opened;
before(async () => {
  server = await start();
  opened = await openAll(server, '/web/index.html', { width: 360 });
  await measured(opened.page);
});
after(async () => {
  await opened?.context.close();
  await server?.close();
});

const VIEWS = [
  { width: 360, colorScheme: 'light', contrast: true, shots: true },
  { width: 360, colorScheme: 'dark', contrast: true, shots: true },
  { width: 414, colorScheme: 'light' },
  { width: 600, colorScheme: 'light' },
];

for (const { width, colorScheme, contrast, shots } of VIEWS) {
  test(`${width} px, ${colorScheme}: every figure fits, no text overlaps or is cut off${contrast ? ', all text contrasts' : ''}`, async () => {
    const { page, problems } = opened;
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    await frames(page);
    const found = [];
    for (const tag of ALL_FIGURES) {
      const el = page.locator(tag);
      await el.scrollIntoViewIfNeeded(); // (the article skips the layout of what is out of view: content-visibility)
      await frames(page);
      const box = await el.evaluate((e) => ({ width: e.getBoundingClientRect().width, inner: e.shadowRoot.firstElementChild.scrollWidth }));
      assert.ok(box.width <= width && box.inner <= width, `${tag} is ${box.width}px wide, its content ${box.inner}px`);
      found.push(...layoutProblems(await el.evaluate((e) => window.__fig.textBoxes(e))).map((p) => `${tag}: ${p}`));
      if (contrast) {
        for (const c of await el.evaluate((e) => window.__fig.contrasts(e))) {
          const ratio = contrastRatio(c.fg, c.bg);
          if (ratio < (c.large ? 3 : 4.5)) found.push(`${tag}: "${c.text}" ${ratio.toFixed(2)}:1 (rgb ${c.fg} on ${c.bg})`);
        }
      }
      if (shots) await screenshot(el, `${SCREENSHOTS}${tag}-phone${colorScheme === 'dark' ? '-dark' : ''}.png`);
    }
    assert.deepEqual(found, []);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `the page scrolls sideways: ${scroll}px`);
    assert.deepEqual(problems, []);
  });
}

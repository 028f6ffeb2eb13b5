// The scale's colours as the figures compute them in JS (colors.scaleRgb,
// behind the cell labels' black or white and the canvas palettes) match
// Chromium's own color-mix(in oklab) of the theme's colours, in the light and
// the dark theme, within one step per channel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

for (const colorScheme of ['light', 'dark']) {
  test(`scaleRgb is the browser's color-mix, ${colorScheme} theme`, async () => {
    const { page, problems, context } = await server.open('/web/index.html', { colorScheme });
    await ready(page, 'attention-notation');
    const worst = await page.evaluate(async () => {
      const [{ scaleRgb }, { cssColor }] = await Promise.all([import('/web/kit/draw/colors.js'), import('/web/kit/draw/scale.js')]);
      const root = document.querySelector('attention-notation').shadowRoot;
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const browser = (css) => { // the browser's colour, read back through a canvas pixel
        const span = document.createElement('span');
        span.style.color = css;
        root.append(span);
        ctx.fillStyle = getComputedStyle(span).color;
        span.remove();
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.subarray(0, 3)];
      };
      let out = { diff: 0 };
      for (let k = -100; k <= 100; k++) {
        const v = k / 100;
        const [ours, theirs] = [scaleRgb(root, v), browser(cssColor(v))];
        const diff = Math.max(...ours.map((c, i) => Math.abs(c - theirs[i])));
        if (diff >= out.diff) out = { diff, v, ours, theirs };
      }
      return out;
    });
    assert.ok(worst.diff <= 1, `at v = ${worst.v}: ours ${worst.ours}, Chromium's ${worst.theirs}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

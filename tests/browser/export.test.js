// SVG and PNG downloads hold the whole figure as the reader sees it, not
// only its drawings: the HTML parts (the soft dictionary's lookups, the "it"
// figure's sentence and read-out, the tempering legend, the values a matrix
// paints on its canvas) are in the SVG as text and in the PNG as pixels,
// under the strict CSP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { start, openAll, ready } from './harness.js';

let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

// figure -> [the HTML parts that must show, texts the SVG must hold]
const CASES = {
  'attention-soft-dictionary': [['.panel'], ['Soft lookup (attention)', 'Hard lookup (a JavaScript Map)', 'map.get(', 'largest weight: plum']],
  'attention-multi-head-it': [['.sentence', '.verdict', '.bars'], ['>didn’t<', '>because<', 'Read-out: it =', 'Margin', 'looks for nouns']],
  'attention-tempering': [['.key'], ['variance', 'entropy']],
  // a matrix painted on a canvas: its values are text in the SVG, as in an SVG drawing
  'attention-cross': [['figure.mat'], ['>0.95<', '>0.97<', '>Area<']],
};

// Runs in the page: for each part, the share of the PNG's pixels over it that differ from the PNG's background.
async function inked({ png, selectors, tag }) {
  const bitmap = await createImageBitmap(new Blob([new Uint8Array(png)], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(bitmap, 0, 0);
  const root = document.querySelector(tag).shadowRoot.firstElementChild;
  const origin = root.getBoundingClientRect();
  const scale = 2; // device pixels per CSS pixel; the figure sits inside a 12 px margin
  const bg = ctx.getImageData(1, 1, 1, 1).data;
  const parts = selectors.flatMap((sel) => [...root.querySelectorAll(sel)]).filter((el) => !el.closest('[data-kept]')).map((el) => { // (the parts shown)
    const r = el.getBoundingClientRect();
    const img = ctx.getImageData(Math.round((r.left - origin.left + 12) * scale), Math.round((r.top - origin.top + 12) * scale), Math.round(r.width * scale), Math.round(r.height * scale)).data;
    let differ = 0;
    for (let k = 0; k < img.length; k += 4) if (Math.abs(img[k] - bg[0]) + Math.abs(img[k + 1] - bg[1]) + Math.abs(img[k + 2] - bg[2]) > 60) differ++;
    return [el.className, differ / (img.length / 4)];
  });
  return { size: [bitmap.width, bitmap.height], expected: [Math.ceil(origin.width + 24) * 2, Math.ceil(origin.height + 24) * 2], parts };
}

test('SVG and PNG downloads show the HTML parts of a figure too', async () => {
  const { page, problems, context } = await openAll(server, '/web/index.html');
  for (const [tag, [selectors, texts]] of Object.entries(CASES)) {
    const el = page.locator(tag);
    await el.scrollIntoViewIfNeeded();
    const download = async (kind) => {
      const [d] = await Promise.all([page.waitForEvent('download'), el.getByRole('button', { name: kind, exact: true }).click()]);
      return readFile(await d.path());
    };
    const svg = (await download('SVG')).toString('utf8');
    for (const t of texts) assert.ok(svg.includes(t), `${tag}: the SVG lacks "${t}"`);
    const png = await download('PNG');
    const seen = await page.evaluate(inked, { png: [...png], selectors, tag });
    assert.deepEqual(seen.size, seen.expected, `${tag}: the PNG is the figure and its margin at twice their size`);
    for (const [name, share] of seen.parts) assert.ok(share > 0.02, `${tag}: "${name}" is blank in the PNG (${(100 * share).toFixed(1)}% of its pixels drawn)`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a download whose code cannot load says so above the figure, which stays as it was', async () => {
  // (export.js comes when a Download button is first pressed: here its file never does)
  const blocked = (url) => /\/export(-[A-Z0-9]+)?\.js$/.test(new URL(url).pathname);
  const { page, context } = await server.openFigure('attention-soft-dictionary', { prepare: (p) => p.route(blocked, (r) => r.abort()) });
  const el = await ready(page, 'attention-soft-dictionary');
  const before = await el.evaluate((e) => e.summary);
  await el.getByRole('button', { name: 'SVG', exact: true }).click();
  const alert = el.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /^The download could not be made: what makes the files did not load \(.+\)\.$/);
  assert.equal(await el.evaluate((e) => e.summary), before, 'the figure shows what it showed');
  await el.getByRole('alert').evaluate((p) => { p.dataset.first = ''; });
  await el.getByRole('button', { name: 'PNG', exact: true }).click();
  await page.waitForFunction(() => !('first' in document.querySelector('attention-soft-dictionary').shadowRoot.querySelector('[role=alert]').dataset)); // (the second press's)
  assert.equal(await el.getByRole('alert').count(), 1, 'said once, however often pressed');
  await context.close();
});

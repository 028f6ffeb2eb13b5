// attention-as-conv in headless Chromium, on a page of its own: its heads'
// weights sit in a closed <details>, which the figure leaves unpainted while
// it is closed (matrix-view.js). Opened after the temperature moved, they
// show the figure's present state: the same pixels as when painted while open.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, frames } from '../../browser/harness.js';

const TAG = 'attention-as-conv';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

// Runs in the page: the heads' canvases as 'WxH:hash' of their pixels.
function headPixels(tag) {
  const root = document.querySelector(tag).shadowRoot;
  const scratch = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  return [...root.querySelectorAll('details canvas')].map((c) => {
    if (!c.width) return 'none';
    Object.assign(scratch.canvas, { width: c.width, height: c.height });
    scratch.drawImage(c, 0, 0);
    let h = 0x811c9dc5;
    for (const w of new Uint32Array(scratch.getImageData(0, 0, c.width, c.height).data.buffer)) h = Math.imul(h ^ w, 0x01000193);
    return `${c.width}x${c.height}:${(h >>> 0).toString(16)}`;
  });
}

test('its heads\' weights, opened after the temperature moved, show the present temperature\'s', async () => {
  const { page, context } = await server.openFigure(TAG, { width: 1100, height: 900 });
  try {
    const el = await ready(page, TAG);
    const set = async (temperature) => { await el.evaluate((e, t) => e.setAttribute('temperature', t), temperature); await frames(page); };
    const open = async (yes) => { await el.evaluate((e, y) => { e.shadowRoot.querySelector('details').open = y; }, yes); await frames(page); };
    // painted while open, at 0.5 and at 2
    await open(true);
    await set('0.5');
    const half = await page.evaluate(headPixels, TAG);
    await set('2');
    const two = await page.evaluate(headPixels, TAG);
    assert.equal(half.length, 3);
    assert.ok(half.every((p, r) => p !== 'none' && p !== two[r]), 'the heads differ at 0.5 and at 2');
    // closed at 2, moved to 0.5 and opened: 0.5's
    await open(false);
    await set('0.5');
    await open(true);
    assert.deepEqual(await page.evaluate(headPixels, TAG), half);
  } finally {
    await context.close();
  }
});

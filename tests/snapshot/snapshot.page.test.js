// Every figure's picture (drawn in Node, bin/snapshot.js) against the live
// figure in headless Chromium, with the default attributes: the picture's
// description is the figure's own summary, and every number the picture
// prints is one the live figure shows (in its text, its canvases' drawn
// values, its controls or its summary). A figure that trains is compared
// with what it shows before Start (its summary), and then, woken without
// training, with its untrained model's numbers; a figure that measures,
// with everything but its timings (a picture holds none). A page that shows
// no picture loads none of dist/snapshots.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, frames } from '../browser/harness.js';
import { FIGURES } from '../../web/figures/registry.js';
import { relaxedSimdSupported } from '../../web/attention.js';
import { run, parseSvg, readPicture, numbersIn } from './helpers.js';

// Chromium runs the figures on the relaxed SIMD build; the pictures are
// drawn on the same (Node 20 needs a flag for it): in a near tie two builds
// may round two weights apart in the other order (multi-head-it's second
// word of head 2 is one of seven equal 2% weights).
const NODE_FLAGS = relaxedSimdSupported() ? [] : ['--experimental-wasm-relaxed-simd'];

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const TRAINING = new Set(['induction', 'tiny-gpt']);
const TIMED = new Set(['cost']); // its summary is about timings, which a picture never holds

// In the page: the figure's summary and everything it shows as text.
function live(tag) {
  const e = document.querySelector(tag);
  const texts = [e.summary];
  // each text node on its own line (textContent runs neighbouring labels together: "−32−16")
  const walker = document.createTreeWalker(e.shadowRoot, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  for (const c of e.shadowRoot.querySelectorAll('canvas')) for (const it of c.drawing?.items ?? []) if (it.kind === 'text') texts.push(it.text);
  for (const i of e.shadowRoot.querySelectorAll('input, [aria-valuetext], [aria-label]')) texts.push(i.value ?? '', i.getAttribute('aria-valuetext') ?? '', i.getAttribute('aria-label') ?? '');
  return { summary: e.summary, text: texts.join('\n') };
}

test('every figure\'s picture shows the numbers its live figure shows, and its summary', async () => {
  const failures = [];
  for (const { name, tag } of FIGURES) {
    const drawn = await run(['snapshot', name], { flags: NODE_FLAGS });
    assert.equal(drawn.code, 0, drawn.stderr);
    const picture = readPicture(parseSvg(drawn.stdout.toString()));
    const { page, problems, requests, context } = await server.openFigure(tag);
    try {
      const el = await ready(page, tag);
      await el.evaluate((e) => e.settled?.()); // (what it draws after its first drawing: efficient's error curve)
      if (TIMED.has(name)) await page.waitForFunction((t) => document.querySelector(t).summary !== '', tag, { timeout: 30000 });
      const first = await page.evaluate(live, tag);
      if (!TIMED.has(name)) assert.equal(picture.desc, first.summary, `${name}: the picture's description is the figure's summary`);
      let shown = first.text;
      if (TRAINING.has(name)) {
        // the model as the worker makes it, untrained: what the picture draws of it
        await el.evaluate((e) => e.wake());
        await page.waitForFunction((t) => {
          const e = document.querySelector(t);
          return e.localName === 'attention-induction' ? e.view && e.curve.length > 0 : e.written && e.attended;
        }, tag, { timeout: 60000 });
        await frames(page);
        shown += `\n${(await page.evaluate(live, tag)).text}`;
        assert.equal(await el.evaluate((e) => e.msg.step), 0, `${name}: still untrained`);
      }
      const have = new Set(numbersIn(shown.replace(/\u2212/g, '-')));
      const missing = [...new Set(picture.texts.flatMap((t) => numbersIn(t.replace(/\u2212/g, '-'))))].filter((n) => !have.has(n));
      if (missing.length) failures.push(`${name}: the picture prints ${missing.join(', ')}, which the live figure does not show`);
      assert.deepEqual(problems, [], name);
      assert.deepEqual(requests.filter((u) => /\/snapshots\//.test(u)), [], `${name}: a page without a picture loads none`);
    } finally {
      await context.close();
    }
  }
  assert.deepEqual(failures, []);
});

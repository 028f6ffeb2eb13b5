// figures.mjs: `npm run bench:figures`. How long a figure keeps the main
// thread after a reader moves one of its controls, in headless Chromium
// (Debian's). For each figure on the article page: 30 changes of its first
// control (a slider moved to a seeded random value, else the next option of a
// choice, else a switch flipped, else a stepper's next or previous step), each timed as the script of the change
// (event handlers) plus, in the next animation frame, the figure's render and
// the style recalculation and layout it causes (forced at the end of that
// frame). Paint and compositing are not included. Each figure is measured
// from 2 s after it is ready, once the page is idle: after the work a figure
// does in the background when it first appears. Prints p50 and p95 per
// figure in milliseconds and the 8 ms mark (a frame at 120 Hz).
//   --changes N   changes per figure (30)
//   --filter RE   only the figures whose tag matches
//   --json FILE   also write the results as JSON
//   --profile     also print where each figure's time goes: the functions
//                 with the most self time in a CPU profile of its changes
// The measuring figures (cost, efficient) measure in a Web Worker when they
// first appear: those sweeps are let finish before any figure is timed
// (their first controls, the largest N and the window, start none).
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, ALL_FIGURES } from '../tests/browser/harness.js';
import { machineInfo } from './lib/machine.mjs';

const args = process.argv.slice(2);
const value = (flag) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : null; };
const changes = Number(value('--changes') ?? 30);
const filter = value('--filter') ? new RegExp(value('--filter')) : null;
const jsonFile = value('--json');
const profile = args.includes('--profile');
const FIGURES = ALL_FIGURES.filter((t) => !filter || filter.test(t));
export const BUDGET_MS = 8;

/** Page side: make `count` changes to the figure's first control; -> ms per change. */
async function measure([tag, count]) {
  const el = document.querySelector(tag);
  el.scrollIntoView({ block: 'center' });
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  await frame(); await frame();
  const root = el.shadowRoot;
  const mine = (c) => !c.closest('.tools') && !c.disabled && c.checkVisibility();
  const range = [...root.querySelectorAll('input[type=range]')].find(mine);
  const radios = [...root.querySelectorAll('input[type=radio]')].filter(mine);
  const box = [...root.querySelectorAll('input[type=checkbox]')].find(mine);
  // a stepper: forward to the end, then back
  const [prev, next] = ['previous', 'next'].map((step) => root.querySelector(`.stepper button[data-step="${step}"]`));
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let control = '';
  const change = range ? (() => {
    control = `slider ${range.closest('.slider')?.querySelector('label')?.textContent ?? ''}`.trim();
    return () => {
      const [lo, hi] = [Number(range.min), Number(range.max)];
      range.value = String(lo + random() * (hi - lo));
      range.dispatchEvent(new Event('input', { bubbles: true }));
    };
  })() : radios.length > 1 ? (() => {
    control = `choice ${radios[0].closest('fieldset')?.querySelector('legend')?.textContent ?? ''}`.trim();
    let k = 0;
    return () => { const r = radios[(k = (k + 1) % radios.length)]; r.click(); };
  })() : box ? (() => { control = 'switch'; return () => box.click(); })()
    : next ? (() => { control = `button ${next.getAttribute('aria-label') ?? next.textContent}`; return () => (next.disabled ? prev : next).click(); })() : null;
  if (!change) return { control: 'none', times: [] };
  const times = [];
  for (let i = 0; i < count; i++) {
    let frameStart = 0;
    requestAnimationFrame(() => { frameStart = performance.now(); }); // runs before the figure's own frame callback
    const t0 = performance.now();
    change();
    const script = performance.now() - t0;
    const end = await new Promise((resolve) => requestAnimationFrame(() => {
      el.getBoundingClientRect(); // style and layout, forced now
      void document.body.offsetHeight;
      resolve(performance.now());
    }));
    times.push(script + (end - frameStart));
    await frame();
    await new Promise((r) => setTimeout(r, 20));
  }
  return { control, times };
}

/**
 * Page side: wait SETTLE_MS, then until the main thread has an idle period of
 * (nearly) the full 50 ms: a figure's preparation in the background
 * (tempering's products at every d_k, about a second) is done by then.
 */
const SETTLE_MS = 2000;
const settled = (ms) => new Promise((resolve) => setTimeout(() => {
  const check = (deadline) => (deadline.timeRemaining() >= 45 ? resolve() : requestIdleCallback(check));
  requestIdleCallback(check, { timeout: 5000 });
}, ms));

/** The `top` functions with the most self time in a CDP profile, as "name (file:line) ms". */
function hotspots({ nodes, samples, timeDeltas }, top = 8) {
  const self = new Map();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  samples.forEach((id, k) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = `${functionName || '(anonymous)'} (${url.split('/').pop() || 'native'}:${lineNumber + 1})`;
    self.set(where, (self.get(where) ?? 0) + (timeDeltas[k] ?? 0) / 1000);
  });
  return [...self].filter(([w]) => !/^\((idle|program|garbage collector)\)/.test(w))
    .sort((a, b) => b[1] - a[1]).slice(0, top).map(([w, ms]) => `${w} ${ms.toFixed(1)} ms`);
}

const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

const server = await serve({ port: 0 });
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const results = [];
const hot = [];
try {
  const page = await (await browser.newContext({ viewport: { width: 1100, height: 900 } })).newPage();
  page.on('pageerror', (e) => console.error(`page: ${e.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/web/index.html`);
  const cdp = profile ? await page.context().newCDPSession(page) : null;
  if (profile) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); }
  const m = machineInfo();
  console.log(`figures latency: ${changes} changes per figure, Chromium ${browser.version()}, ${m.cpu}, ${m.cores} cores`);
  console.log('script + render + style + layout from a control change to the end of the next frame (ms; paint not included)\n');
  console.log('| figure | control | p50 | p95 | max | p95 <= 8 ms |');
  console.log('| --- | --- | ---: | ---: | ---: | --- |');
  // the measuring figures measure in a worker when they first appear: let
  // those sweeps finish first, so that no figure is timed while one takes a core
  for (const tag of ['attention-cost', 'attention-efficient']) {
    await page.locator(tag).first().scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => { const e = document.querySelector(t); return e.hasAttribute('data-ready') && !e.worker; }, tag, { timeout: 300000 });
  }
  for (const tag of FIGURES) {
    const el = page.locator(tag).first();
    await el.scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => document.querySelector(t).hasAttribute('data-ready'), tag, { timeout: 60000 });
    await page.evaluate(settled, SETTLE_MS);
    await page.evaluate(measure, [tag, 3]); // warm-up
    if (profile) await cdp.send('Profiler.start');
    const { control, times } = await page.evaluate(measure, [tag, changes]);
    if (profile) hot.push([tag, hotspots((await cdp.send('Profiler.stop')).profile)]);
    const row = { tag, control, p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: Math.max(...times), times };
    results.push(row);
    const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '–');
    console.log(`| ${tag.replace('attention-', '')} | ${control} | ${f(row.p50)} | ${f(row.p95)} | ${f(row.max)} | ${row.p95 <= BUDGET_MS ? 'yes' : 'no'} |`);
  }
} finally {
  await browser.close();
  server.close();
}
for (const [tag, lines] of hot) console.log(`\n${tag}, self time over ${changes} changes:\n  ${lines.join('\n  ')}`);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results, null, 2));

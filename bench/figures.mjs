// figures.mjs: `npm run bench:figures`. How long a figure keeps the main
// thread after a reader moves one of its controls, and how long a page takes
// to show a figure, in headless Chromium (Debian's).
//
// Per change: for each figure and each kind of control it has (a slider moved
// to a seeded random value, a choice's next option, a switch flipped, a
// stepper's next or previous step, a matrix cell picked, a handle dragged by
// touch or mouse), `--changes` changes of its first control of that kind,
// each timed as the script of the change (event handlers) plus the next
// animation frame, from its first callback until it is painted (the
// figure's render, style, layout and paint: bench/lib/changes.mjs), and as
// the main thread's busy time over that span in a trace, the commit's wait
// for the compositor left out (bench/lib/busy.mjs). On the article page and on a one-figure page (the
// snippet a blogger pastes: scripts/figure-page.mjs). Each figure is measured
// from 2 s after it is ready, once the page is idle: after the work a figure
// does in the background when it first appears. Prints p50 and p95 per
// figure and kind in milliseconds, against 8 ms (a frame at 120 Hz) on the
// desktop and 16 ms on the phone; and first, the floor: a change that
// changes nothing, timed the same way (the measure's own script and an
// empty frame), what every row holds before its figure does anything.
//
// Loading: each one-figure page, `--loads` times in a fresh browser context
// (nothing cached): the time from navigation to the figure's picture painted
// (what the reader sees until the figure draws: the one-figure page is the
// snippet as docs/embedding.md writes it, the picture inside) and to the
// figure's first drawing (its data-ready), the requests made until then and
// the depth of their chain (round trips one after another: scripts/phone.mjs);
// and the article's first figure.
//
//   --phone             Lighthouse's mobile profile: 360 x 740 CSS px, DPR 2,
//                       touch, CPU slowed 4x (scripts/phone.mjs)
//   --network slow4g    loading over its slow 4G (150 ms per request, 1.6 Mbit/s)
//   --http2             serve over HTTPS with HTTP/2, as most blog hosts do (GitHub
//                       Pages, Netlify, Cloudflare): a page's requests go at once on
//                       one connection (over HTTP/1.1, the default, six at a time)
//   --pages LIST        article,figure (both, by default)
//   --changes N         changes per figure and kind (30)
//   --loads N           fresh loads per page (3); 0: no loading table
//   --filter RE         only the figures whose tag matches
//   --against DIR       the same, interleaved, for another checkout (its dist/
//                       built): before/after columns
//   --json FILE         also write the results as JSON
//   --write             also write the tables into bench/RESULTS.md (section
//                       figures, or figures-phone with --phone)
//   --profile           also print where each figure's time goes: the functions
//                       with the most self time in a CPU profile of its changes
//   --training          also train each figure that trains (induction, tiny-gpt)
//                       its default budget on a one-figure page: how long it
//                       takes (its worker included), and meanwhile how late the
//                       page's main thread answers (a timer due every 50 ms)
//                       and, where the figure has a control that leaves the
//                       run alone, how long a change of it takes
// The measuring figures (cost, efficient) measure in a Web Worker when they
// first appear: those sweeps are let finish before any figure is timed.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { figurePage } from '../scripts/figure-page.mjs';
import { picture } from '../scripts/article.mjs';
import { PHONE, emulate, watchRequests, touchDrag } from '../scripts/phone.mjs';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../scripts/chromium.mjs';
import { FIGURES } from '../web/figures/registry.js';
import { machineInfo } from './lib/machine.mjs';
import { cpuText, table, writeResults } from './lib/results.mjs';
import { selfSigned } from './lib/tls.mjs';
import { KINDS, NOTHING, SETTLE_MS, WARM_SEED, controlsOf, measure, quantile, settled } from './lib/changes.mjs';
import { busyParts, busyTimes, traced } from './lib/busy.mjs';

const args = process.argv.slice(2);
const value = (flag) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : null; };
const changes = Number(value('--changes') ?? 30);
const loads = Number(value('--loads') ?? 3);
const filter = value('--filter') ? new RegExp(value('--filter')) : null;
const jsonFile = value('--json');
const profile = args.includes('--profile');
const phone = args.includes('--phone');
const network = value('--network');
const pages = (value('--pages') ?? 'article,figure').split(',');
const against = value('--against');
const write = args.includes('--write');
const training = args.includes('--training');
const http2 = args.includes('--http2');
const TAGS = FIGURES.map((f) => f.tag).filter((t) => !filter || filter.test(t));
const CPU = phone ? 4 : 1;
export const BUDGET_MS = phone ? 16 : 8;
const WARM = 3; // changes before each timed run, of other values (WARM_SEED)
/**
 * Page side: time the next pointermove that reaches `tag`'s figure the way
 * measure() times a change: from the first listener (on window, capturing)
 * to the last (on window, bubbling), plus the next frame from a callback
 * requested in the first listener until it is painted. -> a promise of ms.
 */
function armDrag(tag) {
  const el = document.querySelector(tag);
  window.__drag = new Promise((resolve) => {
    let t0 = 0;
    let frameStart = 0;
    const first = (e) => {
      if (!e.composedPath().includes(el)) return;
      removeEventListener('pointermove', first, true);
      console.timeStamp('change');
      t0 = performance.now();
      requestAnimationFrame(() => { frameStart = performance.now(); });
    };
    const last = (e) => {
      if (!e.composedPath().includes(el)) return;
      removeEventListener('pointermove', last);
      const script = performance.now() - t0;
      requestAnimationFrame(() => { // (measure's end: once the frame is painted)
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => { console.timeStamp('painted'); resolve(script + (performance.now() - frameStart)); };
        port2.postMessage(0);
      });
    };
    addEventListener('pointermove', first, true);
    addEventListener('pointermove', last);
  });
}

/** Node side: `count` drag steps of the handle at `box.from` over `box` by touch (phone) or mouse, to points picked by `seed`; -> ms per step. */
async function measureDrag(page, cdp, tag, box, count, seed = 777) {
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const point = () => [box.x + (0.1 + 0.8 * random()) * box.width, box.y + (0.1 + 0.8 * random()) * box.height];
  const points = [box.from, ...Array.from({ length: count }, point)];
  const times = [];
  const step = async (move) => {
    await page.evaluate(armDrag, tag);
    await move();
    times.push(await page.evaluate(() => window.__drag));
    await page.evaluate(() => new Promise((r) => setTimeout(r, 20)));
  };
  if (phone) {
    // each move is dispatched, then timed (touchDrag awaits `each` after it): arm first
    await page.evaluate(armDrag, tag);
    await touchDrag(cdp, points, async () => {
      times.push(await page.evaluate(() => window.__drag));
      await page.evaluate(() => new Promise((r) => setTimeout(r, 20)));
      await page.evaluate(armDrag, tag);
    });
  } else {
    await page.mouse.move(...points[0]);
    await page.mouse.down();
    for (const p of points.slice(1)) await step(() => page.mouse.move(...p));
    await page.mouse.up();
  }
  return times;
}

/**
 * Page side: start `tag`'s training (its default budget) and, until it is
 * done, note how late a timer due every 50 ms runs, and time changes of its
 * first choice that is not a setting of the run (measure()); -> {ms, steps,
 * late: [ms], changes: [ms], control}.
 */
async function train(tag) {
  const el = document.querySelector(tag);
  const runs = Object.keys(el.runOptions());
  const group = [...el.shadowRoot.querySelectorAll('fieldset.choice')].find((f) => !runs.includes(f.dataset.prop) && f.checkVisibility());
  const late = [];
  let going = true;
  const probe = () => {
    const due = performance.now() + 50;
    setTimeout(() => {
      late.push(performance.now() - due);
      if (going) probe();
    }, 50);
  };
  const t0 = performance.now();
  el.toggle();
  probe();
  const changes = [];
  const done = () => el.msg.step >= el.msg.steps && !el.msg.running;
  while (!done()) {
    if (group) {
      const radios = [...group.querySelectorAll('input[type=radio]')];
      let k = radios.findIndex((r) => r.checked);
      let frameStart = 0;
      requestAnimationFrame(() => { frameStart = performance.now(); });
      const s0 = performance.now();
      radios[(k = (k + 1) % radios.length)].click();
      const script = performance.now() - s0;
      const end = await new Promise((resolve) => requestAnimationFrame(() => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => resolve(performance.now());
        port2.postMessage(0);
      }));
      changes.push(script + (end - frameStart));
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  going = false;
  return { ms: performance.now() - t0, steps: el.msg.steps, late, changes, control: group ? `choice ${group.querySelector('legend')?.textContent ?? ''}`.trim() : null };
}

/**
 * Page side, before the page's scripts: note when each figure first has
 * data-ready (performance.now()), and when the picture inside it (what it
 * shows until it draws) was painted, by Element Timing (pictures() names
 * each by its figure's tag); a picture its figure covered before it was
 * painted has no time.
 */
function noteReady() {
  window.__ready = {};
  window.__picture = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__picture[e.identifier] ??= e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  new MutationObserver((records) => {
    for (const { target: e } of records) {
      const t = e.localName;
      if (e.hasAttribute('data-ready') && !(t in window.__ready)) {
        window.__ready[t] = performance.now();
        console.debug(`figure-ready ${t}`);
      }
      if (e.hasAttribute('data-error')) console.debug(`figure-error ${t} ${e.shadowRoot?.textContent}`);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready', 'data-error'] });
}

// `html` with each figure's picture named for Element Timing (noteReady) by its figure's tag
const pictures = (html) => html.replace(/(<(attention-[\w-]+)[^>]*>\s*<figure\b[^>]*>\s*<img )/g, '$1elementtiming="$2" ');

/** The `top` functions with the most self time in a CDP profile, as "name (file:line) ms". */
function hotspots({ nodes, samples, timeDeltas }, top = Number(process.env.TOP ?? 8)) {
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

const median = (xs) => quantile(xs, 0.5);

// ---- the run -----------------------------------------------------------------

const here = fileURLToPath(new URL('..', import.meta.url));
const roots = [['this', here], ...(against ? [['against', resolve(against)]] : [])];
const servers = new Map();
const tls = http2 ? selfSigned() : undefined;
// each figure's one-figure page, served as the article is (over the emulated network): the snippet as
// docs/embedding.md writes it, the figure's picture inside (what the reader sees until it draws)
const onePath = (tag) => `/one/${tag.replace(/^attention-/, '')}.html`;
const onePages = new Map(TAGS.map((tag) => {
  const name = tag.replace(/^attention-/, '');
  const { width, height } = picture(name);
  const children = `<figure><img src="/dist/snapshots/${name}.svg" alt="${name}" width="${width}" height="${height}" loading="lazy"></figure>`;
  return [onePath(tag), { body: figurePage(tag, { children }), type: 'text/html; charset=utf-8' }];
}));
for (const [name, root] of roots) servers.set(name, await serve({ port: 0, root, gzip: true, tls, routes: onePages, html: pictures }));
const originOf = (name) => `${http2 ? 'https' : 'http'}://127.0.0.1:${servers.get(name).address().port}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
const version = browser.version();
const contextOptions = { ...(phone ? PHONE : { viewport: { width: 1100, height: 900 } }), ignoreHTTPSErrors: http2 };
const load0 = os.loadavg()[0];
const m = machineInfo();
const results = { latency: [], loading: [], training: [] };
const hot = [];
const f1 = (x) => (Number.isFinite(x) ? Number(x.toFixed(1)) : null);
const ms = (x) => (x === null ? '–' : x.toFixed(0)); // (a picture covered before it was painted has no time)

/** A fresh page on root `name` at `path` (`tag`'s one-figure page when given), emulated; -> {page, cdp, chain, context}. */
async function open(name, path, { tag, net = null, first = false } = {}) {
  if (tag) path = onePath(tag);
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page: ${e.message}`));
  await page.addInitScript(noteReady);
  // the article's first figure on screen from the start (at 360 px it is below the fold, and a figure starts near the viewport)
  if (first) await page.addInitScript(() => addEventListener('DOMContentLoaded', () => [...document.body.querySelectorAll('*')].find((e) => e.localName.startsWith('attention-'))?.scrollIntoView()));
  const origin = originOf(name);
  const cdp = await emulate(page, { cpu: CPU, network: net });
  const chain = watchRequests(cdp);
  const ready = readiness(page);
  await page.goto(`${origin}${path}`);
  return { page, cdp, chain, context, ready };
}

/**
 * `ready(tag)` for `page`: a promise of `tag`'s first drawing ('*': any
 * figure's), as noteReady says it in a console message; rejected if the
 * figure fails. Not a poll: evaluating in the page while it loads takes its
 * main thread (Playwright's script first compiled there, at 4x), about
 * 100 ms of a one-figure page's time to ready on the phone.
 */
function readiness(page) {
  const said = []; // [what, tag, text] in the order said
  const waiters = new Set();
  const check = (w) => {
    const hit = said.find(([, t]) => w.tag === '*' || t === w.tag);
    if (!hit) return;
    waiters.delete(w);
    clearTimeout(w.timer);
    if (hit[0] === 'figure-ready') w.resolve();
    else w.reject(new Error(`${hit[1]} failed: ${hit[2]}`));
  };
  page.on('console', (msg) => {
    const m = /^(figure-ready|figure-error) (\S+)(?: ([^]*))?$/.exec(msg.text());
    if (!m) return;
    said.push(m.slice(1));
    for (const w of [...waiters]) check(w);
  });
  return (tag) => new Promise((resolve, reject) => {
    const w = { tag, resolve, reject, timer: setTimeout(() => { waiters.delete(w); reject(new Error(`${tag}: not drawn after 120 s`)); }, 120_000) };
    waiters.add(w);
    check(w);
  });
}

/** Time every kind of control of `tag` on `page` (the figure is ready); -> rows. */
async function latencies(page, cdp, tag, where, root) {
  const el = page.locator(tag).first();
  await el.scrollIntoViewIfNeeded();
  await page.evaluate((t) => document.querySelector(t).scrollIntoView({ block: 'center' }), tag);
  await page.evaluate(settled, SETTLE_MS);
  const rows = [];
  const found = await page.evaluate(controlsOf, tag);
  // the floor, once per kind of page: a change that changes nothing, timed the same way
  const floor = !results.latency.some((r) => r.kind === NOTHING && r.where === where && r.root === root);
  if (floor) found[NOTHING] = 'nothing changed: the measure and an empty frame';
  for (const kind of [...(floor ? [NOTHING] : []), ...KINDS.filter((k) => k in found)]) {
    let page_ms; // each change as the page timed it (to its frame painted, idle and the commit's wait included)
    let events;
    if (kind === 'drag') {
      // the handle's centre, and the picture it moves over (its SVG, or its parent)
      const where = () => el.evaluate((e) => {
        const h = [...e.shadowRoot.querySelectorAll('*')].find((x) => getComputedStyle(x).touchAction === 'none' && x.checkVisibility());
        const over = h.closest('svg') ?? h.parentElement;
        over.scrollIntoView({ block: 'center' });
        const [a, b] = [h.getBoundingClientRect(), over.getBoundingClientRect()];
        return { from: [a.left + a.width / 2, a.top + a.height / 2], x: b.left, y: b.top, width: b.width, height: b.height };
      });
      // the warm-up runs inside the trace, and its changes are left out: the first change
      // traced carries the trace's own start-up (about 4 ms at 4x in the busy time, none in the page's)
      if (profile) await cdp.send('Profiler.start'); // (started inside a trace it records nothing: the warm-up is profiled too)
      ({ result: page_ms, events } = await traced(cdp, async () => {
        await measureDrag(page, cdp, tag, await where(), WARM, WARM_SEED);
        return measureDrag(page, cdp, tag, await where(), changes);
      }));
    } else {
      if (profile) await cdp.send('Profiler.start');
      ({ result: page_ms, events } = await traced(cdp, async () => {
        await page.evaluate(measure, [tag, kind, WARM, WARM_SEED]); // (as the drag's, above)
        return page.evaluate(measure, [tag, kind, changes]);
      }));
    }
    const times = busyTimes(events).slice(WARM);
    if (times.length !== page_ms.length) throw new Error(`${tag} ${kind}: ${page_ms.length} changes, ${times.length} marked in the trace`);
    if (profile) hot.push([`${tag} ${kind} (${where}, ${root})`, hotspots((await cdp.send('Profiler.stop')).profile)]);
    const split = busyParts(events).slice(WARM);
    const parts = Object.fromEntries(Object.keys(split[0] ?? {}).map((k) => [k, quantile(split.map((p) => p[k]), 0.5)]));
    const row = { tag, where, root, kind, control: found[kind], p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: Math.max(...times), times, page_ms, parts };
    rows.push(row);
    console.log(`  ${tag.replace('attention-', '')} ${where}${against ? ` (${root})` : ''}: ${row.control}: p50 ${f1(row.p50)} p95 ${f1(row.p95)} max ${f1(row.max)} ms`
      + ` (as the page saw it, to the frame painted: p50 ${f1(quantile(page_ms, 0.5))} p95 ${f1(quantile(page_ms, 0.95))};`
      + ` median ${Object.entries(parts).map(([k, v]) => `${k} ${f1(v)}`).join(', ')})`);
  }
  return rows;
}

// the measuring figures measure in a worker when they first appear: let those sweeps finish
const sweepsDone = async (page) => {
  for (const tag of ['attention-cost', 'attention-efficient']) {
    if (!(await page.locator(tag).count())) continue;
    await page.locator(tag).first().scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => { const e = document.querySelector(t); return e.hasAttribute('data-ready') && !e.worker; }, tag, { timeout: 600_000, polling: 200 });
  }
};

try {
  console.log(`figures: ${phone ? 'phone (360 x 740, DPR 2, touch, CPU 4x)' : 'desktop (1100 x 900)'}${network ? `, loading over ${network}` : ''}${http2 ? ' and HTTP/2' : ''}; `
    + `Chromium ${version}, ${cpuText(m)}, ${m.cores} cores, load average ${load0.toFixed(2)}`);
  if (loads > 0) {
    console.log(`\nloading: ${loads} fresh loads per page`);
    for (const tag of TAGS) {
      for (const [name] of roots) results.loading.push({ page: tag, root: name, picture: [], ready: [], depth: [], requests: [], bytes: [] });
      for (let k = 0; k < loads; k++) {
        for (const [name] of roots) {
          const { page, chain, context, ready: drawn } = await open(name, null, { tag, net: network });
          await drawn(tag);
          const [ready, origin, shown] = await page.evaluate((t) => [window.__ready[t], performance.timeOrigin, window.__picture[t] ?? null], tag);
          const until = origin + ready;
          const row = results.loading.find((r) => r.page === tag && r.root === name);
          row.picture.push(shown);
          row.ready.push(ready);
          row.depth.push(chain.depth(until));
          row.requests.push(chain.requests.filter((r) => r.sent <= until).length);
          row.bytes.push(chain.bytes(until));
          if (k === 0 && process.env.CHAIN) for (const [url, d, s, e] of chain.chain(until)) console.log(`    ${d} ${(s - origin).toFixed(0)}-${(e - origin).toFixed(0)} ${url}`);
          await context.close();
        }
      }
      for (const [name] of roots) {
        const r = results.loading.find((x) => x.page === tag && x.root === name);
        console.log(`  ${tag}${against ? ` (${name})` : ''}: picture ${r.picture.map(ms).join(', ')} ms; ready ${r.ready.map(ms).join(', ')} ms; depth ${r.depth.join(', ')}; requests ${r.requests.join(', ')}`);
      }
    }
    if (!filter) {
      // the article's first figure, as a reader opens it
      for (const [name] of roots) results.loading.push({ page: 'article, first figure', root: name, picture: [], ready: [], depth: [], requests: [], bytes: [], figure: null });
      for (let k = 0; k < loads; k++) {
        for (const [name] of roots) {
          const { page, chain, context, ready: drawn } = await open(name, '/web/index.html', { net: network, first: true });
          await drawn('*');
          const [[tag, ready], origin, pictures] = await page.evaluate(() => [Object.entries(window.__ready).sort((a, b) => a[1] - b[1])[0], performance.timeOrigin, window.__picture]);
          const row = results.loading.find((r) => r.page === 'article, first figure' && r.root === name);
          row.figure = tag;
          row.picture.push(pictures[tag] ?? null);
          row.ready.push(ready);
          row.depth.push(chain.depth(origin + ready));
          row.requests.push(chain.requests.filter((r) => r.sent <= origin + ready).length);
          row.bytes.push(chain.bytes(origin + ready));
          await context.close();
        }
      }
      for (const r of results.loading.filter((x) => x.page === 'article, first figure')) {
        console.log(`  article, first figure (${r.figure})${against ? ` (${r.root})` : ''}: picture ${r.picture.map(ms).join(', ')} ms; ready ${r.ready.map(ms).join(', ')} ms; depth ${r.depth.join(', ')}`);
      }
    }
  }

  if (changes > 0) {
    console.log(`\nper change: ${changes} changes per figure and kind of control (ms of the main thread: script, then the next frame's callbacks, style, layout and paint; bench/lib/busy.mjs)`);
    if (pages.includes('article')) {
      const opened = new Map();
      for (const [name] of roots) {
        const o = await open(name, '/web/index.html');
        if (profile) { await o.cdp.send('Profiler.enable'); await o.cdp.send('Profiler.setSamplingInterval', { interval: 100 }); }
        await sweepsDone(o.page);
        opened.set(name, o);
      }
      for (const tag of TAGS) {
        for (const [name] of roots) {
          const { page, cdp, ready } = opened.get(name);
          await page.locator(tag).first().scrollIntoViewIfNeeded();
          await ready(tag);
          results.latency.push(...await latencies(page, cdp, tag, 'article', name));
        }
      }
      for (const o of opened.values()) await o.context.close();
    }
    if (pages.includes('figure')) {
      for (const tag of TAGS) {
        for (const [name] of roots) {
          const { page, cdp, context, ready } = await open(name, null, { tag });
          if (profile) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); }
          await ready(tag);
          await sweepsDone(page);
          results.latency.push(...await latencies(page, cdp, tag, 'figure', name));
          await context.close();
        }
      }
    }
  }
  if (training) {
    console.log('\ntraining: each figure that trains, its default budget, on a one-figure page');
    for (const { tag } of FIGURES.filter((f) => f.worker && TAGS.includes(f.tag))) {
      for (const [name] of roots) {
        const { page, context, ready } = await open(name, null, { tag });
        await ready(tag);
        if (!(await page.evaluate((t) => typeof document.querySelector(t).toggle === 'function' && !!document.querySelector(t).constructor.props.steps, tag))) {
          await context.close();
          continue;
        }
        await page.evaluate(settled, 500);
        const r = await page.evaluate(train, tag);
        const row = { tag, root: name, ms: r.ms, steps: r.steps, late50: quantile(r.late, 0.5), late95: quantile(r.late, 0.95), lateMax: Math.max(...r.late),
          control: r.control, p50: r.changes.length ? quantile(r.changes, 0.5) : null, p95: r.changes.length ? quantile(r.changes, 0.95) : null };
        results.training.push(row);
        console.log(`  ${tag}${against ? ` (${name})` : ''}: ${r.steps} steps in ${(r.ms / 1000).toFixed(1)} s; a 50 ms timer late by ${f1(row.late50)} ms (p50), ${f1(row.late95)} ms (p95), ${f1(row.lateMax)} ms at most`
          + `${r.control ? `; ${r.control}: p50 ${f1(row.p50)} p95 ${f1(row.p95)} ms over ${r.changes.length} changes` : ''}`);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  for (const s of servers.values()) s.close();
}
for (const [what, lines] of hot) console.log(`\n${what}, self time over ${changes} changes and ${WARM} of warm-up:\n  ${lines.join('\n  ')}`);

// ---- tables ------------------------------------------------------------------

const short = (tag) => tag.replace('attention-', '');
const latencyTable = () => {
  const keys = [...new Map(results.latency.map((r) => [`${r.tag}|${r.kind}`, r])).values()];
  const cell = (tag, kind, where, root, q) => f1(results.latency.find((r) => r.tag === tag && r.kind === kind && r.where === where && r.root === root)?.[q]);
  const wheres = pages.filter((p) => results.latency.some((r) => r.where === p));
  const head = ['figure', 'control'];
  for (const w of wheres) {
    const name = w === 'article' ? 'article' : 'one figure';
    if (against) head.push(`${name} p95 before`, `${name} p95 after`);
    else head.push(`${name} p50`, `${name} p95`);
  }
  head.push(`p95 <= ${BUDGET_MS} ms`);
  const rows = keys.map(({ tag, kind, control }) => {
    const cells = [kind === NOTHING ? '(none)' : short(tag), control];
    for (const w of wheres) {
      if (against) cells.push(cell(tag, kind, w, 'against', 'p95'), cell(tag, kind, w, 'this', 'p95'));
      else cells.push(cell(tag, kind, w, 'this', 'p50'), cell(tag, kind, w, 'this', 'p95'));
    }
    const worst = Math.max(...results.latency.filter((r) => r.tag === tag && r.kind === kind && r.root === 'this').map((r) => r.p95));
    cells.push(worst <= BUDGET_MS ? 'yes' : 'no');
    return cells;
  });
  return table(head, rows, head.map((_, i) => (i < 2 || i === head.length - 1 ? 'l' : 'r')));
};
const loadingTable = () => {
  const pagesSeen = [...new Set(results.loading.map((r) => r.page))];
  const of = (page, root) => results.loading.find((r) => r.page === page && r.root === root);
  const head = against ? ['page', 'picture before, ms', 'picture after, ms', 'ready before, ms', 'ready after, ms', 'depth before', 'depth after', 'requests after', 'KB after']
    : ['page', 'picture, ms (median)', 'ready, ms (median)', 'each, ms', 'chain depth', 'requests', 'KB'];
  // the picture's median over the loads that painted it
  const shown = (r) => { const t = r.picture.filter((x) => x !== null); return t.length ? Math.round(median(t)) : '–'; };
  const rows = pagesSeen.map((page) => {
    const a = of(page, 'this');
    const label = a.figure ? `${page} (${short(a.figure)})` : short(page);
    if (against) {
      const b = of(page, 'against');
      return [label, shown(b), shown(a), Math.round(median(b.ready)), Math.round(median(a.ready)), median(b.depth), median(a.depth), median(a.requests), f1(median(a.bytes) / 1000)];
    }
    return [label, shown(a), Math.round(median(a.ready)), a.ready.map((x) => Math.round(x)).join(', '), median(a.depth), median(a.requests), f1(median(a.bytes) / 1000)];
  });
  return table(head, rows);
};

// (with --against, a row before and a row after per figure)
const trainingTable = () => table(['figure', 'steps', 'trained in, s', 'timer late, ms (p50)', 'timer late, ms (p95)', 'at most, ms', 'control meanwhile', 'p50, ms', 'p95, ms'],
  results.training.filter((r) => against || r.root === 'this').map((r) => [`${short(r.tag)}${against ? (r.root === 'this' ? ' (after)' : ' (before)') : ''}`,
    r.steps, Number((r.ms / 1000).toFixed(1)), f1(r.late50), f1(r.late95), f1(r.lateMax), r.control ?? '–', f1(r.p50), f1(r.p95)]));

const tables = [];
if (results.loading.length) tables.push(`### Time to the first drawing\n\n${loadingTable()}`);
if (results.latency.length) tables.push(`### Per control change\n\n${latencyTable()}`);
if (results.training.length) tables.push(`### Training on the page\n\n${trainingTable()}`);
console.log(`\n${tables.join('\n\n')}`);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ phone, network, changes, loads, load: load0, cpu: m.cpuId, results }, null, 2));
if (write) {
  const profileText = phone ? 'Lighthouse\'s mobile profile in Chromium: 360 x 740 CSS px at DPR 2, touch, the CPU slowed 4x (`Emulation.setCPUThrottlingRate`)'
    : 'Chromium at 1100 x 900 CSS px, the CPU as it is';
  const body = [
    (`${profileText}${network ? `; loading over ${network} (150 ms per request, 1.6 Mbit/s down)` : ''}${http2 ? ', served over HTTPS and HTTP/2' : ', served over HTTP/1.1'}. `
    + (results.loading.length ? `Loading: ${loads} fresh loads of each one-figure page (the snippet as docs/embedding.md writes it: the bundle's script and one element with the figure's picture inside) and of the article; `
      + 'picture is when the picture inside the figure, what a reader sees until the figure draws, was painted (Element Timing; "–" when the figure covered it first); ready is the figure\'s first drawing '
      + '(both from navigation), depth the longest chain of requests that waited on one another before it (the document is 1). '
      + 'Each fresh load is a new window; the browser\'s own omnibox popup, a page it loads in every new window, is left out (scripts/chromium.mjs): a reader\'s browser has its UI running already. ' : '')
    + (results.latency.length ? `Per change: ${changes} changes per figure and kind of control, each the main thread's time for it from a trace (\`bench/lib/busy.mjs\`): its script, then the next frame's callbacks, style, layout and paint, and any task between; not idle time, nor the commit's wait for the compositor, which rasterises in software here where a phone uses its GPU. The first row is the floor: a change that changes nothing, timed the same way (the measure's own script and an empty frame, on the page of the first figure).` : '')
    + `${against ? ` Before: ${against}, interleaved with this checkout in one run.` : ''}`).trimEnd(),
    ...tables,
  ].join('\n\n');
  const command = `npm run bench:figures -- ${args.filter((a, i) => a !== '--write' && a !== '--json' && args[i - 1] !== '--json').join(' ')}`.trim();
  // (over HTTP/2 a section of its own, beside the HTTP/1.1 one)
  const section = `${phone ? 'figures-phone' : 'figures'}${http2 ? '-http2' : ''}`;
  writeResults(section, {
    title: `${phone ? 'The figures on a phone' : 'The figures on the desktop'}${http2 ? ', served over HTTP/2' : ''}`, command: `${command} --write`, browser: version, load: load0, body,
  });
  console.log(`\nwritten to bench/RESULTS.md (${section})`);
}

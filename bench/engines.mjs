// engines.mjs: `npm run bench:engines`. Each figure's controls timed in the
// three engines the browser tests run in (Chromium, Firefox, WebKit: the
// tests' drivers, tests/browser/drivers/), on its one-figure page at
// 1100 x 900, the CPU as it is (Firefox and WebKit cannot slow it down as
// Chromium's phone profile does: bench/figures.mjs --phone): per kind of
// control, the figure's first one, changed `--changes` times by the page-side
// code bench/figures.mjs uses (bench/lib/changes.mjs: its script plus the
// next frame's style and layout). Drags are bench/figures.mjs's alone (they
// need the engine's own input events).
//   --engines LIST   chromium,firefox,webkit (all three, by default)
//   --changes N      changes per figure and kind of control (20)
//   --filter RE      only the figures whose tag matches
//   --write          also write the table to bench/RESULTS.md (section figures-engines)
// Each engine's timer resolution is measured and printed: Firefox and WebKit
// round performance.now() more coarsely than Chromium on a page that is not
// cross-origin isolated.
import { launch, ENGINES } from '../tests/browser/drivers/index.js';
import { serveTests } from '../tests/browser/drivers/server.js';
import { figurePage } from '../scripts/figure-page.mjs';
import { FIGURES } from '../web/figures/registry.js';
import { machineInfo } from './lib/machine.mjs';
import { cpuText, table, writeResults } from './lib/results.mjs';
import { KINDS, WARM_SEED, controlsOf, measure, quantile } from './lib/changes.mjs';
import os from 'node:os';

const args = process.argv.slice(2);
const value = (flag) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : null; };
const engines = (value('--engines') ?? ENGINES.join(',')).split(',');
for (const e of engines) if (!ENGINES.includes(e)) throw new RangeError(`--engines: no engine '${e}' (engines: ${ENGINES.join(', ')})`);
const changes = Number(value('--changes') ?? 20);
const filter = value('--filter') ? new RegExp(value('--filter')) : null;
const write = args.includes('--write');
if (write && filter) throw new Error('--write records full runs only: not with --filter');
const TAGS = FIGURES.map((f) => f.tag).filter((t) => !filter || filter.test(t));
const BUDGET_MS = 8; // a desktop's frame with room to spare (a phone's 16 ms at a 4x slower CPU is ~4 ms here)
const DRAWN = KINDS.filter((k) => k !== 'drag');

/** Page side: the smallest step performance.now() takes, in ms. */
function resolution() {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

/** Page side: until `tag` has drawn (data-ready), or throws its error; then a quiet moment. */
async function ready(tag) {
  const until = performance.now() + 60_000;
  for (;;) {
    const e = document.querySelector(tag);
    if (e?.hasAttribute('data-error')) throw new Error(`${tag} failed: ${e.shadowRoot.textContent}`);
    if (e?.hasAttribute('data-ready') && !e.worker) break; // (a measuring figure: its first sweep done)
    if (performance.now() > until) throw new Error(`${tag} did not draw within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  document.querySelector(tag).scrollIntoView({ block: 'center' });
  await new Promise((r) => setTimeout(r, 1500)); // (a figure's preparation in the background)
  return true;
}

const server = await serveTests();
const rows = new Map(); // `${tag} ${kind}` -> {tag, kind, control, [engine]: {p50, p95}}
const versions = {};
const resolutions = {};
const load0 = os.loadavg()[0];
const m = machineInfo();
const f1 = (x) => Number(x.toFixed(1));
console.log(`figures in ${engines.join(', ')}: one-figure pages at 1100 x 900, ${changes} changes per control; ${cpuText(m)}, ${m.cores} cores, load average ${load0.toFixed(2)}`);
try {
  for (const engine of engines) {
    const browser = await launch(engine);
    versions[engine] = browser.version;
    try {
      for (const tag of TAGS) {
        server.fake(`/one-${tag}.html`, figurePage(tag));
        const page = await browser.open(server.url(`/one-${tag}.html`), { width: 1100, height: 900 });
        try {
          await page.evaluate(ready, tag);
          resolutions[engine] ??= await page.evaluate(resolution);
          const found = await page.evaluate(controlsOf, tag);
          for (const kind of DRAWN.filter((k) => k in found)) {
            await page.evaluate(measure, [tag, kind, 3, WARM_SEED]); // warm-up
            const times = await page.evaluate(measure, [tag, kind, changes]);
            const key = `${tag} ${kind}`;
            if (!rows.has(key)) rows.set(key, { tag, kind, control: found[kind] });
            rows.get(key)[engine] = { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
            console.log(`  ${engine} ${tag.replace('attention-', '')}: ${found[kind]}: p50 ${f1(quantile(times, 0.5))} p95 ${f1(quantile(times, 0.95))} ms`);
          }
        } finally {
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}

const order = (r) => [TAGS.indexOf(r.tag), KINDS.indexOf(r.kind)];
const sorted = [...rows.values()].sort((a, b) => { const [x, y] = [order(a), order(b)]; return x[0] - y[0] || x[1] - y[1]; });
const head = ['figure', 'control', ...engines.flatMap((e) => [`${e} p50, ms`, `${e} p95, ms`]), `p95 within ${BUDGET_MS} ms in all`];
const body = sorted.map((r) => [r.tag.replace('attention-', ''), r.control,
  ...engines.flatMap((e) => (r[e] ? [f1(r[e].p50), f1(r[e].p95)] : [null, null])),
  engines.every((e) => r[e] && r[e].p95 <= BUDGET_MS) ? 'yes' : 'no']);
const text = table(head, body, head.map((_, i) => (i < 2 || i === head.length - 1 ? 'l' : 'r')));
const within = (e) => sorted.filter((r) => r[e] && r[e].p95 <= BUDGET_MS).length;
const summary = engines.map((e) => `${e} ${within(e)} of ${sorted.filter((r) => r[e]).length}`).join(', ');
console.log(`\n${text}\n\np95 within ${BUDGET_MS} ms: ${summary}`);
if (write) {
  const engineText = engines.map((e) => `${e} ${versions[e]} (timer steps of ${resolutions[e] < 0.05 ? 'under 0.05' : f1(resolutions[e])} ms)`).join(', ');
  writeResults('figures-engines', {
    title: 'The figures in three engines',
    command: 'npm run bench:engines -- --write',
    browser: `${versions.chromium ?? '–'} (and ${engines.filter((e) => e !== 'chromium').map((e) => `${e} ${versions[e]}`).join(', ')})`,
    load: load0,
    body: `One-figure pages at 1100 x 900 CSS px in ${engineText}, through the browser tests' drivers; the CPU as it is. `
      + `Per change: ${changes} changes of each figure's first control of each kind, each its script plus the next frame until it is painted `
      + `(style, layout and paint), as \`npm run bench:figures\` times them in Chromium; drags there only. p95 within ${BUDGET_MS} ms: ${summary}.\n\n${text}`,
  });
  console.log('\nwritten to bench/RESULTS.md (figures-engines)');
}

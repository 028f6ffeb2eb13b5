// efficient.mjs: the bench's "recent advances" section (issue 13). At
// N = 4,096 .. 262,144, d = 64, self-attention on the seeded inputs of
// inputs.mjs: full fused attention, sliding-window attention (w = 128 and
// 512) and Performer linear attention (256 features, plain and causal), each
// with its time, the wasm memory its call used, and its error against exact
// float64 attention on sampled rows. Then, at N = 1,024, the same mechanisms
// in ruvector-attention-wasm (npm), time and error.
//   node bench/sections/efficient.mjs [--quick] [--full-262k]
//   node bench/run.mjs --only efficient     (the same, from the bench)
//   node bench/browser.mjs --only efficient (the same, in a Chromium page)
// Full attention at N = 262,144 (4 N^2 d = 17.6 TFLOP) takes minutes: it runs
// with --full-262k only; without, its row says so and gives an estimate,
// marked as one, from the measured N = 65,536 rate.
import { loadAttention } from '../../web/attention.js';
import { sdpaInputs } from '../lib/inputs.mjs';
import { median } from '../lib/timing.mjs';

const D = 64;
const FEATURES = 256;

const MECHANISMS = [
  { id: 'full', label: 'full (fused)', options: { weights: false } },
  { id: 'w128', label: 'window 128', options: { weights: false, window: 128 } },
  { id: 'w512', label: 'window 512', options: { weights: false, window: 512 } },
  { id: 'linear', label: `linear, ${FEATURES} features`, linear: { features: FEATURES, seed: 1 } },
  { id: 'linear-causal', label: `linear causal, ${FEATURES} f.`, linear: { features: FEATURES, seed: 1, causal: true } },
];

// ---- exact references on sampled rows (float64) ---------------------------

/** Row i of softmax(Q K^T / sqrt(d) + mask) V over the keys `visible(j)` allows. */
function exactRow(x, i, visible) {
  const { N, d, Q, K, V } = x;
  const s = 1 / Math.sqrt(d);
  const scores = new Float64Array(N).fill(-Infinity);
  let max = -Infinity;
  for (let j = 0; j < N; j++) {
    if (!visible(j)) continue;
    let dot = 0;
    for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
    scores[j] = s * dot;
    max = Math.max(max, scores[j]);
  }
  const out = new Float64Array(d);
  let sum = 0;
  for (let j = 0; j < N; j++) {
    if (scores[j] === -Infinity) continue;
    const w = Math.exp(scores[j] - max);
    sum += w;
    for (let c = 0; c < d; c++) out[c] += w * V[j * d + c];
  }
  return out.map((v) => v / sum);
}

/** The keys query i sees in what each mechanism computes or estimates: all, j <= i (causal), or its window. */
function visibility(options, i) {
  if (options?.causal) return (j) => j <= i;
  if (options?.window === undefined) return () => true;
  const g = new Set(options.globalTokens ?? []);
  return (j) => Math.abs(i - j) <= options.window || g.has(i) || g.has(j);
}

/** RMS error over rows, absolute and relative to the exact rows' RMS. */
function errors(rowsOf, exactRows) {
  let e = 0, n = 0, count = 0;
  exactRows.forEach(({ i, row }) => {
    const got = rowsOf(i);
    row.forEach((v, c) => { e += (got[c] - v) ** 2; n += v * v; count++; });
  });
  return { rms: Math.sqrt(e / count), rel: Math.sqrt(e / n) };
}

const sampleRows = (N, count) => Array.from({ length: count }, (_, k) => Math.round((k * (N - 1)) / (count - 1)));

// ---- timing -----------------------------------------------------------------

/** Median ms of fn over about budgetMs (at least one run, at most maxRuns), after a warm-up when calls are short. */
function time(fn, { budgetMs = 1500, maxRuns = 7 } = {}) {
  let t = performance.now();
  let result = fn();
  const first = performance.now() - t;
  if (first > 10000) return { ms: first, runs: 1, result };
  const samples = [];
  const start = performance.now();
  while (samples.length < maxRuns && (samples.length === 0 || performance.now() - start < budgetMs)) {
    t = performance.now();
    result = fn();
    samples.push(performance.now() - t);
  }
  return { ms: median(samples), runs: samples.length, result };
}

// ---- this project -----------------------------------------------------------

function runOurs(attn, mech, x) {
  const M = (data) => ({ rows: x.N, cols: x.d, data });
  const [Q, K, V] = [M(x.Q), M(x.K), M(x.V)];
  const call = mech.linear ? () => attn.linearAttention(Q, K, V, mech.linear) : () => attn.attention(Q, K, V, mech.options);
  attn.memoryPeak();
  const t = time(call);
  return { ...t, peakBytes: attn.memoryPeak(), output: t.result.output.data };
}

// ---- ruvector-attention-wasm ---------------------------------------------------

/** Its wasm-bindgen module, initialised from its .wasm bytes: read from
 *  node_modules in Node, fetched in a page (browser.html maps the name). */
async function loadRuvector() {
  const main = new URL(import.meta.resolve('ruvector-attention-wasm'));
  const bytes = async (name) => {
    const url = new URL(name, main);
    if (url.protocol === 'file:') return (await import('node:fs')).readFileSync(url);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const rv = await import(main.href);
  rv.initSync({ module: await bytes('ruvector_attention_wasm_bg.wasm') });
  const pkg = JSON.parse(new TextDecoder().decode(await bytes('package.json')));
  return { rv, version: pkg.version };
}

const rowsOf = (data, N, d) => Array.from({ length: N }, (_, i) => data.subarray(i * d, (i + 1) * d));

/**
 * ruvector's LocalGlobal takes one query and a list of keys per call and
 * places the query at the middle of that list, with its own window and the
 * list's first keys global. So that it computes exactly our window w with
 * global token 0, each query gets the key list [k_0, keys of its band] and a
 * window wider than the list; the global query row 0 gets every key. Every
 * query is timed: one pass, its total.
 */
function ruvectorLocalGlobal(rv, x, w) {
  const { N, d } = x;
  const [Q, K, V] = [x.Q, x.K, x.V].map((a) => rowsOf(a, N, d));
  const mech = new rv.WasmLocalGlobalAttention(d, 4 * (2 * w + 2), 1);
  const out = new Float32Array(N * d);
  const t = performance.now();
  for (let i = 0; i < N; i++) {
    const lo = Math.max(1, i - w), hi = Math.min(N, i + w + 1);
    const ks = i === 0 ? K : [K[0], ...K.slice(lo, hi)];
    const vs = i === 0 ? V : [V[0], ...V.slice(lo, hi)];
    out.set(mech.compute(Q[i], ks, vs), i * d);
  }
  const ms = performance.now() - t;
  mech.free();
  return { ms, output: out, note: 'all queries timed' };
}

/**
 * ruvector's Linear (Performer-style, its own fixed random features) takes
 * one query and all keys per call, so each call costs O(N m d): N calls
 * would take minutes. `count` evenly spaced queries are timed and the total
 * is their median times N, an extrapolation, said so in the table.
 */
function ruvectorLinear(rv, x, features, count) {
  const { N, d } = x;
  const [Q, K, V] = [x.Q, x.K, x.V].map((a) => rowsOf(a, N, d));
  const mech = new rv.WasmLinearAttention(d, features);
  const rows = sampleRows(N, count);
  const outRows = new Map();
  const samples = rows.map((i) => {
    const t = performance.now();
    outRows.set(i, mech.compute(Q[i], K, V));
    return performance.now() - t;
  });
  mech.free();
  return { ms: median(samples) * N, outRows, rows, note: `${count} of ${N} queries timed; total = median x ${N} (extrapolated)` };
}

// ---- the section ------------------------------------------------------------------

const stderr = (text) => process.stderr.write(text);

/** The section's rows and peers (plain data); `progress(text)` reports each row. */
export async function runEfficient({ quick = false, full262k = false, progress = stderr } = {}) {
  const attn = await loadAttention({ build: 'simd' }); // the SIMD build, as before relaxed existed (npm run bench gives Node the relaxed flag)
  const sizes = quick ? [4096, 16384] : [4096, 16384, 32768, 65536, 262144];
  const rows = [];
  const fullRate = {}; // GFLOP/s of full attention per N, for the 262k estimate
  for (const N of sizes) {
    const x = sdpaInputs({ N, d: D });
    const samples = sampleRows(N, 16);
    for (const mech of MECHANISMS) {
      const row = { N, mechanism: mech.label, id: mech.id };
      rows.push(row);
      if (mech.id === 'full' && N === 262144 && !full262k) {
        const rate = fullRate[65536];
        row.na = 'not run by default (4 N^2 d = 17.6 TFLOP; pass --full-262k)' +
          (rate ? `; estimate, not measured: ~${(4 * N * N * D / rate / 60).toFixed(0)} min at the N = 65,536 rate` : '');
        continue;
      }
      const t0 = performance.now();
      const r = runOurs(attn, mech, x);
      if (mech.id === 'full') fullRate[N] = (4 * N * N * D) / r.ms * 1e3;
      const exact = samples.map((i) => ({ i, row: exactRow(x, i, visibility(mech.options ?? mech.linear, i)) }));
      Object.assign(row, {
        ms: r.ms, runs: r.runs, peakMiB: r.peakBytes / 2 ** 20,
        err: errors((i) => r.output.subarray(i * D, (i + 1) * D), exact),
        against: mech.linear ? `exact softmax${mech.linear.causal ? ', causal' : ''}` : mech.id === 'full' ? 'exact' : 'exact window',
      });
      progress(`  efficient: N=${N} ${mech.label}: ${((performance.now() - t0) / 1e3).toFixed(1)} s\n`);
    }
    for (const row of rows.filter((r) => r.N === N && !r.na)) {
      const full = rows.find((r) => r.N === N && r.id === 'full' && !r.na);
      row.vsFull = full ? full.ms / row.ms : null;
    }
  }
  const peers = await comparePeers(attn, quick);
  return { rows, peers };
}

/** At N = 1,024: ours and ruvector on window 128 + global token 0, and on linear attention with 256 features. */
async function comparePeers(attn, quick) {
  const N = 1024;
  const x = sdpaInputs({ N, d: D });
  const all = Array.from({ length: N }, (_, i) => i);
  let rv;
  try {
    rv = await loadRuvector();
  } catch (e) {
    return { N, unavailable: `ruvector-attention-wasm failed to load: ${e.message}` };
  }
  const out = { N, version: rv.version, pairs: [] };
  // Window 128 with global token 0: both exact mechanisms, compared with exact float64 on every row.
  const windowOpts = { weights: false, window: 128, globalTokens: [0] };
  const exactW = all.map((i) => ({ i, row: exactRow(x, i, visibility(windowOpts, i)) }));
  const oursW = runOurs(attn, { options: windowOpts }, x);
  const theirsW = ruvectorLocalGlobal(rv.rv, x, 128);
  out.pairs.push({
    mechanism: 'window 128 + global token 0', against: 'exact window, all rows',
    ours: { ms: oursW.ms, err: errors((i) => oursW.output.subarray(i * D, (i + 1) * D), exactW) },
    theirs: { ms: theirsW.ms, err: errors((i) => theirsW.output.subarray(i * D, (i + 1) * D), exactW), note: theirsW.note },
  });
  // Linear attention with 256 features: both estimate softmax attention.
  const theirsL = ruvectorLinear(rv.rv, x, FEATURES, quick ? 4 : 32);
  const exactL = theirsL.rows.map((i) => ({ i, row: exactRow(x, i, () => true) }));
  const oursL = runOurs(attn, { linear: { features: FEATURES, seed: 1 } }, x);
  out.pairs.push({
    mechanism: `linear, ${FEATURES} features`, against: `exact softmax, the ${theirsL.rows.length} timed rows`,
    ours: { ms: oursL.ms, err: errors((i) => oursL.output.subarray(i * D, (i + 1) * D), exactL) },
    theirs: { ms: theirsL.ms, err: errors((i) => theirsL.outRows.get(i), exactL), note: theirsL.note },
  });
  return out;
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));

export function printEfficient({ rows, peers }) {
  console.log(`\nrecent advances (issue 13): self-attention, d = ${D}, inputs uniform in [-1, 1] (inputs.mjs), SIMD build;`);
  console.log('median ms (runs); memory = the most wasm memory the call used (inputs, output, workspace: attn.memoryPeak());');
  console.log('rms err = RMS of (result - exact float64) on 16 sampled rows; rel = that over the exact rows\' RMS');
  console.log('(softmax over thousands of random keys averages V toward 0, so rel is large for an estimate)\n');
  const head = ['N'.padStart(7), 'mechanism'.padEnd(26), 'median ms'.padStart(10), 'runs'.padStart(5),
    'vs full'.padStart(8), 'memory'.padStart(11), 'rms err'.padStart(9), 'rel'.padStart(8), '  against'].join(' ');
  console.log(head);
  console.log('-'.repeat(head.length));
  let last = null;
  for (const r of rows) {
    const n = r.N === last ? '' : r.N.toLocaleString('en-US');
    last = r.N;
    const left = [n.padStart(7), r.mechanism.padEnd(26)].join(' ');
    if (r.na) {
      console.log(`${left} ${r.na}`);
      continue;
    }
    console.log([left, fmt(r.ms).padStart(10), String(r.runs).padStart(5),
      (r.vsFull ? `${r.vsFull.toFixed(1)}x` : '').padStart(8), `${r.peakMiB.toFixed(1)} MiB`.padStart(11),
      r.err.rms.toExponential(1).padStart(9), r.err.rel.toExponential(1).padStart(8), `  ${r.against}`].join(' '));
  }
  if (peers.unavailable) {
    console.log(`\nruvector-attention-wasm: n/a (${peers.unavailable})`);
    return;
  }
  console.log(`\nN = ${peers.N.toLocaleString('en-US')}, d = ${D}: this project against ruvector-attention-wasm ${peers.version} (npm) on its own mechanisms;`);
  console.log('its API takes one query per call (the calls and copies are part of its time); err as above\n');
  const head2 = ['mechanism'.padEnd(28), 'ours ms'.padStart(9), 'ours rms err'.padStart(13), 'ruvector ms'.padStart(12),
    'ruvector rms err'.padStart(17), 'ratio'.padStart(7), '  err against; ruvector timing'].join(' ');
  console.log(head2);
  console.log('-'.repeat(head2.length));
  for (const p of peers.pairs) {
    console.log([p.mechanism.padEnd(28), fmt(p.ours.ms).padStart(9), p.ours.err.rms.toExponential(1).padStart(13),
      fmt(p.theirs.ms).padStart(12), p.theirs.err.rms.toExponential(1).padStart(17),
      `${(p.theirs.ms / p.ours.ms).toFixed(0)}x`.padStart(7), `  ${p.against}; ${p.theirs.note}`].join(' '));
  }
}

/** Results that mean this project is wrong (never time): an exact mechanism off by more than 1e-4 relative. */
export function efficientProblems({ rows }) {
  return rows.filter((r) => !r.na && !r.id.startsWith('linear') && !(r.err.rel <= 1e-4))
    .map((r) => `recent advances, N = ${r.N}, ${r.mechanism}: relative error ${r.err.rel} > 1e-4`);
}

const { pathToFileURL } = globalThis.process?.argv?.[1] ? await import('node:url') : {};
if (pathToFileURL && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const result = await runEfficient({ quick: args.includes('--quick'), full262k: args.includes('--full-262k') });
  printEfficient(result);
  const found = efficientProblems(result);
  if (found.length) {
    console.error(`\nbench: ${found.length} problem(s):\n  ${found.join('\n  ')}`);
    process.exitCode = 1;
  }
}

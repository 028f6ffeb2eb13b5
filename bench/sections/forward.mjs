// forward.mjs: the forward section's rows, shared by `npm run bench` (Node,
// run.mjs) and the browser bench (browser-page.mjs, in Chromium): load every
// engine, time every engine on one config interleaved, ratios, problems.
import { ENGINES, BASELINE } from '../engines/engines.mjs';
import { flops, label } from '../lib/configs.mjs';
import { sdpaInputs, mhaInputs } from '../lib/inputs.mjs';
import { reference, maxAbsError } from '../lib/accuracy.mjs';
import { interleave } from '../lib/timing.mjs';
import { checkStatus, wasmArena } from '../lib/in-wasm.mjs';
import { TILES } from '../../web/api/tiles.js';

export const labels = Object.fromEntries(ENGINES.map((e) => [e.id, e.label]));
export const errorText = (e) => String(e?.message ?? e).split('\n')[0];

// The engines timed again with {into} (SDPA and MHA rows).
const REUSE = ['wasm-relaxed', 'wasm-simd'];

// Rounds: ~budget ms of samples per engine and config; a fused run takes
// seconds, so one sample there. A first call over warmMs counts as a sample
// (a 30 s run at 65,536 on hot code gains nothing from a second); below it
// the first call is warm-up only, as it carries one-time costs (ORT's first
// N = 16,384 call takes ~3x longer while its memory grows by 2 GiB).
export const policy = (cfg, quick) => ({
  budgetMs: quick ? 100 : 1500,
  minRounds: quick || cfg.kind === 'fused' ? 1 : 3,
  maxRounds: quick ? 3 : 30,
  warmMs: quick ? 200 : 10000,
});

/** { [engine id]: engine | { unavailable } }. */
export async function loadEngines({ quick }) {
  const loaded = {};
  for (const spec of ENGINES) {
    try {
      loaded[spec.id] = await spec.load({ quick });
    } catch (e) {
      loaded[spec.id] = { unavailable: `failed to load: ${errorText(e)}` };
    }
  }
  return loaded;
}

/**
 * Every engine on one config (both weights settings for SDPA), interleaved.
 * `memoryProbe` ({engine}): a fresh SIMD instance to run instead of the
 * shared one, so its memory shows this config alone (run.mjs).
 */
export async function runConfig(cfg, engines, { quick, memoryProbe = null } = {}) {
  const x = cfg.kind === 'mha' ? mhaInputs(cfg) : sdpaInputs(cfg);
  const ref = reference(cfg, x);
  const rows = [];
  const variants = [];
  // SDPA and MHA through this project's SIMD builds once more with {into}:
  // each call's results go into the previous call's arrays, which a browser
  // can fill far sooner than it hands out fresh ones (onnxruntime-web's wasm
  // backend has no such option: an output given to run() comes back unfilled).
  const reusing = cfg.kind === 'fused' ? [] : REUSE.map((id) => ENGINES.find((e) => e.id === id));
  for (const [spec, into] of [...ENGINES.map((e) => [e, false]), ...reusing.map((e) => [e, true])]) {
    const engine = spec.id === 'wasm-simd' && memoryProbe ? memoryProbe.engine : engines[spec.id];
    for (const weights of cfg.kind === 'sdpa' ? [false, true] : [false]) {
      const row = { config: label(cfg), cfg, engine: spec.id, label: into ? `${spec.label}, into` : spec.label, weights, into };
      rows.push(row);
      row.na = engine.unavailable ?? engine.skip(cfg, { weights });
      if (row.na) continue;
      try {
        variants.push({ row, run: await engine.prepare(cfg, x, { weights, into }) });
      } catch (e) {
        row.na = `prepare failed: ${errorText(e)}`;
      }
    }
  }
  const timed = await interleave(variants, policy(cfg, quick));
  variants.forEach(({ row }, i) => {
    const t = timed[i];
    if (t.error) return (row.na = `failed: ${t.error}`);
    Object.assign(row, {
      medianMs: t.medianMs, samples: t.samples, rounds: t.samples.length, batch: t.batch,
      gflops: flops(cfg) / t.medianMs / 1e6, maxAbsErr: maxAbsError(t.first, ref, cfg.N),
    });
  });
  return rows;
}

/**
 * Speed relative to onnxruntime-web and to the ceiling, per row: the relaxed
 * build against the relaxed ceiling (fused multiply-add) where one was
 * measured, every other row against the plain SIMD ceiling.
 */
export function addRatios(rows, ceiling, relaxedCeiling = null) {
  for (const r of rows) {
    if (r.na) continue;
    // (the into rows against onnxruntime-web's only kind: fresh arrays)
    const ort = rows.find((o) => o.config === r.config && o.engine === BASELINE && o.weights === r.weights && !o.na);
    r.vsOrt = ort ? ort.medianMs / r.medianMs : null;
    const c = r.engine === 'wasm-relaxed' && relaxedCeiling?.gflops ? relaxedCeiling : ceiling;
    r.ofCeiling = c?.gflops ? r.gflops / c.gflops : null;
  }
}

// ---- the forward kernel alone (each SIMD build) -----------------------------

/** A run() of attn_attention with Q, K, V, the output (and weights) already
 *  in wasm, under register tile `tile` (null: the engine's own); done()
 *  gives the engine its own tile back. */
function kernelAlone(engine, cfg, x, weights, tile = null) {
  const ex = engine.exports;
  const { N, d } = cfg;
  const { alloc, put, struct, done } = wasmArena(ex);
  const [q, k, v] = [x.Q, x.K, x.V].map(put);
  const out = alloc(4 * N * d);
  const w = weights ? alloc(4 * N * N) : 0;
  const ws = weights ? 0 : alloc(ex.attn_attention_workspace_size(N, N, d, d, 0) >>> 0);
  const masks = cfg.causal ? struct('attn_masks', { causal: 1 }) : 0;
  const scale = Math.fround(1 / Math.sqrt(d));
  const run = () => checkStatus(ex.attn_attention(out, w, q, k, v, N, N, d, d, scale, masks, ws), 'attn_attention');
  if (!tile) return { run, done };
  return {
    run: () => (ex.attn_set_gemm_tiles(TILES[tile]), run()),
    done: () => (ex.attn_set_gemm_tiles(TILES[engine.tiles]), done()),
  };
}

// The SIMD builds, the relaxed one under each of its tiles (the rows say
// which it picked).
const KERNEL_VARIANTS = [
  { id: 'wasm-relaxed', tile: '2x16' }, { id: 'wasm-relaxed', tile: '6x8' }, { id: 'wasm-simd', tile: null },
];

/**
 * The forward kernel alone, SDPA (causal too) at N >= 1024, each SIMD build interleaved:
 * what is left of a call without its copies in and out into fresh arrays
 * (the rows of runConfig time those too). Rows with GFLOP/s and the fraction
 * of the build's own ceiling.
 */
export async function runKernelAlone(cfgs, engines, { quick, ceiling, relaxedCeiling = null }) {
  const variants = KERNEL_VARIANTS.filter((v) => !engines[v.id].unavailable);
  const rows = [];
  for (const cfg of cfgs.filter((c) => c.kind === 'sdpa' && c.N >= 1024)) {
    const x = sdpaInputs(cfg);
    for (const weights of [false, true]) {
      const ks = variants.map((v) => kernelAlone(engines[v.id], cfg, x, weights, v.tile));
      const timed = await interleave(ks, policy(cfg, quick));
      ks.forEach((k) => k.done());
      timed.forEach((t, i) => {
        const { id, tile } = variants[i];
        const picked = tile && tile === engines[id].tiles ? ', picked' : '';
        const row = { config: label(cfg), engine: id, tile, label: tile ? `${labels[id]} ${tile}${picked}` : labels[id], weights };
        if (t.error) return rows.push({ ...row, na: `failed: ${t.error}` });
        const c = id === 'wasm-relaxed' && relaxedCeiling?.gflops ? relaxedCeiling : ceiling;
        const gflops = flops(cfg) / t.medianMs / 1e6;
        rows.push({ ...row, medianMs: t.medianMs, gflops, ceiling: c?.gflops ?? null, ofCeiling: c?.gflops ? gflops / c.gflops : null });
      });
    }
  }
  return rows;
}

// Float32 results average values in [-1, 1]: the errors seen are ~1e-7, and
// a broken kernel shows up as 1e-2 or NaN.
const MAX_ERROR = 1e-4;

/** Reasons to exit non-zero, so that --quick serves as a smoke test: one of
 *  this project's `required` engines did not load, a run threw, or a result
 *  is wrong. */
export function problems(results, engines, required = ['wasm-simd', 'wasm-scalar'], kernel = []) {
  const out = [];
  for (const k of kernel) if (k.na) out.push(`forward kernel ${k.config}, ${k.label}: ${k.na}`);
  for (const id of required) {
    if (engines[id].unavailable) out.push(`${labels[id]}: ${engines[id].unavailable}`);
  }
  for (const r of results) {
    const where = `${r.config}, ${r.label}, weights ${r.weights ? 'on' : 'off'}`;
    if (r.na?.startsWith('failed') || r.na?.startsWith('prepare failed')) out.push(`${where}: ${r.na}`);
    if (!r.na && !(r.maxAbsErr <= MAX_ERROR)) out.push(`${where}: error ${r.maxAbsErr} > ${MAX_ERROR}`);
  }
  return out;
}

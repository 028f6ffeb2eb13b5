// pool.mjs: the pool section of `npm run bench` (--only pool) and of
// `npm run bench:browser`: attentionPool() against the single-thread engine,
// the same build (the best the engine validates) and the same seeded inputs,
// interleaved rounds, medians:
//   - the targets: SDPA N = 8192, d = 64, fused (weights: false), and MHA
//     N = 1024, D = 512, 8 heads (self-attention, weights: false), on the
//     engine, a pool of 1 worker (the messages' cost) and of 2 (this
//     machine's cores); each pool's output must be the engine's bits; beside
//     them, with no target, the backward (N = 4096) and a training step of
//     attention-induction's model trained data-parallel (its first loss
//     checked);
//   - where splitting starts to pay: fused SDPA (d = 64) and MHA (D = 256, 4
//     heads) from small to large, on the engine and on 2 workers with every
//     call split (the pool's threshold set to 0), which is what
//     api/pool.js's SPLIT_FLOPS is set from.
// A pool's call copies its inputs into the pool's engine for the NaN scan,
// posts them, and copies the results back: all inside the timed region.
import { attentionPool, loadAttention } from '../../web/attention.js';
import { SPLIT_FLOPS, poolState } from '../../web/api/pool.js';
import { interleave } from '../lib/timing.mjs';
import { mhaInputs, sdpaInputs } from '../lib/inputs.mjs';
import { DEFAULTS, makeBatch } from '../../web/figures/induction/induction.model.js';
import { uniform } from '../../web/kit/random.js';

/** The speed-ups (engine time / 2 workers' time) the pool is held to on a 2-core machine. */
export const POOL_TARGETS = { sdpa: 1.7, mha: 1.6 };

const TARGET_CONFIGS = [
  { kind: 'sdpa', N: 8192, d: 64, target: POOL_TARGETS.sdpa },
  { kind: 'mha', N: 1024, D: 512, heads: 8, target: POOL_TARGETS.mha },
  // the same layer kept in memory (engine and pool: multiHeadAttentionLayer), so a call posts only X
  { kind: 'layer', N: 1024, D: 512, heads: 8, target: POOL_TARGETS.mha },
  // no target: the pieces take 7 products per tile where the engine takes 5
  { kind: 'backward', N: 4096, d: 64, target: null },
  // no target: attention-induction's model, a step split by sequences
  { kind: 'train', target: null },
];
// attention-induction's model and batch (bench/sections/train.mjs's)
const TRAIN = { vocab: DEFAULTS.vocab, context: DEFAULTS.context, dModel: DEFAULTS.dModel, heads: DEFAULTS.heads, layers: 2, seed: DEFAULTS.seed };
const TRAIN_OPT = { lr: DEFAULTS.lr, weightDecay: DEFAULTS.weightDecay };
const SWEEP = {
  sdpa: [64, 128, 192, 256, 384, 512, 768, 1024].map((N) => ({ kind: 'sdpa', N, d: 64 })),
  mha: [32, 64, 128, 256, 512, 1024].map((N) => ({ kind: 'mha', N, D: 256, heads: 4 })),
};

export const poolLabel = (c) => (c.kind === 'mha' ? `MHA N=${c.N} D=${c.D} h=${c.heads}`
  : c.kind === 'layer' ? `MHA layer N=${c.N} D=${c.D} h=${c.heads}`
  : c.kind === 'backward' ? `SDPA backward fused N=${c.N} d=${c.d}`
    : c.kind === 'train' ? `training step, induction model, batch ${DEFAULTS.batch}` : `SDPA fused N=${c.N} d=${c.d}`);
/** Flops as the forward and backward sections count them (multiply and add apart; the backward: forward 4, backward 10 N^2 d). */
export const poolFlops = (c) => (c.kind === 'mha' || c.kind === 'layer' ? 4 * c.N * c.N * c.D + 8 * c.N * c.D * c.D
  : c.kind === 'backward' ? 14 * c.N * c.N * c.d : c.kind === 'train' ? null : 4 * c.N * c.N * c.d);

// A call of config c on `on` (the engine or a pool): () => result or a promise of one.
async function call(on, c) {
  if (c.kind === 'train') {
    // each its own model from the same seed, stepping through the same batches (the first step checked)
    const model = await on.createTransformer(TRAIN);
    const next = uniform(DEFAULTS.seed);
    const batches = Array.from({ length: 16 }, () => makeBatch(next, DEFAULTS.batch).sequences);
    let k = 0;
    return async () => ({ output: { data: Float32Array.of(await model.trainStep(batches[k++ % batches.length], TRAIN_OPT)) } });
  }
  return callOf(on, c);
}

async function callOf(on, c) {
  if (c.kind === 'mha' || c.kind === 'layer') {
    const x = mhaInputs(c);
    const X = { rows: c.N, cols: c.D, data: x.Xq };
    const W = (data) => ({ rows: c.D, cols: c.D, data });
    const layer = { heads: c.heads, Wq: W(x.Wq), Wk: W(x.Wk), Wv: W(x.Wv), Wo: W(x.Wo), bq: x.bq, bk: x.bk, bv: x.bv, bo: x.bo };
    if (c.kind === 'mha') return () => on.multiHeadAttention(X, null, { ...layer, weights: false });
    const kept = await on.multiHeadAttentionLayer(layer);
    return () => kept.run(X, null, { weights: false });
  }
  const x = sdpaInputs(c);
  const [Q, K, V] = [x.Q, x.K, x.V].map((data) => ({ rows: c.N, cols: c.d, data }));
  if (c.kind === 'backward') {
    const dO = { rows: c.N, cols: c.d, data: sdpaInputs(c, 7).Q };
    return async () => {
      const g = await on.attentionBackward(Q, K, V, dO, { weights: false });
      return { output: { data: concat([g.dQ.data, g.dK.data, g.dV.data]) } };
    };
  }
  return () => on.attention(Q, K, V, { weights: false });
}

function concat(arrays) {
  const out = new Float32Array(arrays.reduce((n, a) => n + a.length, 0));
  arrays.reduce((at, a) => (out.set(a, at), at + a.length), 0);
  return out;
}

const sameBits = (a, b) => a.length === b.length && new Uint32Array(a.buffer, a.byteOffset, a.length).every((v, i) => v === new Uint32Array(b.buffer, b.byteOffset, b.length)[i]);

/**
 * The pool section: {build, tiles, cores, targets: [{config, engineMs,
 * pool1Ms, pool2Ms, speedup, target, sameBits}], sweep: [{config, mflop,
 * engineMs, splitMs, ratio}], threshold: {flops, crossing}}.
 */
export async function runPool({ quick = false, progress = () => {} } = {}) {
  const attn = await loadAttention();
  const tiles = await attn.tuned;
  const pools = { 1: await attentionPool({ workers: 1, module: attn.module }), 2: await attentionPool({ workers: 2, module: attn.module }) };
  const policy = { budgetMs: quick ? 500 : 6000, minRounds: quick ? 3 : 7, maxRounds: quick ? 5 : 40, warmMs: 10000 };
  try {
    const targets = [];
    for (const c of TARGET_CONFIGS) {
      const t = performance.now();
      const runs = await Promise.all([attn, pools[1], pools[2]].map((on) => call(on, c)));
      const [engine, one, two] = await interleave(runs.map((run) => ({ run })), policy);
      const want = engine.first?.output.data; // (interleave keeps each variant's first result)
      const same = !!want && [one, two].every((r) => r.first && sameBits(want, r.first.output.data));
      targets.push({
        config: poolLabel(c), flops: poolFlops(c), target: c.target, sameBits: same,
        engineMs: engine.medianMs, pool1Ms: one.medianMs, pool2Ms: two.medianMs,
        speedup: engine.medianMs / two.medianMs, errors: [engine, one, two].map((r) => r.error).filter(Boolean),
      });
      progress(`  pool: ${poolLabel(c)}: ${((performance.now() - t) / 1e3).toFixed(1)} s`);
    }
    // every call split, however small
    poolState.get(pools[2]).split = { attention: 0, multiHeadAttention: 0 };
    const sweep = [];
    for (const c of [...SWEEP.sdpa, ...SWEEP.mha]) {
      const [engine, split] = await interleave([{ run: await call(attn, c) }, { run: await call(pools[2], c) }],
        { budgetMs: quick ? 200 : 1500, minRounds: quick ? 3 : 9, maxRounds: quick ? 5 : 60, warmMs: 10000 });
      sweep.push({ config: poolLabel(c), kind: c.kind, mflop: poolFlops(c) / 1e6, engineMs: engine.medianMs, splitMs: split.medianMs, ratio: engine.medianMs / split.medianMs });
    }
    progress('  pool: the split sweep done');
    // the smallest flop count from which every larger config of its kind gained
    const crossing = Object.fromEntries(['sdpa', 'mha'].map((kind) => {
      const rows = sweep.filter((r) => r.kind === kind);
      const from = rows.findIndex((r, i) => rows.slice(i).every((q) => q.ratio > 1));
      return [kind, from < 0 ? null : rows[from].mflop];
    }));
    return { build: attn.build, tiles, targets, sweep, threshold: { sdpa: SPLIT_FLOPS.attention / 1e6, mha: SPLIT_FLOPS.multiHeadAttention / 1e6, crossing } };
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
  }
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export function printPool(p) {
  console.log(`\npool: attentionPool against the single-thread engine, ${p.build} build (tile ${p.tiles}); median ms of interleaved rounds, copies and messages timed`);
  console.log('config                              engine   1 worker  2 workers  speed-up  target  same bits');
  for (const r of p.targets) {
    console.log(`${r.config.padEnd(34)} ${fmt(r.engineMs).padStart(7)} ${fmt(r.pool1Ms).padStart(9)} ${fmt(r.pool2Ms).padStart(10)} ${`${r.speedup.toFixed(2)}x`.padStart(9)} ${(r.target ? `${r.target}x` : '–').padStart(7)}  ${r.sameBits ? 'yes' : 'NO'}`);
  }
  console.log('\nwhere splitting starts to pay (every call split over 2 workers):');
  for (const r of p.sweep) console.log(`${r.config.padEnd(26)} ${r.mflop.toFixed(1).padStart(8)} MFLOP  engine ${fmt(r.engineMs).padStart(7)}  split ${fmt(r.splitMs).padStart(7)}  ${r.ratio.toFixed(2)}x`);
  const c = p.threshold.crossing;
  console.log(`split pays from ${c.sdpa ?? '–'} MFLOP (SDPA) and ${c.mha ?? '–'} MFLOP (MHA) here; the pool splits from ${p.threshold.sdpa} and ${p.threshold.mha} MFLOP (api/pool.js SPLIT_FLOPS)`);
}

/** Reasons to exit non-zero: a pool whose results are not the engine's bits, or a failed call (never on time). */
export function poolProblems(p) {
  const out = [];
  for (const r of p.targets) {
    if (r.errors.length) out.push(`pool, ${r.config}: ${r.errors.join('; ')}`);
    else if (!r.sameBits) out.push(`pool, ${r.config}: the pool's output is not the engine's bits`);
  }
  return out;
}

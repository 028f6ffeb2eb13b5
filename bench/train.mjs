// train.mjs: the training section of `npm run bench` (--only train). Steps
// per second of attention-induction's 2-layer model (vocab 32, 32 tokens,
// dModel 32, 2 heads, batch 32; web/figures/induction.model.js) in
//   attention-wasm  model.trainStep, SIMD and scalar builds
//   tfjs-wasm       the same model in tfjs ops (transformer-peers.mjs),
//                   tf.variableGrads and tf.train.adam, PyTorch's decoupled
//                   weight decay applied first (AdamW); embeddings are
//                   one-hot matmuls, as the wasm backend has no gather gradient
//   plain JS        the float64 loops of tests/transformer-reference.js
// A step is forward, backward, the AdamW update and the loss read back. All
// start from the same parameters and see the same batches; their losses
// over the first steps must agree (the correctness check).
import { DEFAULTS, makeBatch } from '../web/figures/induction.model.js';
import { uniform } from '../web/figures/random.js';
import * as ref from '../tests/transformer-reference.js';
import { interleave } from './timing.mjs';
import { thisEngine, tfjsEngine } from './transformer-peers.mjs';

const CFG = { vocab: DEFAULTS.vocab, context: DEFAULTS.context, dModel: DEFAULTS.dModel, heads: DEFAULTS.heads, layers: 2 };
const OPT = { lr: DEFAULTS.lr, weightDecay: DEFAULTS.weightDecay, beta1: 0.9, beta2: 0.999, eps: 1e-8 };
const CHECK_STEPS = 5;
// float32 against float64 over five AdamW steps, losses near ln 32 = 3.47:
// the differences seen are 1.3e-7 (this trainer) and 2.1e-6 (tfjs); leaving
// out the weight decay alone moves tfjs's losses by 1.5e-4.
const LOSS_TOLERANCE = 2e-5;

/** tests/transformer-reference.js: gradients and AdamW in float64 loops. */
async function plainEngine() {
  return (params) => {
    const P = ref.zeros(CFG, params);
    const M = ref.zeros(CFG);
    const Vs = ref.zeros(CFG);
    let t = 0;
    return {
      step(sequences) {
        const { loss, grads } = ref.gradients(P, CFG, sequences);
        ref.adamw(P, M, Vs, grads, ++t, OPT);
        return loss;
      },
      dispose() {},
    };
  };
}

export const TRAIN_ENGINES = [
  { id: 'wasm-simd', label: 'attention-wasm SIMD', load: () => thisEngine(true, CFG, OPT, DEFAULTS.seed) },
  { id: 'wasm-scalar', label: 'attention-wasm scalar', load: () => thisEngine(false, CFG, OPT, DEFAULTS.seed) },
  { id: 'tfjs', label: 'tfjs-wasm', load: () => tfjsEngine(CFG, OPT) },
  { id: 'js', label: 'plain JS (float64)', load: plainEngine },
];

const errorText = (e) => String(e?.message ?? e).split('\n')[0];

/** The training section: prints its table, returns {config, rows}. */
export async function runTrain({ quick }) {
  const next = uniform(DEFAULTS.seed);
  const batches = Array.from({ length: 16 }, () => makeBatch(next, DEFAULTS.batch).sequences);
  const rows = [];
  const variants = [];
  let params = null; // the SIMD model's seeded initialisation, given to every engine
  for (const spec of TRAIN_ENGINES) {
    const row = { engine: spec.id, label: spec.label };
    rows.push(row);
    try {
      const make = await spec.load();
      const check = make(params);
      params ??= check.parameters();
      row.losses = batches.slice(0, CHECK_STEPS).map((b) => check.step(b));
      check.dispose();
      const timed = make(params);
      let k = 0;
      variants.push({ row, run: () => timed.step(batches[k++ % batches.length]), model: timed });
    } catch (e) {
      row.na = `failed: ${errorText(e)}`;
    }
  }
  const policy = { budgetMs: quick ? 300 : 3000, minRounds: 3, maxRounds: quick ? 5 : 30, warmMs: 10000 };
  const timed = await interleave(variants, policy);
  variants.forEach(({ row, model }, i) => {
    model.dispose();
    const t = timed[i];
    if (t.error) row.na = `failed: ${t.error}`;
    else Object.assign(row, { medianMs: t.medianMs, stepsPerSecond: 1000 / t.medianMs, rounds: t.samples.length, batch: t.batch });
  });
  const oracle = rows.find((r) => r.engine === 'js');
  const tfjs = rows.find((r) => r.engine === 'tfjs');
  for (const r of rows) {
    if (r.losses && oracle?.losses) r.maxLossDiff = Math.max(...r.losses.map((x, s) => Math.abs(x - oracle.losses[s])));
    if (r.medianMs && tfjs?.medianMs) r.vsTfjs = tfjs.medianMs / r.medianMs;
  }
  const config = { ...CFG, batch: DEFAULTS.batch, tokens: DEFAULTS.context, optimizer: OPT, checkSteps: CHECK_STEPS };
  printTrain(config, rows);
  return { config, rows };
}

function printTrain(config, rows) {
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  console.log(`\ntraining: attention-induction's model (vocab ${config.vocab}, ${config.tokens} tokens, dModel ${config.dModel}, ${config.heads} heads, ${config.layers} layers, batch ${config.batch}), AdamW lr ${config.optimizer.lr}, weight decay ${config.optimizer.weightDecay}`);
  console.log('a step = forward, backward, update, loss read back; median of interleaved rounds; same parameters and batches for all;');
  console.log(`vs tfjs = tfjs-wasm time / this time; loss diff = max |loss - plain JS float64| over the first ${config.checkSteps} steps\n`);
  const head = [pad('engine', 22), lpad('ms/step', 9), lpad('steps/s', 9), lpad('vs tfjs', 8), lpad('loss diff', 10), lpad('runs', 7)].join(' ');
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of rows) {
    if (r.na) { console.log(`${pad(r.label, 22)} n/a: ${r.na}`); continue; }
    console.log([pad(r.label, 22), lpad(r.medianMs.toFixed(2), 9), lpad(r.stepsPerSecond.toFixed(1), 9),
      lpad(r.vsTfjs ? `${r.vsTfjs.toFixed(1)}x` : '-', 8), lpad(r.maxLossDiff?.toExponential(1) ?? '-', 10),
      lpad(`${r.rounds}x${r.batch}`, 7)].join(' '));
  }
}

/** Reasons to exit non-zero: this project's trainer failed, or any engine's
 *  losses left the float64 oracle's (never on time). */
export function trainProblems({ rows }) {
  const out = [];
  for (const r of rows) {
    if (r.na && (r.engine.startsWith('wasm') || r.engine === 'js')) out.push(`training, ${r.label}: ${r.na}`);
    if (!r.na && !(r.maxLossDiff <= LOSS_TOLERANCE)) out.push(`training, ${r.label}: loss differs from plain JS by ${r.maxLossDiff} > ${LOSS_TOLERANCE}`);
  }
  return out;
}

// train.mjs: the training section of `npm run bench` (--only train). Steps
// per second of attention-induction's 2-layer model (vocab 32, 32 tokens,
// dModel 32, 2 heads, batch 32; web/figures/induction.model.js) in
//   attention-wasm  model.trainStep, relaxed (where the engine validates
//                   it), SIMD and scalar builds
//   tfjs-wasm       the same model in tfjs ops (transformer-peers.mjs),
//                   tf.variableGrads and tf.train.adam, PyTorch's decoupled
//                   weight decay applied first (AdamW); embeddings are
//                   one-hot matmuls, as the wasm backend has no gather gradient
//   plain JS        the float64 loops of tests/transformer-reference.js
// A step is forward, backward, the AdamW update and the loss read back. All
// start from the same parameters and see the same batches; their losses
// over the first steps must agree (the correctness check).
import { DEFAULTS, makeBatch } from '../../web/figures/induction/induction.model.js';
import { uniform } from '../../web/kit/random.js';
import * as ref from '../../tests/unit/transformer-reference.js';
import { compareLosses, printTrainers, thisEngines, tfjsEngine, timeTrainers } from '../engines/transformer-peers.mjs';

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
  ...thisEngines(CFG, OPT, DEFAULTS.seed),
  { id: 'tfjs', label: 'tfjs-wasm', load: () => tfjsEngine(CFG, OPT) },
  { id: 'js', label: 'plain JS (float64)', load: plainEngine },
];

/** The training section: {config, rows} (plain data; printTrain prints them). */
export async function runTrain({ quick }) {
  const next = uniform(DEFAULTS.seed);
  const batches = Array.from({ length: 16 }, () => makeBatch(next, DEFAULTS.batch).sequences);
  const policy = { budgetMs: quick ? 300 : 3000, minRounds: 3, maxRounds: quick ? 5 : 30, warmMs: 10000 };
  const { rows } = await timeTrainers(TRAIN_ENGINES, batches, { checkSteps: CHECK_STEPS, policy });
  compareLosses(rows, rows.find((r) => r.engine === 'js')?.losses);
  const config = { ...CFG, batch: DEFAULTS.batch, tokens: DEFAULTS.context, optimizer: OPT, checkSteps: CHECK_STEPS };
  return { config, rows };
}

export function printTrain({ config, rows }) {
  console.log(`\ntraining: attention-induction's model (vocab ${config.vocab}, ${config.tokens} tokens, dModel ${config.dModel}, ${config.heads} heads, ${config.layers} layers, batch ${config.batch}), AdamW lr ${config.optimizer.lr}, weight decay ${config.optimizer.weightDecay}`);
  console.log('a step = forward, backward, update, loss read back; median of interleaved rounds; same parameters and batches for all;');
  console.log(`vs tfjs = tfjs-wasm time / this time; loss diff = max |loss - plain JS float64| over the first ${config.checkSteps} steps\n`);
  printTrainers(rows);
}

/** Reasons to exit non-zero: this project's trainer failed, or any engine's
 *  losses left the float64 oracle's (never on time). */
export function trainProblems({ rows }) {
  const out = [];
  for (const r of rows) {
    if (r.na?.startsWith('failed') && (r.engine.startsWith('wasm') || r.engine === 'js')) out.push(`training, ${r.label}: ${r.na}`);
    if (!r.na && !(r.maxLossDiff <= LOSS_TOLERANCE)) out.push(`training, ${r.label}: loss differs from plain JS by ${r.maxLossDiff} > ${LOSS_TOLERANCE}`);
  }
  return out;
}

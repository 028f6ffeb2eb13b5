// gpt.mjs: the GPT section of `npm run bench` (--only gpt).
//  training  steps per second of attention-tiny-gpt's model (web/figures/
//            tiny-gpt.model.js: 52 characters, 64 positions, width 48, 4
//            heads, 2 GPT blocks with LayerNorm and a GELU MLP, batch 16
//            windows of the article's text) in
//              attention-wasm  model.trainStep, relaxed (where the
//                              engine validates it), SIMD and scalar builds
//              tfjs-wasm       the same model in tfjs ops
//                              (transformer-peers.mjs: tf.moments for
//                              LayerNorm, tf.erf for the exact GELU),
//                              tf.variableGrads and tf.train.adam with the
//                              decoupled weight decay applied first (AdamW)
//            All start from the same parameters and see the same batches;
//            their losses over the first steps must agree with the float64
//            reference (tests/transformer-reference.js): the correctness check.
//  decoding  tokens per second writing 256 characters greedily from a
//            trained-for-a-few-steps model, with the KV cache
//            (model.generate) and without it (model.logits over the window
//            for every new character, the same windows as the cache uses);
//            both must write the same characters.
import { ALPHABET, DEFAULTS, randomWindows, splitText } from '../../web/figures/tiny-gpt/tiny-gpt.model.js';
import { ARTICLE_TEXT } from '#article-text';
import { uniform } from '../../web/kit/random.js';
import * as ref from '../../tests/unit/transformer-reference.js';
import { interleave } from '../lib/timing.mjs';
import { compareLosses, printTrainers, thisEngines, tfjsEngine, timeTrainers } from '../engines/transformer-peers.mjs';

const CFG = { vocab: ALPHABET.length, context: DEFAULTS.context, dModel: DEFAULTS.dModel, heads: DEFAULTS.heads, layers: DEFAULTS.layers, mlp: true, layerNorm: true };
const OPT = { lr: DEFAULTS.lr, weightDecay: DEFAULTS.weightDecay, beta1: 0.9, beta2: 0.999, eps: 1e-8 };
const CHECK_STEPS = 3;
const LOSS_TOLERANCE = 1e-4; // float32 against float64 over three AdamW steps, losses near ln 52 = 3.95
const GENERATE = 256;

const ENGINES = [
  ...thisEngines(CFG, OPT, DEFAULTS.seed),
  { id: 'tfjs', label: 'tfjs-wasm', load: () => tfjsEngine(CFG, OPT) },
];

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

/** Greedy decoding without a cache: the full forward pass over the window for every new token. */
function generateUncached(model, prompt, steps) {
  const history = Array.from(prompt);
  let start = Math.max(0, history.length - model.context);
  const out = [];
  for (let i = 0; i < steps; i++) {
    if (history.length - start > model.context) start = history.length - Math.ceil(model.context / 2);
    const window = [...history.slice(start), 0];
    const { data, cols } = model.logits(window);
    const row = data.subarray((window.length - 2) * cols, (window.length - 1) * cols);
    let best = 0;
    for (let c = 1; c < cols; c++) if (row[c] > row[best]) best = c;
    out.push(best);
    history.push(best);
  }
  return out;
}

export async function runGpt({ quick }) {
  const next = uniform(DEFAULTS.seed);
  const { train } = splitText(ARTICLE_TEXT);
  const batches = Array.from({ length: 8 }, () => randomWindows(next, train, CFG.context + 1, DEFAULTS.batch));
  const policy = { budgetMs: quick ? 300 : 3000, minRounds: 3, maxRounds: quick ? 5 : 20, warmMs: 10000 };
  const { rows, params, kept } = await timeTrainers(ENGINES, batches, { checkSteps: CHECK_STEPS, policy, keep: (id) => id.startsWith('wasm') });
  // The float64 reference's losses from the same parameters: the oracle.
  if (params) {
    const [P, M, Vs] = [ref.zeros(CFG, params), ref.zeros(CFG), ref.zeros(CFG)];
    compareLosses(rows, batches.slice(0, CHECK_STEPS).map((b, k) => {
      const { loss, grads } = ref.gradients(P, CFG, b);
      ref.adamw(P, M, Vs, grads, k + 1, OPT);
      return loss;
    }));
  }

  // Decoding, on this project's models just trained for a few steps.
  const decoding = [];
  const prompt = Array.from(train.subarray(0, 8));
  for (const { row, model } of kept) {
    const d = { engine: row.engine, label: row.label };
    decoding.push(d);
    const cachedTokens = model.model.generate(prompt, { steps: GENERATE }).tokens;
    const plainTokens = generateUncached(model.model, prompt, GENERATE);
    d.sameText = cachedTokens.every((t, i) => t === plainTokens[i]);
    const [cached, plain] = await interleave([
      { run: () => model.model.generate(prompt, { steps: GENERATE }) },
      { run: () => generateUncached(model.model, prompt, GENERATE) },
    ], { budgetMs: quick ? 300 : 3000, minRounds: 3, maxRounds: quick ? 3 : 15, warmMs: 10000 });
    Object.assign(d, { cachedMs: cached.medianMs, plainMs: plain.medianMs, cachedTps: (1000 * GENERATE) / cached.medianMs, plainTps: (1000 * GENERATE) / plain.medianMs, speedup: plain.medianMs / cached.medianMs });
    model.dispose();
  }
  const config = { ...CFG, batch: DEFAULTS.batch, optimizer: OPT, checkSteps: CHECK_STEPS, generate: GENERATE };
  return { config, rows, decoding };
}

/** The section's tables, from what runGpt returned. */
export function printGpt({ config, rows, decoding }) {
  console.log(`\nGPT training: attention-tiny-gpt's model (vocab ${config.vocab}, ${config.context} tokens, dModel ${config.dModel}, ${config.heads} heads, ${config.layers} blocks with LayerNorm and GELU MLP, batch ${config.batch}), AdamW lr ${config.optimizer.lr}, weight decay ${config.optimizer.weightDecay}`);
  console.log(`a step = forward, backward, update, loss read back; median of interleaved rounds; loss diff = max |loss - float64 reference| over ${config.checkSteps} steps\n`);
  printTrainers(rows);
  console.log(`\nGPT decoding: ${config.generate} characters, greedy, from an 8-character prompt; without the cache = the full forward pass over the window (up to ${config.context} characters) per new character\n`);
  const h2 = [pad('engine', 22), lpad('cached tok/s', 13), lpad('uncached tok/s', 15), lpad('speedup', 8), lpad('same text', 10)].join(' ');
  console.log(h2);
  console.log('-'.repeat(h2.length));
  for (const d of decoding) {
    console.log([pad(d.label, 22), lpad(d.cachedTps.toFixed(0), 13), lpad(d.plainTps.toFixed(0), 15), lpad(`${d.speedup.toFixed(1)}x`, 8), lpad(d.sameText ? 'yes' : 'NO', 10)].join(' '));
  }
}

/** Reasons to exit non-zero: this project's engine failed, a loss left the float64 reference, or the cache changed the text (never on time). */
export function gptProblems({ rows, decoding }) {
  const out = [];
  for (const r of rows) {
    if (r.na?.startsWith('failed') && r.engine.startsWith('wasm')) out.push(`gpt, ${r.label}: ${r.na}`);
    if (!r.na && !(r.maxLossDiff <= LOSS_TOLERANCE)) out.push(`gpt, ${r.label}: loss differs from float64 by ${r.maxLossDiff} > ${LOSS_TOLERANCE}`);
  }
  for (const d of decoding) if (!d.sameText) out.push(`gpt decoding, ${d.label}: the cached and uncached texts differ`);
  return out;
}

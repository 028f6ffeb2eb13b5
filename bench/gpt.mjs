// gpt.mjs: the GPT section of `npm run bench` (--only gpt).
//  training  steps per second of attention-tiny-gpt's model (web/figures/
//            tiny-gpt.model.js: 52 characters, 64 positions, width 48, 4
//            heads, 2 GPT blocks with LayerNorm and a GELU MLP, batch 16
//            windows of the article's text) in
//              attention-wasm  model.trainStep, SIMD and scalar builds
//              tfjs-wasm       the same model in tfjs ops (tf.moments for
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
import { createRequire } from 'node:module';
import path from 'node:path';
import { ALPHABET, DEFAULTS, randomWindows, splitText } from '../web/figures/tiny-gpt.model.js';
import { ARTICLE_TEXT } from '../web/figures/tiny-gpt.text.js';
import { uniform } from '../web/figures/random.js';
import * as ref from '../tests/transformer-reference.js';
import { interleave } from './timing.mjs';

const CFG = { vocab: ALPHABET.length, context: DEFAULTS.context, dModel: DEFAULTS.dModel, heads: DEFAULTS.heads, layers: DEFAULTS.layers, mlp: true, layerNorm: true };
const OPT = { lr: DEFAULTS.lr, weightDecay: DEFAULTS.weightDecay, beta1: 0.9, beta2: 0.999, eps: 1e-8 };
const CHECK_STEPS = 3;
const LOSS_TOLERANCE = 1e-4; // float32 against float64 over three AdamW steps, losses near ln 52 = 3.95
const GENERATE = 256;

async function thisEngine(simd) {
  const { loadAttention } = await import('../web/attention.js');
  const attn = await loadAttention({ simd });
  if (attn.simd !== simd) throw new Error(`asked for simd=${simd}, the API loaded simd=${attn.simd}`);
  return (params) => {
    const model = attn.createTransformer({ ...CFG, seed: DEFAULTS.seed });
    if (params) model.setParameters(params);
    return { model, step: (s) => model.trainStep(s, OPT), parameters: () => model.parameters(), dispose: () => model.dispose() };
  };
}

async function tfjsEngine() {
  const tf = await import('@tensorflow/tfjs');
  const backend = await import('@tensorflow/tfjs-backend-wasm');
  const require = createRequire(import.meta.url);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  backend.setThreadsCount(1);
  backend.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs wasm backend failed to initialize');
  const { vocab: V, dModel: C, heads: H, layers, context: T } = CFG;
  const hs = C / H;
  return (params) => {
    const P = {};
    for (const { name, rows, cols } of ref.layout(CFG)) P[name] = tf.variable(tf.tensor2d(params[name], [rows, cols]), true, name);
    const optimizer = tf.train.adam(OPT.lr, OPT.beta1, OPT.beta2, OPT.eps);
    const causal = tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9);
    const layerNorm = (x, name) => {
      const { mean, variance } = tf.moments(x, -1, true);
      return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(P[`${name}.g`]).add(P[`${name}.b`]);
    };
    const gelu = (x) => x.mul(tf.erf(x.mul(Math.SQRT1_2)).add(1)).mul(0.5);
    const loss = (sequences) => {
      const B = sequences.length;
      const inputs = tf.tensor1d(sequences.flatMap((s) => Array.from(s.subarray(0, T))), 'int32');
      const targets = tf.tensor1d(sequences.flatMap((s) => Array.from(s.subarray(1))), 'int32');
      const split = (t) => t.reshape([B, T, H, hs]).transpose([0, 2, 1, 3]);
      let x = tf.oneHot(inputs, V).matMul(P.tok).reshape([B, T, C]).add(P.pos).reshape([B * T, C]);
      for (let l = 0; l < layers; l++) {
        const w = (n) => P[`layers.${l}.${n}`];
        const h = layerNorm(x, `layers.${l}.ln1`);
        const [q, k, v] = ['q', 'k', 'v'].map((n) => split(h.matMul(w(`W${n}`)).add(w(`b${n}`))));
        const p = tf.softmax(q.matMul(k, false, true).mul(1 / Math.sqrt(hs)).add(causal));
        x = x.add(p.matMul(v).transpose([0, 2, 1, 3]).reshape([B * T, C]).matMul(w('Wo')).add(w('bo')));
        const h2 = layerNorm(x, `layers.${l}.ln2`);
        x = x.add(gelu(h2.matMul(w('W1')).add(w('b1'))).matMul(w('W2')).add(w('b2')));
      }
      const logits = layerNorm(x, 'lnf').matMul(P.Wu).add(P.bu);
      return tf.oneHot(targets, V).mul(tf.logSoftmax(logits)).sum().neg().div(B * T);
    };
    const decay = 1 - OPT.lr * OPT.weightDecay;
    return {
      step(sequences) {
        const { value, grads } = tf.variableGrads(() => loss(sequences));
        tf.tidy(() => { for (const v of Object.values(P)) v.assign(v.mul(decay)); });
        optimizer.applyGradients(grads);
        tf.dispose(grads);
        const out = value.dataSync()[0];
        value.dispose();
        return out;
      },
      dispose() { tf.dispose([...Object.values(P), causal]); optimizer.dispose(); },
    };
  };
}

const ENGINES = [
  { id: 'wasm-simd', label: 'attention-wasm SIMD', load: () => thisEngine(true) },
  { id: 'wasm-scalar', label: 'attention-wasm scalar', load: () => thisEngine(false) },
  { id: 'tfjs', label: 'tfjs-wasm', load: tfjsEngine },
];

const errorText = (e) => String(e?.message ?? e).split('\n')[0];
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
  const rows = [];
  const variants = [];
  let params = null;
  let oracle = null;
  for (const spec of ENGINES) {
    const row = { engine: spec.id, label: spec.label };
    rows.push(row);
    try {
      const make = await spec.load();
      const check = make(params);
      if (!params) {
        params = check.parameters();
        const [P, M, Vs] = [ref.zeros(CFG, params), ref.zeros(CFG), ref.zeros(CFG)];
        oracle = batches.slice(0, CHECK_STEPS).map((b, k) => {
          const { loss, grads } = ref.gradients(P, CFG, b);
          ref.adamw(P, M, Vs, grads, k + 1, OPT);
          return loss;
        });
      }
      row.losses = batches.slice(0, CHECK_STEPS).map((b) => check.step(b));
      row.maxLossDiff = Math.max(...row.losses.map((x, s) => Math.abs(x - oracle[s])));
      check.dispose();
      const timed = make(params);
      let k = 0;
      variants.push({ row, run: () => timed.step(batches[k++ % batches.length]), model: timed });
    } catch (e) {
      row.na = `failed: ${errorText(e)}`;
    }
  }
  const timed = await interleave(variants, { budgetMs: quick ? 300 : 3000, minRounds: 3, maxRounds: quick ? 5 : 20, warmMs: 10000 });
  variants.forEach(({ row, model }, i) => {
    const t = timed[i];
    if (t.error) row.na = `failed: ${t.error}`;
    else Object.assign(row, { medianMs: t.medianMs, stepsPerSecond: 1000 / t.medianMs, rounds: t.samples.length, batch: t.batch });
    if (row.engine !== 'wasm-simd' && row.engine !== 'wasm-scalar') model.dispose();
  });
  const tfjs = rows.find((r) => r.engine === 'tfjs');
  for (const r of rows) if (r.medianMs && tfjs?.medianMs) r.vsTfjs = tfjs.medianMs / r.medianMs;

  // Decoding, on the SIMD and scalar models just trained for a few steps.
  const decoding = [];
  const prompt = Array.from(train.subarray(0, 8));
  for (const { row, model } of variants.filter((v) => v.row.engine.startsWith('wasm'))) {
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
  printGpt(config, rows, decoding);
  return { config, rows, decoding };
}

function printGpt(config, rows, decoding) {
  console.log(`\nGPT training: attention-tiny-gpt's model (vocab ${config.vocab}, ${config.context} tokens, dModel ${config.dModel}, ${config.heads} heads, ${config.layers} blocks with LayerNorm and GELU MLP, batch ${config.batch}), AdamW lr ${config.optimizer.lr}, weight decay ${config.optimizer.weightDecay}`);
  console.log(`a step = forward, backward, update, loss read back; median of interleaved rounds; loss diff = max |loss - float64 reference| over ${config.checkSteps} steps\n`);
  const head = [pad('engine', 22), lpad('ms/step', 9), lpad('steps/s', 9), lpad('vs tfjs', 8), lpad('loss diff', 10), lpad('runs', 7)].join(' ');
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of rows) {
    if (r.na) { console.log(`${pad(r.label, 22)} n/a: ${r.na}`); continue; }
    console.log([pad(r.label, 22), lpad(r.medianMs.toFixed(2), 9), lpad(r.stepsPerSecond.toFixed(1), 9),
      lpad(r.vsTfjs ? `${r.vsTfjs.toFixed(1)}x` : '-', 8), lpad(r.maxLossDiff?.toExponential(1) ?? '-', 10), lpad(`${r.rounds}x${r.batch}`, 7)].join(' '));
  }
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
    if (r.na && r.engine.startsWith('wasm')) out.push(`gpt, ${r.label}: ${r.na}`);
    if (!r.na && !(r.maxLossDiff <= LOSS_TOLERANCE)) out.push(`gpt, ${r.label}: loss differs from float64 by ${r.maxLossDiff} > ${LOSS_TOLERANCE}`);
  }
  for (const d of decoding) if (!d.sameText) out.push(`gpt decoding, ${d.label}: the cached and uncached texts differ`);
  return out;
}

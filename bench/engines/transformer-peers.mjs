// transformer-peers.mjs: the trainers the training (train.mjs) and GPT
// (gpt.mjs) sections time against each other, for a createTransformer
// config ({vocab, context, dModel, heads, layers, mlp, layerNorm}) and an
// AdamW setting ({lr, weightDecay, beta1, beta2, eps}), and how both
// sections run and print them. Each load gives make(params) ->
// {step(sequences) -> loss, parameters(), dispose()}; without params this
// project's model keeps its own seeded initialisation.
import * as ref from '../../tests/unit/transformer-reference.js';
import { useWasmBackend } from './engine-tfjs.mjs';
import { interleave } from '../lib/timing.mjs';
import { relaxedSimdSupported } from '../../web/attention.js';

/** This project's trainer on one build ('relaxed', 'simd' or 'scalar'). */
export async function thisEngine(build, cfg, opt, seed) {
  const { loadAttention } = await import('../../web/attention.js');
  const attn = await loadAttention({ build });
  if (attn.build !== build) throw new Error(`asked for the ${build} build, the API loaded ${attn.build}`);
  return (params) => {
    const model = attn.createTransformer({ ...cfg, seed });
    if (params) model.setParameters(params);
    return { model, step: (s) => model.trainStep(s, opt), parameters: () => model.parameters(), dispose: () => model.dispose() };
  };
}

/** The three builds as timeTrainers engines; the relaxed one says why it
 *  cannot run where the engine does not validate relaxed SIMD. */
export function thisEngines(cfg, opt, seed) {
  const noRelaxed = () => (relaxedSimdSupported() ? null
    : 'this engine does not validate relaxed SIMD (Node 20: --experimental-wasm-relaxed-simd, which npm run bench passes)');
  return [
    { id: 'wasm-relaxed', label: 'attention-wasm relaxed', unavailable: noRelaxed, load: () => thisEngine('relaxed', cfg, opt, seed) },
    { id: 'wasm-simd', label: 'attention-wasm SIMD', load: () => thisEngine('simd', cfg, opt, seed) },
    { id: 'wasm-scalar', label: 'attention-wasm scalar', load: () => thisEngine('scalar', cfg, opt, seed) },
  ];
}

/** The same model in tfjs ops on its wasm backend (one thread):
 *  tf.variableGrads and tf.train.adam, PyTorch's decoupled weight decay
 *  applied first (AdamW); embeddings are one-hot matmuls, as the wasm
 *  backend has no gather gradient; tf.moments for LayerNorm, tf.erf for the
 *  exact GELU. */
export async function tfjsEngine(cfg, opt) {
  const tf = await import('@tensorflow/tfjs');
  await useWasmBackend(tf);
  const { vocab: V, dModel: C, heads: H, layers, context: T } = cfg;
  const hs = C / H;
  return (params) => {
    const P = {};
    for (const { name, rows, cols } of ref.layout(cfg)) P[name] = tf.variable(tf.tensor2d(params[name], [rows, cols]), true, name);
    const optimizer = tf.train.adam(opt.lr, opt.beta1, opt.beta2, opt.eps);
    const causal = tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9); // 0 on and below the diagonal, -1e9 above
    // Pre-norm LayerNorm where the config has it, the identity where it does not.
    const norm = (x, name) => {
      if (!cfg.layerNorm) return x;
      const { mean, variance } = tf.moments(x, -1, true);
      return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(P[`${name}.g`]).add(P[`${name}.b`]);
    };
    const gelu = (x) => x.mul(tf.erf(x.mul(Math.SQRT1_2)).add(1)).mul(0.5);
    const loss = (sequences) => {
      const B = sequences.length;
      if (sequences[0].length !== T + 1) throw new RangeError(`sequences of ${T + 1} tokens expected`);
      const inputs = tf.tensor1d(sequences.flatMap((s) => Array.from(s.subarray(0, T))), 'int32');
      const targets = tf.tensor1d(sequences.flatMap((s) => Array.from(s.subarray(1))), 'int32');
      const split = (t) => t.reshape([B, T, H, hs]).transpose([0, 2, 1, 3]);
      // x = tok[token] + pos[position], as (B T) x C
      let x = tf.oneHot(inputs, V).matMul(P.tok).reshape([B, T, C]).add(P.pos).reshape([B * T, C]);
      for (let l = 0; l < layers; l++) {
        const w = (n) => P[`layers.${l}.${n}`];
        const h = norm(x, `layers.${l}.ln1`);
        const [q, k, v] = ['q', 'k', 'v'].map((n) => split(h.matMul(w(`W${n}`)).add(w(`b${n}`))));
        const p = tf.softmax(q.matMul(k, false, true).mul(1 / Math.sqrt(hs)).add(causal));
        x = x.add(p.matMul(v).transpose([0, 2, 1, 3]).reshape([B * T, C]).matMul(w('Wo')).add(w('bo')));
        if (cfg.mlp) {
          const h2 = norm(x, `layers.${l}.ln2`);
          x = x.add(gelu(h2.matMul(w('W1')).add(w('b1'))).matMul(w('W2')).add(w('b2')));
        }
      }
      const logits = norm(x, 'lnf').matMul(P.Wu).add(P.bu);
      return tf.oneHot(targets, V).mul(tf.logSoftmax(logits)).sum().neg().div(B * T);
    };
    const decay = 1 - opt.lr * opt.weightDecay;
    return {
      step(sequences) {
        const { value, grads } = tf.variableGrads(() => loss(sequences));
        tf.tidy(() => { for (const v of Object.values(P)) v.assign(v.mul(decay)); }); // AdamW: decay first
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

const errorText = (e) => String(e?.message ?? e).split('\n')[0];

/**
 * Runs the trainers on the same parameters (the first engine's) and the same
 * batches. Per engine a first copy takes checkSteps steps (row.losses), a
 * second copy is timed in interleaved rounds (medianMs, stepsPerSecond,
 * rounds, batch, vsTfjs = tfjs's time / this time); a failure is row.na
 * ('failed: ...'), so is an engine's `unavailable()` reason.
 * The timed copies are disposed except where keep(engine id): those come
 * back in `kept` ({row, model}) for more measurements.
 */
export async function timeTrainers(engines, batches, { checkSteps, policy, keep = () => false }) {
  const rows = [];
  const variants = [];
  let params = null; // the first engine's seeded initialisation, given to every engine
  for (const spec of engines) {
    const row = { engine: spec.id, label: spec.label };
    rows.push(row);
    const unavailable = spec.unavailable?.();
    if (unavailable) {
      row.na = unavailable;
      continue;
    }
    try {
      const make = await spec.load();
      const check = make(params);
      params ??= check.parameters();
      row.losses = batches.slice(0, checkSteps).map((b) => check.step(b));
      check.dispose();
      const timed = make(params);
      let k = 0;
      variants.push({ row, run: () => timed.step(batches[k++ % batches.length]), model: timed });
    } catch (e) {
      row.na = `failed: ${errorText(e)}`;
    }
  }
  const timed = await interleave(variants, policy);
  variants.forEach(({ row, model }, i) => {
    const t = timed[i];
    if (t.error) row.na = `failed: ${t.error}`;
    else Object.assign(row, { medianMs: t.medianMs, stepsPerSecond: 1000 / t.medianMs, rounds: t.samples.length, batch: t.batch });
    if (!keep(row.engine)) model.dispose();
  });
  const tfjs = rows.find((r) => r.engine === 'tfjs');
  for (const r of rows) if (r.medianMs && tfjs?.medianMs) r.vsTfjs = tfjs.medianMs / r.medianMs;
  return { rows, params, kept: variants.filter((v) => keep(v.row.engine)).map(({ row, model }) => ({ row, model })) };
}

/** Every row's largest |loss - oracle's| over the checked steps (maxLossDiff). */
export function compareLosses(rows, oracleLosses) {
  for (const r of rows) if (r.losses && oracleLosses) r.maxLossDiff = Math.max(...r.losses.map((x, s) => Math.abs(x - oracleLosses[s])));
}

/** The table of timeTrainers' rows. */
export function printTrainers(rows) {
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
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

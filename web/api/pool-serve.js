// pool-serve.js: what a pool's worker does (pool.js is the other side). It
// instantiates the compiled module the pool posts (no fetch, no compile),
// with the register tile the pool's own engine uses, then runs the pieces of
// calls it is sent, one message at a time, in order: each piece already
// checked by the pool with the engine's own checks, run by the engine's own
// functions (api/ops.js, mha.js, linear.js), its results posted back with
// their buffers transferred, and the bytes its engine still holds (0: every
// call frees what it took).
//
// Messages in: {type: 'load', module, parts, tiles}, then {type: 'call', id,
// op, args}. Out: {type: 'done', id, result, memoryInUse} or {type: 'error',
// id, name, message}.
import { instantiate } from './load.js';
import { Kernels } from './kernels.js';
import { runAttention } from './ops.js';
import { runMhaHeads, runProject } from './mha.js';
import { runLinearAttention } from './linear.js';

// The pieces a pool sends, by name; each returns {result, transfer}.
const OPS = {
  attention(k, c) {
    const r = runAttention(k, c);
    return { result: r, transfer: [r.output.data.buffer, r.weights?.data.buffer].filter(Boolean) };
  },
  mhaHeads(k, call, h0, h1) {
    const r = runMhaHeads(k, call, h0, h1);
    return { result: r, transfer: [r.Z.buffer, ...(r.weights ?? []).map((w) => w.data.buffer)] };
  },
  project(k, X, W, b) {
    const Y = runProject(k, X, W, b);
    return { result: Y, transfer: [Y.data.buffer] };
  },
  linearAttention(k, c) {
    const r = runLinearAttention(k, c);
    return { result: r, transfer: [r.output.data.buffer] };
  },
  // attentionBackward, whole or in pieces (the training part's JavaScript, k.training)
  attentionBackward(k, c) {
    const r = k.trainingPart('attentionBackward').runAttentionBackward(k, c);
    return { result: r, transfer: [r.dQ.data.buffer, r.dK.data.buffer, r.dV.data.buffer] };
  },
  backwardForward(k, c) {
    const r = k.trainingPart('attentionBackward').runBackwardForward(k, c);
    return { result: r, transfer: [r.output.data.buffer, r.weights?.data.buffer, r.lse?.buffer].filter(Boolean) };
  },
  backwardDq(k, c, fwd) {
    const dQ = k.trainingPart('attentionBackward').runBackwardDq(k, c, fwd);
    return { result: dQ, transfer: [dQ.data.buffer] };
  },
  backwardDkv(k, c, fwd, j0, j1) {
    const r = k.trainingPart('attentionBackward').runBackwardDkv(k, c, fwd, j0, j1);
    return { result: r, transfer: [r.dK.data.buffer, r.dV.data.buffer] };
  },
  // a transformer trained data-parallel: this worker's copy, by the pool's id
  tfCreate(k, id, options) {
    models.set(id, k.trainingPart('createTransformer').createTransformer(k, options));
    return { result: null, transfer: [] };
  },
  tfGradients(k, id, sequences) {
    const r = model(id).gradients(sequences);
    return { result: r, transfer: Object.values(r.grads).map((g) => g.buffer) };
  },
  tfUpdate(k, id, grads, options) {
    model(id).update(grads, options);
    return { result: null, transfer: [] };
  },
  tfLoss(k, id, sequences) {
    const r = model(id).loss(sequences);
    return { result: r, transfer: [r.perToken.buffer] };
  },
  tfParameters: (k, id) => ({ result: model(id).parameters(), transfer: [] }),
  tfDispose(k, id) {
    models.get(id)?.dispose();
    models.delete(id);
    return { result: null, transfer: [] };
  },
  memoryInUse: () => ({ result: null, transfer: [] }),
};

const models = new Map(); // the pool's transformers, by id
function model(id) {
  const m = models.get(id);
  if (!m) throw new Error('attention-wasm: this pool transformer was disposed');
  return m;
}

async function load({ module, parts, tiles }) {
  const [training, { ex }] = await Promise.all([
    parts === 'all' ? import('./training.js') : null,
    instantiate({ module, parts, build: null }),
  ]);
  if (tiles !== '2x16') (await import('./tiles.js')).useTiles(ex, tiles);
  return new Kernels(ex, training);
}

/** Serves a pool through `port`: {onMessage(fn), post(message, transfer)}. */
export function serve(port) {
  let engine = null;
  port.onMessage(async (msg) => {
    if (msg.type === 'load') {
      engine = load(msg);
      engine.catch(() => {}); // each call reports it
      return;
    }
    const { id, op, args } = msg;
    try {
      if (!engine) throw new Error('attention-wasm: a pool worker was sent a call before its engine');
      const k = await engine;
      const { result, transfer } = OPS[op](k, ...args);
      port.post({ type: 'done', id, result, memoryInUse: k.memoryInUse() }, transfer);
    } catch (err) {
      port.post({ type: 'error', id, name: err?.name, message: err?.message ?? String(err) });
    }
  });
}

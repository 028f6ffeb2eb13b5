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
// op, args}. Out: {type: 'done', id, result, spare (the buffers of the
// piece's inputs, given back), memoryInUse} or {type: 'error', id, name,
// message}.
import { instantiate } from './load.js';
import { Arena, Kernels } from './kernels.js';
import { putLayer } from './layer.js';
import { runAttention } from './ops.js';
import { runMhaHeads, runProject } from './mha.js';
import { runLinearAttention } from './linear.js';

// The pieces a pool sends, by name; each returns {result, transfer}.
const OPS = {
  attention(k, c) {
    const r = runAttention(k, c);
    return { result: r, transfer: [r.output.data.buffer, r.weights?.data.buffer].filter(Boolean) };
  },
  mhaHeads: (k, call, h0, h1) => heads(runMhaHeads(k, call, h0, h1)),
  project: (k, X, W, b) => projected(runProject(k, X, W, b)),
  // a multi-head layer kept here, by the pool's id: its parameters in wasm memory until layerDispose
  layerCreate(k, id, layer) {
    const arena = new Arena(k.ex);
    try {
      layers.set(id, { heads: layer.heads, d: layer.d, arena, at: putLayer(arena, layer, true) });
    } catch (err) {
      arena.free();
      throw err;
    }
    return { result: null, transfer: [] };
  },
  layerHeads(k, id, call, h0, h1) {
    const l = held(layers, id, 'layer');
    return heads(runMhaHeads(k, { ...call, layer: l }, h0, h1, l.at.params));
  },
  layerProject(k, id, X) {
    const l = held(layers, id, 'layer');
    return projected(runProject(k, X, { rows: l.d, cols: l.d }, null, [l.at.Wo, l.at.bo]));
  },
  layerDispose(k, id) {
    layers.get(id)?.arena.free();
    layers.delete(id);
    return { result: null, transfer: [] };
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

// The pieces whose inputs are done with when they return: their buffers go
// back to the pool (transferred), which copies the next calls' inputs into them.
const GIVES_BACK = new Set(['attention', 'mhaHeads', 'project', 'layerHeads', 'layerProject']);

// The ArrayBuffers of the typed arrays in a piece's arguments (matrices, and
// the objects that hold them), each once.
function buffersIn(value, found = new Set(), depth = 0) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object' && depth < 4) Object.values(value).forEach((v) => buffersIn(v, found, depth + 1));
  return [...found];
}

const heads = (r) => ({ result: r, transfer: [r.Z.buffer, ...(r.weights ?? []).map((w) => w.data.buffer)] });
const projected = (Y) => ({ result: Y, transfer: [Y.data.buffer] });

// What the pool keeps here between calls, by id: its transformers and layers.
const models = new Map();
const layers = new Map();
function held(map, id, what) {
  const m = map.get(id);
  if (!m) throw new Error(`attention-wasm: this pool ${what} was disposed`);
  return m;
}
const model = (id) => held(models, id, 'transformer');

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
      const spare = GIVES_BACK.has(op) ? buffersIn(args).filter((b) => !transfer.includes(b)) : [];
      port.post({ type: 'done', id, result, spare, memoryInUse: k.memoryInUse() }, [...transfer, ...spare]);
    } catch (err) {
      port.post({ type: 'error', id, name: err?.name, message: err?.message ?? String(err) });
    }
  });
}

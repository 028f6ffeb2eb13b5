// pool.js: attentionPool(), the engine's calls spread over workers (Web
// Workers in browsers, worker_threads in Node: '#pool-thread'), each with an
// engine of its own made from the page's compiled WebAssembly.Module (posted
// to it: no second download or compile). Workers get plain messages; no
// SharedArrayBuffer, so no cross-origin isolation (COOP/COEP headers) needed.
//
// Every call is checked here first, by the engine's own checks (api/ops.js,
// mha.js, linear.js, backward.js): a bad argument rejects with the engine's error before
// anything is posted. Its inputs are also copied into the pool's own engine
// once, for the engine's NaN and infinity scan, and freed. Then a call either
// runs here, on that engine, when it is too small for messages to pay, or
// is split so that every output row is computed as the single-thread engine
// computes it, and the pieces are put together in order:
//   attention         blocks of query rows (attn_masks.first_query gives a
//                     block's rows the bits they have in the whole call:
//                     causal, windows and global tokens go by position);
//                     blocks cut so each has about the same visible keys
//   multiHeadAttention  blocks of heads (attn_mha_heads: their columns of
//                     Z and their weights), then blocks of the output
//                     projection's rows (attn_project, more than 4 rows each,
//                     as attn_mha computes it); a multiHeadAttentionLayer's
//                     parameters stay in every worker, so its runs post
//                     only the sequences
//   linearAttention   without causal: blocks of query rows (every worker
//                     sums all the keys' features, then its rows); causal
//                     (prefix sums) runs whole, on one worker
//   attentionBackward the forward by blocks of rows (the output and each
//                     row's log-sum-exp or weights), then dQ by blocks of
//                     rows (attn_attention_backward_dq) and dK, dV by blocks
//                     of 128-key tiles (attn_attention_backward_dkv), each
//                     worker a block of both; 7 products per tile instead of
//                     5, so 2 workers gain ~1.5x, not 2x
// A worker runs the pieces it is sent in order; the results come back with
// their buffers transferred, and so do the pieces' inputs, whose buffers
// the next calls copy their inputs into (PoolState.spare).
//
// Workers start with the pool, and end with pool.close(), when the pool is
// collected, or in a browser when the page goes away (pagehide; calls after
// that start them again). A worker that stops in a call rejects the calls it
// had with an Error that says so and is replaced by the next call that needs
// it: nothing is tried again. In Node an idle worker keeps no process alive.
//
// The engine's functions come from attention.js (createPool's `engine`), not
// from imports of their modules here: a bundle then keeps those modules in
// the chunk of the engine, whether or not it ever starts a pool (imported by
// this file too, they would move to a chunk of their own: one more request
// for every page).

// The workers: '#pool-thread' (package.json "imports") is worker_threads in
// Node and Web Workers in a bundle for browsers; a page that loads this file
// unbundled resolves no '#' name, and takes the Web Workers' file directly.
const threads = () => (globalThis.process?.versions?.node ? import('#pool-thread') : import('./pool-thread.js'));

// Below these many flops (multiply and add apart, as the bench counts them)
// a call runs here, with no messages: where splitting over 2 workers starts
// to pay, measured by bench/sections/pool.mjs's sweep (npm run bench --
// --only pool, and bench:browser) on a 2-core AMD EPYC (family 25, model 17).
// attention's also holds for linear attention and the backward. Node: split
// attention paid from 67-151 MFLOP; Chromium's messages cost more: from
// 268. Multi-head attention (two round trips, its copies in buffers the
// workers gave back) paid from 201 MFLOP in both, and lost at 84.
export const SPLIT_FLOPS = Object.freeze(globalThis.process?.versions?.node
  ? { attention: 64e6, multiHeadAttention: 200e6 }
  : { attention: 256e6, multiHeadAttention: 200e6 });

// Fewest rows of the output projection per worker: attn_project (as
// attn_mha) computes 4 rows or fewer a row at a time, which rounds
// differently from the GEMM that more rows get.
const PROJECT_ROWS = 5;

// Spare buffers kept per worker (PoolState.keep): a split call's copies (a
// multi-head call: its sequences, the layer's weights and the rows of Z, per
// worker); none under SPARE_BYTES (a fresh small buffer costs little).
const [SPARE, SPARE_BYTES] = [8, 65536];

const OPTIONS = ['workers', 'parts', 'build', 'simd', 'module', 'wasmBinary', 'wasmUrl', 'tiles'];

// The engine's functions (createPool's `engine.calls`), set by the first pool.
let toAttention, putAttention, runAttention, toMultiHeadAttention, putMultiHeadAttention, runMultiHeadAttention,
  mhaResult, toLinearAttention, putLinearAttention, runLinearAttention, checkSize, rowMasks,
  toLayerOptions, toLayerRun, putLayer, putMhaInputs, DISPOSED;

/**
 * attentionPool(options) with attention.js's engine: {load (its loader),
 * calls (the functions of api/ that check, copy in and run each call)}.
 */
export async function createPool(options, { load: loadEngine, calls }) {
  ({ toAttention, putAttention, runAttention, toMultiHeadAttention, putMultiHeadAttention, runMultiHeadAttention,
    mhaResult, toLinearAttention, putLinearAttention, runLinearAttention, checkSize, rowMasks,
    toLayerOptions, toLayerRun, putLayer, putMhaInputs, DISPOSED } = calls);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('attentionPool options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new RangeError(`attentionPool: unknown option '${key}'; the options are ${OPTIONS.join(', ')}`);
  }
  const { cores, startThread } = await threads();
  const { workers = Math.max(1, cores() - 1), ...load } = options;
  checkSize(workers, 'workers');
  const engine = await loadEngine(load);
  const state = new PoolState(engine, workers, await engine.tuned, startThread);
  state.start();
  return new AttentionPool(state);
}

// The public object holds the state; nothing the state holds (workers,
// their listeners, the page's pagehide listener) holds the public object, so
// a pool dropped without close() is collected and its workers ended.
const collected = new FinalizationRegistry((state) => state.close());

/** A pool's state, by pool: for tests (its workers, the calls it posted, its split threshold). */
export const poolState = new WeakMap();

class AttentionPool {
  #s;
  constructor(state) {
    this.#s = state;
    /** How many workers the pool runs. */
    this.workers = state.size;
    /** The build its engines run: 'relaxed', 'simd' or 'scalar'. */
    this.build = state.engine.build;
    /** 'all' or 'attention' (the attention part alone: training calls throw). */
    this.parts = state.engine.parts;
    collected.register(this, state, state);
    poolState.set(this, state);
  }

  /** attention(Q, K, V, options) of the engine, over the workers. */
  async attention(Q, K, V, options) {
    const s = this.#s.open();
    const c = toAttention(Q, K, V, options);
    const k = s.engine.kernels;
    const rows = rowCosts(c);
    const flops = 2 * sum(rows) * (c.d_k + c.d_v);
    if (flops < s.split.attention) return runAttention(k, c);
    k.run((arena) => putAttention(arena, c));
    const blocks = split(rows, s.size);
    const shared = { K: compact(c.K), V: compact(c.V) };
    const parts = await Promise.all(blocks.map(([a, b], i) => {
      const piece = { ...c, ...shared, Q: rowsOf(c.Q, a, b, s), n_q: b - a, masks: rowMasks(c.masks, a, b, c.n_k), into: null };
      return s.run(i, 'attention', [piece], [piece.Q.data.buffer, piece.masks.mask?.data.buffer].filter(Boolean));
    }));
    const into = c.into ?? {};
    return {
      output: stack(parts.map((r) => r.output), blocks, into.output),
      weights: c.wantWeights ? stack(parts.map((r) => r.weights), blocks, into.weights) : null,
    };
  }

  /** multiHeadAttention(Xq, Xkv, options) of the engine, over the workers. */
  async multiHeadAttention(Xq, Xkv, options) {
    const s = this.#s.open();
    const call = toMultiHeadAttention(Xq, Xkv, options);
    const k = s.engine.kernels;
    if (!splitsMha(s, call)) return runMultiHeadAttention(k, call);
    k.run((arena) => putMultiHeadAttention(arena, call));
    // every piece its own copy of the parameters it needs, transferred
    const L = call.layer;
    return splitMha(s, call, {
      heads(i, piece, h0, h1, transfer) {
        const layer = { ...L, Wq: own(L.Wq, s), Wk: own(L.Wk, s), Wv: own(L.Wv, s), bq: own(L.bq, s), bk: own(L.bk, s), bv: own(L.bv, s), Wo: null, bo: null };
        return s.run(i, 'mhaHeads', [{ ...piece, layer }, h0, h1], [...transfer, ...buffers(Object.values(layer))]);
      },
      project(i, Z) {
        const [Wo, bo] = [own(L.Wo, s), own(L.bo, s)];
        return s.run(i, 'project', [Z, Wo, bo], buffers([Z, Wo, bo]));
      },
    });
  }

  /**
   * multiHeadAttentionLayer(options) of the engine, over the workers: the
   * layer's parameters are posted to every worker once and kept in its wasm
   * memory (memoryInUse counts them) until dispose(), so that each run()
   * posts only its sequences. `await layer.run(Xq, Xkv, options)` resolves
   * to what the engine layer's run returns, the same bits.
   */
  async multiHeadAttentionLayer(options) {
    const s = this.#s.open();
    const layer = toLayerOptions(options);
    s.engine.kernels.run((arena) => putLayer(arena, layer));
    // the parameters as they are now, as the engine's layer copies them
    const L = Object.fromEntries(Object.entries(layer).map(([key, v]) => [key, typeof v === 'object' ? own(v) : v]));
    const id = s.nextId++;
    const slots = s.slots.map((_, i) => s.slot(i));
    const made = await Promise.allSettled(slots.map((_, i) => s.run(i, 'layerCreate', [id, L])));
    const failed = made.find((r) => r.status === 'rejected');
    if (failed) {
      await freeCopies(s, id, slots, 'layerDispose'); // (the workers that made theirs)
      throw failed.reason;
    }
    return new PoolLayer(s, id, slots, L);
  }

  /** linearAttention(Q, K, V, options) of the engine, over the workers. */
  async linearAttention(Q, K, V, options) {
    const s = this.#s.open();
    const c = toLinearAttention(Q, K, V, options);
    const k = s.engine.kernels;
    const flops = 2 * c.m * (c.n_q + c.n_k) * (c.d_k + c.d_v);
    if (flops < s.split.attention) return runLinearAttention(k, c);
    k.run((arena) => putLinearAttention(arena, c));
    // causal: prefix sums, row after row; one piece
    const blocks = c.causal ? [[0, c.n_q]] : split(new Array(c.n_q).fill(1), s.size);
    const shared = { K: compact(c.K), V: compact(c.V) };
    const parts = await Promise.all(blocks.map(([a, b], i) => {
      const piece = { ...c, ...shared, Q: rowsOf(c.Q, a, b), n_q: b - a };
      return s.run(i, 'linearAttention', [piece], [piece.Q.data.buffer]);
    }));
    return { output: stack(parts.map((r) => r.output), blocks) };
  }

  /**
   * attentionBackward(Q, K, V, dOutput, options) of the engine (the training
   * part), over the workers: the forward by blocks of rows, then dQ by blocks
   * of rows and dK, dV by blocks of key tiles, each worker some of both.
   */
  async attentionBackward(Q, K, V, dOutput, options) {
    const s = this.#s.open();
    const k = s.engine.kernels;
    const t = k.trainingPart('attentionBackward');
    const c = t.toAttentionBackward(Q, K, V, dOutput, options);
    const rows = rowCosts(c);
    // forward (2 products) and backward (5): 7 multiply-adds per key and column
    const flops = 7 * sum(rows) * (c.d_k + c.d_v);
    if (flops < s.split.attention) return t.runAttentionBackward(k, c);
    k.run((arena) => t.putAttentionBackward(arena, c));
    const { n_k } = c;
    const shared = { K: compact(c.K), V: compact(c.V) };
    // one worker: the whole call there (the pieces would compute the
    // forward's products twice, to no gain)
    if (s.size === 1) return s.run(0, 'attentionBackward', [{ ...c, ...shared, Q: compact(c.Q), dO: compact(c.dO) }]);
    const rowBlock = (a, b) => ({ ...c, ...shared, Q: rowsOf(c.Q, a, b), dO: rowsOf(c.dO, a, b), n_q: b - a, masks: rowMasks(c.masks, a, b, n_k) });
    // the forward: output, and the weights or each row's log-sum-exp
    const blocks = split(rows, s.size);
    const fwds = await Promise.all(blocks.map(([a, b], i) => s.run(i, 'backwardForward', [rowBlock(a, b)])));
    const fwd = {
      output: stack(fwds.map((f) => f.output), blocks),
      weights: c.wantWeights ? stack(fwds.map((f) => f.weights), blocks) : null,
      lse: c.wantWeights ? null : stack(fwds.map((f) => ({ rows: f.lse.length, cols: 1, data: f.lse })), blocks).data,
    };
    // dQ by rows, dK and dV by key tiles (of KEY_TILE keys, as the kernel walks them)
    const whole = { ...c, ...shared, Q: compact(c.Q), dO: compact(c.dO) };
    const tiles = keyTileCosts(c);
    const tileBlocks = split(tiles, s.size);
    const [dqs, dkvs] = await Promise.all([
      Promise.all(blocks.map(([a, b], i) => s.run(i, 'backwardDq', [rowBlock(a, b), fwds[i]]))),
      Promise.all(tileBlocks.map(([t0, t1], i) => s.run(i, 'backwardDkv', [whole, fwd, t0 * KEY_TILE, Math.min(n_k, t1 * KEY_TILE)]))),
    ]);
    const keyBlocks = tileBlocks.map(([t0, t1]) => [t0 * KEY_TILE, Math.min(n_k, t1 * KEY_TILE)]);
    return {
      dQ: stack(dqs, blocks),
      dK: stack(dkvs.map((r) => r.dK), keyBlocks),
      dV: stack(dkvs.map((r) => r.dV), keyBlocks),
    };
  }

  /**
   * createTransformer(options) of the engine (the training part), trained
   * data-parallel: a copy in every worker, from the same seed; trainStep
   * gives each worker a share of the batch, sums their gradients in worker
   * order (each weighted by its share), and every copy takes the same AdamW
   * update. The losses match the one-engine model's within float32
   * rounding (one worker: to the bit). The copies hold their wasm memory
   * until dispose().
   */
  async createTransformer(options) {
    const s = this.#s.open();
    const t = s.engine.kernels.trainingPart('createTransformer');
    const cfg = t.toConfig(options);
    const id = s.nextId++;
    const slots = s.slots.map((_, i) => s.slot(i));
    await Promise.all(slots.map((_, i) => s.run(i, 'tfCreate', [id, cfg])));
    return new PoolTransformer(s, t, id, cfg, slots);
  }

  /**
   * The bytes each worker's engine holds, one number per worker (0 between
   * calls: every call frees what it took; 0 for a worker not running).
   */
  async memoryInUse() {
    const s = this.#s.open();
    return Promise.all(s.slots.map((slot, i) => (slot ? s.run(i, 'memoryInUse', [], [], true) : 0)));
  }

  /**
   * Ends the workers; calls still running reject with an Error that says the
   * pool was closed, later calls too. Resolves once the workers have ended.
   */
  close() {
    collected.unregister(this.#s);
    return this.#s.close();
  }
}

// Something each worker holds a copy of, by id (a transformer, a layer):
// its calls need the pool open, the copy not disposed, and the workers that
// hold it still running. Dropped without dispose(), its copies are freed
// when it is collected.
const dropped = new FinalizationRegistry(({ s, id, slots, free }) => freeCopies(s, id, slots, free));
function freeCopies(s, id, slots, free) {
  if (s.closed) return null;
  return Promise.all(slots.map((slot, i) => (s.slots[i] === slot ? s.run(i, free, [id]).catch(() => null) : null)));
}

class Held {
  #s; #id; #slots; #free; #noun;
  #disposed = false;
  // free: the workers' op that frees a copy; noun: {name, maker, disposed(what)} for the errors
  constructor(s, id, slots, free, noun) {
    [this.#s, this.#id, this.#slots, this.#free, this.#noun] = [s, id, slots, free, noun];
    dropped.register(this, { s, id, slots, free }, this);
  }

  // The pool, checked to be open, this copy not disposed and its workers running.
  live(what) {
    const s = this.#s.open();
    if (this.#disposed) throw new Error(this.#noun.disposed(what));
    if (this.#slots.some((slot, i) => s.slots[i] !== slot)) {
      throw new Error(`${what}: a worker that held a copy of this ${this.#noun.name} stopped; make another with ${this.#noun.maker}`);
    }
    return s;
  }

  /** op(id, ...args) on worker i. */
  post(i, op, args, transfer) {
    return this.#s.run(i, op, [this.#id, ...args], transfer);
  }

  /** Frees every copy's wasm memory; any later call rejects. */
  async dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    dropped.unregister(this);
    await freeCopies(this.#s, this.#id, this.#slots, this.#free);
  }
}

// A transformer whose copies live in the pool's workers (createTransformer).
class PoolTransformer extends Held {
  #t; #cfg;
  constructor(state, training, id, cfg, slots) {
    super(state, id, slots, 'tfDispose', {
      name: 'transformer', maker: 'pool.createTransformer()', disposed: (what) => `${what}: this transformer was disposed`,
    });
    [this.#t, this.#cfg] = [training, cfg];
    for (const key of ['vocab', 'context', 'dModel', 'heads', 'layers', 'mlp', 'layerNorm', 'seed']) {
      Object.defineProperty(this, key, { value: cfg[key], enumerable: true });
    }
  }

  /** One data-parallel training step (see AttentionPool.createTransformer): the batch's mean loss before the update. */
  async trainStep(sequences, options) {
    const s = this.live('trainStep');
    const { tokens, batch, length } = this.#t.toTokens(sequences, this.#cfg, 'sequences');
    const adamw = options === undefined ? undefined : (this.#t.toAdamW(options), options);
    const shares = split(new Array(batch).fill(1), s.size);
    const rows = (a, b) => Array.from({ length: b - a }, (_, i) => tokens.subarray((a + i) * length, (a + i + 1) * length));
    const parts = await Promise.all(shares.map(([a, b], i) => this.post(i, 'tfGradients', [rows(a, b)])));
    // the gradients, summed in worker order, each share weighted by its size
    let loss = 0;
    const grads = {};
    for (const name of Object.keys(parts[0].grads)) {
      const sum = new Float64Array(parts[0].grads[name].length);
      shares.forEach(([a, b], w) => {
        const g = parts[w].grads[name], share = (b - a) / batch;
        for (let j = 0; j < sum.length; j++) sum[j] += share * g[j];
      });
      grads[name] = Float32Array.from(sum);
    }
    shares.forEach(([a, b], w) => { loss += ((b - a) / batch) * parts[w].loss; });
    await Promise.all(new Array(s.size).fill(0).map((_, i) => this.post(i, 'tfUpdate', [grads, adamw])));
    return Math.fround(loss);
  }

  /** loss(sequences) of the model (its copies are the same): {mean, perToken}. */
  async loss(sequences) {
    this.live('loss');
    this.#t.toTokens(sequences, this.#cfg, 'sequences');
    return this.post(0, 'tfLoss', [sequences]);
  }

  /** Every parameter, {name: Float32Array} (the copies are the same). */
  async parameters() {
    this.live('parameters');
    return this.post(0, 'tfParameters', []);
  }
}

// A multi-head layer whose parameters live in the pool's workers (multiHeadAttentionLayer).
class PoolLayer extends Held {
  #layer;
  constructor(state, id, slots, layer) {
    super(state, id, slots, 'layerDispose', {
      name: 'layer', maker: 'pool.multiHeadAttentionLayer()', disposed: () => DISPOSED,
    });
    this.#layer = layer;
    this.heads = layer.heads;
    this.dModel = layer.d;
  }

  /** run(Xq, Xkv, options) of the engine's layer, over the workers. */
  async run(Xq, Xkv, options) {
    const s = this.live('run');
    const call = toLayerRun(this.#layer, Xq, Xkv, options);
    const k = s.engine.kernels;
    if (!splitsMha(s, call)) return runMultiHeadAttention(k, call);
    k.run((arena) => putMhaInputs(arena, call));
    return splitMha(s, call, {
      heads: (i, piece, h0, h1, transfer) => this.post(i, 'layerHeads', [piece, h0, h1], transfer),
      project: (i, Z) => this.post(i, 'layerProject', [Z], [Z.data.buffer]),
    });
  }
}

// The workers, their calls in flight, and whether the pool is closed.
class PoolState {
  constructor(engine, size, tiles, startThread) {
    this.engine = engine;
    this.startThread = startThread;
    this.size = size;
    this.tiles = tiles;
    this.slots = new Array(size).fill(null);
    this.closed = false;
    this.nextId = 1;
    this.posted = 0; // calls posted to workers, for tests
    this.split = SPLIT_FLOPS; // (tests set { attention: 0, multiHeadAttention: 0 } to split every call)
    this.onHide = null;
    // Buffers the workers gave back (the inputs of the pieces they ran), for
    // the copies of the next calls: a fresh buffer costs its page faults
    // as it is first written (Chromium: ~0.6 ms per MB), a spare one none.
    this.spare = [];
  }

  /** n floats in a spare buffer of that size, or a new one; with `from`, a copy of it. */
  floats(n, from = null) {
    const i = this.spare.findIndex((b) => b.byteLength === 4 * n);
    if (i < 0) return from ? from.slice() : new Float32Array(n);
    const data = new Float32Array(this.spare.splice(i, 1)[0]);
    if (from) data.set(from);
    return data;
  }

  // The newest SPARE buffers per worker given back are kept.
  keep(buffers) {
    this.spare.push(...buffers.filter((b) => b.byteLength >= SPARE_BYTES));
    this.spare.splice(0, Math.max(0, this.spare.length - SPARE * this.size));
  }

  start() {
    for (let i = 0; i < this.size; i++) this.slot(i);
    // A page that goes away ends its workers (a page restored from the
    // back/forward cache starts them again as calls need them).
    if (globalThis.document && globalThis.addEventListener) {
      this.onHide = () => this.stopAll('the page was hidden (pagehide) before this call finished');
      globalThis.addEventListener('pagehide', this.onHide);
    }
  }

  open() {
    if (this.closed) throw new Error('attention-wasm: this pool is closed (pool.close()); make another with attentionPool()');
    return this;
  }

  // Worker i, started if it is not running.
  slot(i) {
    if (this.slots[i]) return this.slots[i];
    const slot = { pending: new Map(), thread: null, memoryInUse: 0 };
    slot.thread = this.startThread({
      onMessage: (msg) => this.receive(slot, msg),
      onExit: (why) => this.lost(slot, `attention-wasm: a pool worker stopped (${why}) during this call; the next call starts another`),
    });
    slot.thread.unref();
    const { module, parts } = this.engine;
    slot.thread.post({ type: 'load', module, parts, tiles: this.tiles });
    this.slots[i] = slot;
    return slot;
  }

  /** Posts op(args) to worker i; resolves to its result (with `whole`, the reply). */
  run(i, op, args, transfer = [], whole = false) {
    this.open();
    const slot = this.slot(i);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve: (msg) => resolve(whole ? msg.memoryInUse : msg.result), reject });
      if (slot.pending.size === 1) slot.thread.ref();
      this.posted++;
      slot.thread.post({ type: 'call', id, op, args }, transfer);
    });
  }

  receive(slot, msg) {
    const call = slot.pending.get(msg.id);
    if (!call) return;
    slot.pending.delete(msg.id);
    if (slot.pending.size === 0) slot.thread.unref();
    if (msg.type === 'done') {
      slot.memoryInUse = msg.memoryInUse;
      if (msg.spare) this.keep(msg.spare);
      call.resolve(msg);
    } else {
      const Kind = { TypeError, RangeError }[msg.name] ?? Error;
      call.reject(new Kind(msg.message));
    }
  }

  // Worker `slot` stopped: its calls reject with `message`; the next call
  // that needs it starts another.
  lost(slot, message) {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = null;
    const ended = slot.thread.terminate();
    for (const call of slot.pending.values()) call.reject(new Error(message));
    slot.pending.clear();
    return ended;
  }

  stopAll(why) {
    return Promise.all(this.slots.filter(Boolean).map((slot) => this.lost(slot, `attention-wasm: ${why}`)));
  }

  close() {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.spare = [];
    if (this.onHide) globalThis.removeEventListener('pagehide', this.onHide);
    return this.stopAll('the pool was closed (pool.close()) before this call finished').then(() => {});
  }
}

// ---- splitting -------------------------------------------------------------

const sum = (a) => a.reduce((x, y) => x + y, 0);

/**
 * The keys each query row of an attention call multiplies (2 flops per key
 * and column): n_k, or with weights: false what causal and a window leave
 * (the fused kernel skips the rest, tile by tile; global rows see them all).
 */
function rowCosts({ n_q, n_k, wantWeights, masks: { causal, window, global } }) {
  const rows = new Array(n_q);
  const isGlobal = new Set(global ?? []);
  for (let i = 0; i < n_q; i++) {
    let hi = causal ? Math.min(n_k, i + 1) : n_k, lo = 0;
    if (!wantWeights && window !== null && !isGlobal.has(i)) {
      lo = Math.max(0, i - window);
      hi = Math.min(hi, i + window + 1);
    }
    rows[i] = Math.max(1, hi - lo);
  }
  return rows;
}

/**
 * Consecutive blocks [a, b) of the items whose costs are `costs`, at most
 * `parts` of them, none empty, each with about the same total cost.
 */
function split(costs, parts) {
  const n = costs.length, total = sum(costs);
  parts = Math.max(1, Math.min(parts, n));
  const blocks = [];
  let a = 0, acc = 0;
  for (let p = 1; p <= parts; p++) {
    let b = a;
    const target = (total * p) / parts;
    while (b < n && (b === a || acc + costs[b] / 2 <= target) && n - b > parts - p) acc += costs[b++];
    if (p === parts) b = n;
    blocks.push([a, b]);
    a = b;
  }
  return blocks;
}

// Keys per tile of the backward (ATTN_BACKWARD_KEY_TILE, attention.h): blocks
// of dK and dV start on a tile (a block that did not would be refused).
const KEY_TILE = 128;

/**
 * The cost of each key tile of the backward: the queries that see its keys
 * (n_q, or with causal and a window, fewer).
 */
function keyTileCosts({ n_q, n_k, masks: { causal, window } }) {
  const tiles = [];
  for (let j0 = 0; j0 < n_k; j0 += KEY_TILE) {
    let seen = 0;
    for (let j = j0; j < Math.min(n_k, j0 + KEY_TILE); j++) {
      const lo = causal ? j : 0, hi = window === null ? n_q : Math.min(n_q, j + window + 1);
      seen += Math.max(1, hi - Math.max(lo, window === null ? 0 : j - window));
    }
    tiles.push(seen);
  }
  return tiles;
}

// 4 query rows or fewer: attn_mha projects them a row at a time, which
// attn_project cannot split (it rounds as the GEMM only above 4 rows).
function splitsMha(s, call) {
  const { layer: { d }, Xq, Xkv } = call;
  const keys = sum(rowCosts({ ...call, n_q: Xq.rows, n_k: Xkv.rows }));
  const flops = 2 * d * d * (2 * Xq.rows + 2 * Xkv.rows) + 4 * keys * d;
  return flops >= s.split.multiHeadAttention && Xq.rows >= PROJECT_ROWS;
}

/**
 * A checked multi-head call over the workers: blocks of heads (`post.heads(i,
 * piece, h0, h1, transfer)` posts one: the sequences, their own copies, with
 * the buffers to transfer; it resolves to those heads' columns of Z and their
 * weights), then blocks of the output projection's rows (`post.project(i,
 * Z)`: Y = Z Wo + bo); the result put together as the engine's.
 */
async function splitMha(s, call, post) {
  const { layer: { heads, d }, wantWeights, into } = call;
  const [n_q, dh] = [call.Xq.rows, d / heads];
  const headBlocks = split(new Array(heads).fill(1), s.size);
  const parts = await Promise.all(headBlocks.map(([h0, h1], i) => {
    const piece = { layer: { heads, d }, Xq: own(call.Xq, s), wantWeights, masks: call.masks, into: null };
    piece.Xkv = call.Xkv === call.Xq ? piece.Xq : own(call.Xkv, s);
    return post.heads(i, piece, h0, h1, buffers([piece.Xq, piece.Xkv]));
  }));
  // rows a .. b-1 of Z (n_q x d), from the heads' columns
  const rowsOfZ = (a, b, spare = null) => {
    const Z = spare ? spare.floats((b - a) * d) : new Float32Array((b - a) * d);
    headBlocks.forEach(([h0, h1], p) => {
      const cols = (h1 - h0) * dh, z = parts[p].Z;
      for (let i = a; i < b; i++) Z.set(z.subarray(i * cols, (i + 1) * cols), (i - a) * d + h0 * dh);
    });
    return Z;
  };
  const rowBlocks = split(new Array(n_q).fill(1), Math.min(s.size, Math.floor(n_q / PROJECT_ROWS)));
  const ys = Promise.all(rowBlocks.map(([a, b], i) => post.project(i, { rows: b - a, cols: d, data: rowsOfZ(a, b, s), name: 'Z' })));
  let weights = null;
  if (wantWeights) {
    weights = parts.flatMap((r) => r.weights);
    if (into) weights = weights.map((w, h) => (into.weights[h].data.set(w.data), into.weights[h]));
  }
  const output = stack(await ys, rowBlocks, into?.output);
  // the whole Z when it is first read (result.heads)
  return mhaResult({ output, weights, Z: () => rowsOfZ(0, n_q), n_q, heads, d, into });
}

// A copy of a checked matrix or vector (or null), in a buffer of its own:
// posted with its buffer transferred, the one copy a message then costs
// (a structured clone copies twice). With `spare` (a PoolState), in one of
// the buffers the workers gave back when there is one of that size.
const own = (m, spare = null) => m && { ...m, data: spare ? spare.floats(m.data.length, m.data) : m.data.slice() };

// The buffers of these matrices (anything else and repeats skipped), to transfer.
const buffers = (ms) => [...new Set(ms.filter((m) => m?.data).map((m) => m.data.buffer))];

// Rows a .. b-1 of a checked matrix, in a buffer of their own (to transfer;
// with `spare`, as own()).
const rowsOf = (m, a, b, spare = null) => own({ ...m, rows: b - a, data: m.data.subarray(a * m.cols, b * m.cols) }, spare);

// A checked matrix whose data is all of its buffer: posting a view of a
// larger buffer would copy the whole buffer.
const compact = (m) => (m && m.data.byteLength !== m.data.buffer.byteLength ? { ...m, data: m.data.slice() } : m);

// Blocks of rows (matrices, in order) as one matrix, in `into` when given.
function stack(parts, blocks, into) {
  const rows = blocks.at(-1)[1], cols = parts[0].cols;
  if (!into && parts.length === 1) return parts[0];
  const out = into ?? { rows, cols, data: new Float32Array(rows * cols) };
  blocks.forEach(([a], p) => out.data.set(parts[p].data, a * cols));
  return out;
}

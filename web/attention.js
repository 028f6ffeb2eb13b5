// attention.js: loads the wasm kernels and exposes the attention API.
//
// Every call: check types, shapes and sizes and name the bad argument (before
// touching wasm memory), copy inputs into wasm (where a SIMD scan rejects NaN
// and infinities), run one C function, copy results out into fresh
// Float32Arrays, free everything in `finally`. Results never alias wasm
// memory, so later calls and memory growth cannot change them.

// A tiny module that uses one SIMD instruction: validates only where wasm
// SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8,
  0, 65, 0, 253, 15, 253, 98, 11,
]);

// Memory is capped at 2 GiB (build.sh: -sMAXIMUM_MEMORY); keep a margin.
const MEMORY_LIMIT = 2 ** 31 - 2 ** 24;

/** True when this engine validates wasm SIMD. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/**
 * Load the kernels. Options: `simd` (default: where supported),
 * `wasmUrl` (where the .wasm is; default next to this file in ../build/),
 * `wasmBinary` (the .wasm bytes themselves, skips fetching).
 */
export async function loadAttention(options = {}) {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('attention-wasm: this browser has no WebAssembly (it may be switched off), so the kernels cannot run');
  }
  const simd = options.simd ?? simdSupported();
  const name = simd ? 'attention.simd.wasm' : 'attention.wasm';
  const url = options.wasmUrl ?? new URL(`../build/${name}`, import.meta.url);
  let module;
  try {
    module = await compile(options.wasmBinary, url);
  } catch (err) {
    if (!(err instanceof WebAssembly.CompileError)) throw err;
    const what = options.wasmBinary ? 'wasmBinary' : String(url);
    throw new Error(`attention-wasm: ${what} is not a valid WebAssembly module (damaged, or another file): ${err.message}`, { cause: err });
  }
  const imports = stubImports(module);
  const instance = await WebAssembly.instantiate(module, imports);
  instance.exports._initialize?.();
  return new Attention(instance.exports, simd);
}

async function compile(binary, url) {
  if (binary) return WebAssembly.compile(binary);
  url = new URL(url, import.meta.url);
  if (url.protocol === 'file:') {
    const { readFile } = await import(/* webpackIgnore: true */ 'node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new Error(`attention-wasm: could not load ${url} (${err.message})`, { cause: err });
  }
  if (!response.ok) {
    throw new Error(`attention-wasm: could not load ${url} (HTTP ${response.status})`);
  }
  // Streaming compilation needs the application/wasm MIME type; hosts that
  // serve another type still work through the bytes.
  if (WebAssembly.compileStreaming && /wasm/.test(response.headers.get('content-type') ?? '')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// The standalone module imports only notifications we do not need.
function stubImports(module) {
  const imports = {};
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') throw new Error(`attention-wasm: unexpected import ${mod}.${name}`);
    (imports[mod] ??= {})[name] = () => 0;
  }
  return imports;
}

// ---- validation ---------------------------------------------------------

const isInt = (n) => Number.isInteger(n) && n > 0;

// Arrays and typed arrays (not DataView: it has no indices).
const isArrayLike = (x) => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

function checkSize(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
  if (!isInt(value)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

// Accepts {rows, cols, data} or an array of equal-length rows; returns
// {rows, cols, data: Float32Array}. `allowMinusInf` is for additive masks.
function toMatrix(x, name, { allowMinusInf = false } = {}) {
  let rows, cols, data;
  if (Array.isArray(x)) {
    rows = x.length;
    if (rows === 0) throw new RangeError(`${name} must have at least one row`);
    // Index loops, not every/forEach: those skip the holes of a sparse array.
    for (let i = 0; i < rows; i++) {
      if (!isArrayLike(x[i])) {
        throw new TypeError(`${name} must be an array of rows (arrays of numbers); row ${i} is ${x[i] === undefined ? 'missing' : typeof x[i]}`);
      }
    }
    cols = x[0].length;
    if (cols === 0) throw new RangeError(`${name} must have at least one column`);
    for (let i = 0; i < rows; i++) {
      if (x[i].length !== cols) {
        throw new RangeError(`${name} row ${i} has ${x[i].length} values, expected ${cols} like row 0`);
      }
    }
    data = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++) data.set(float32Values(x[i], name, cols, i * cols), i * cols);
    return { rows, cols, data, name, allowMinusInf };
  }
  if (x === null || typeof x !== 'object' || !('data' in x)) {
    throw new TypeError(`${name} must be a matrix {rows, cols, data} or an array of rows`);
  }
  rows = checkSize(x.rows, `${name}.rows`);
  cols = checkSize(x.cols, `${name}.cols`);
  data = x.data;
  if (!isArrayLike(data)) {
    throw new TypeError(`${name}.data must be a Float32Array or an array of numbers`);
  }
  if (data.length !== rows * cols) {
    throw new RangeError(
      `${name}.data has ${data.length} values, expected rows*cols = ${rows}*${cols} = ${rows * cols}`,
    );
  }
  return { rows, cols, data: float32Values(data, name, cols), name, allowMinusInf };
}

// The values of `src` (a row, or the whole data) as float32: the array itself
// when it already is a Float32Array. Non-numbers are a TypeError.
function float32Values(src, name, cols, offset = 0) {
  if (src instanceof Float32Array) return src;
  if (ArrayBuffer.isView(src) && typeof src[0] !== 'bigint') return new Float32Array(src);
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    if (typeof v !== 'number') {
      throw new TypeError(`${name} has a non-number (${typeof v}) at ${position(offset + i, cols)}`);
    }
    out[i] = v;
  }
  return out;
}

const position = (at, cols) => `row ${Math.floor(at / cols)}, column ${at % cols}`;

function expectShape(m, name, rows, cols, what) {
  if ((rows !== undefined && m.rows !== rows) || (cols !== undefined && m.cols !== cols)) {
    throw new RangeError(
      `${name} is ${m.rows}x${m.cols}, expected ${rows ?? m.rows}x${cols ?? m.cols} (${what})`,
    );
  }
}

function toVector(x, name, length, what) {
  if (!isArrayLike(x)) {
    throw new TypeError(`${name} must be an array of ${length} numbers (${what})`);
  }
  if (x.length !== length) throw new RangeError(`${name} has ${x.length} values, expected ${length} (${what})`);
  return { rows: 1, cols: length, data: float32Values(x, name, length), name, vector: true };
}

function toPadding(x, n_k) {
  if (!isArrayLike(x)) {
    throw new TypeError(`keyPaddingMask must be an array of ${n_k} flags (1 = padding)`);
  }
  if (x.length !== n_k) throw new RangeError(`keyPaddingMask has ${x.length} flags, expected one per key (${n_k})`);
  const out = new Uint8Array(n_k);
  for (let j = 0; j < n_k; j++) {
    const v = x[j];
    if (v !== 0 && v !== 1 && v !== true && v !== false) {
      throw new TypeError(`keyPaddingMask[${j}] is ${String(v)}; use 1/true for padding, 0/false to keep`);
    }
    out[j] = v ? 1 : 0;
  }
  return out;
}

function toOptions(options, name) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || isArrayLike(options)) {
    throw new TypeError(`${name} options must be an object`);
  }
  return options;
}

// An optional boolean option: `fallback` when absent. Anything but true/false
// is an error (a truthy 1 or 'no' must not be read silently one way).
function toFlag(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${String(value)}`);
  return value;
}

function toPositive(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be finite and > 0, got ${value}`);
  return value;
}

// Nearest positive finite float32: the kernels take float temperatures/scales.
const toFloat32 = (x) => Math.min(Math.max(Math.fround(x), 1.4e-45), 3.4028234663852886e38);

const FUSED_HINT = ' (for attention over long sequences, pass weights: false to use the fused path)';

function checkBytes(bytes, what, hint = '') {
  if (bytes > MEMORY_LIMIT) {
    throw new RangeError(`${what} needs ${(bytes / 2 ** 30).toFixed(1)} GiB of wasm memory; the limit is 2 GiB${hint}`);
  }
}

// Masks shared by attention and multiHeadAttention, validated for n_q x n_k.
function toMasks(opts, n_q, n_k) {
  const mask = opts.mask === undefined || opts.mask === null ? null
    : toMatrix(opts.mask, 'mask', { allowMinusInf: true });
  if (mask) expectShape(mask, 'mask', n_q, n_k, 'one additive term per query and key');
  const padding = opts.keyPaddingMask === undefined || opts.keyPaddingMask === null ? null
    : toPadding(opts.keyPaddingMask, n_k);
  return { mask, padding, causal: toFlag(opts.causal, 'causal', false) };
}

// Xq and Xkv of a multi-head call; Xkv null or undefined = self-attention.
function toSequences(Xq, Xkv) {
  Xq = toMatrix(Xq, 'Xq');
  Xkv = Xkv === null || Xkv === undefined ? Xq : toMatrix(Xkv, 'Xkv');
  expectShape(Xkv, 'Xkv', undefined, Xq.cols, 'keys and values come from rows as wide as Xq (d_model)');
  return [Xq, Xkv];
}

// The parameters of a multi-head layer of width d, validated.
function toLayer(opts, d) {
  if (opts.heads === undefined) throw new TypeError('heads is required (a positive integer that divides d_model)');
  const heads = checkSize(opts.heads, 'heads');
  if (d % heads !== 0) throw new RangeError(`heads (${heads}) must divide d_model (${d})`);
  const layer = { heads, d };
  for (const key of ['Wq', 'Wk', 'Wv', 'Wo']) {
    if (opts[key] === undefined) throw new TypeError(`${key} is required (${d}x${d})`);
    layer[key] = toMatrix(opts[key], key);
    expectShape(layer[key], key, d, d, 'd_model x d_model');
  }
  for (const key of ['bq', 'bk', 'bv', 'bo']) {
    layer[key] = opts[key] === undefined || opts[key] === null ? null : toVector(opts[key], key, d, 'one per column of d_model');
  }
  checkBytes(16 * d * d, `a multi-head layer with d_model = ${d}`);
  return layer;
}

// Everything a multi-head call needs besides the layer, checked before any
// wasm memory is touched.
function toMhaCall(layer, Xq, Xkv, opts) {
  const { heads, d } = layer;
  const [n_q, n_k] = [Xq.rows, Xkv.rows];
  const wantWeights = toFlag(opts.weights, 'weights', true);
  checkBytes(
    4 * (3 * n_q * d + 3 * n_k * d + 4 * d * d) + (wantWeights || opts.mask ? 4 * heads * n_q * n_k : 0),
    `multiHeadAttention with ${n_q} queries, ${n_k} keys and ${heads} heads`,
    wantWeights ? FUSED_HINT : '',
  );
  return { layer, Xq, Xkv, wantWeights, masks: toMasks(opts, n_q, n_k) };
}

// Copies a layer's parameters into `arena`; returns the attn_mha_params
// struct: Wq, Wk, Wv, Wo, bq, bk, bv, bo pointers in that order.
function putLayer(arena, layer) {
  return arena.words(['Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo'].map((key) => arena.input(layer[key])));
}

// Z (rows x heads*dh) as one matrix per head; each head's rows are copied
// with set(), which measured 2-3x faster than element loops.
function splitHeads(Z, rows, heads, dh) {
  return Array.from({ length: heads }, (_, h) => {
    const data = new Float32Array(rows * dh);
    for (let i = 0; i < rows; i++) {
      const from = (i * heads + h) * dh;
      data.set(Z.subarray(from, from + dh), i * dh);
    }
    return { rows, cols: dh, data };
  });
}

// Layers dropped without dispose() give their wasm memory back when collected.
const layerRegistry = new FinalizationRegistry((arena) => arena.free());

// ---- calls into wasm ------------------------------------------------------

// Allocations of one call, all freed together.
class Arena {
  constructor(ex) {
    this.ex = ex;
    this.ptrs = [];
    this.peak = 0; // most bytes in use at once during this call
  }
  alloc(bytes) {
    const ptr = this.ex.attn_alloc(Math.max(bytes, 1)) >>> 0;
    if (ptr === 0) throw new RangeError(`attention-wasm: out of wasm memory allocating ${bytes} bytes`);
    this.ptrs.push(ptr);
    this.peak = Math.max(this.peak, this.ex.attn_memory_in_use() >>> 0);
    return ptr;
  }
  floats(n) {
    return this.alloc(4 * n);
  }
  put(typed) {
    const ptr = this.alloc(typed.byteLength);
    new Uint8Array(this.ex.memory.buffer, ptr, typed.byteLength).set(
      new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength),
    );
    return ptr;
  }
  // A matrix from toMatrix/toVector, copied in and then scanned for NaN and
  // ±Infinity by the kernel's SIMD check (far faster than a JavaScript loop
  // over every input of every call). 0 (NULL) for an absent optional input.
  input(m) {
    if (!m) return 0;
    const ptr = this.put(m.data);
    const bad = this.ex.attn_first_nonfinite(ptr, m.data.length, m.allowMinusInf ? 1 : 0) >>> 0;
    if (bad < m.data.length) {
      const what = m.allowMinusInf ? 'finite or -Infinity' : 'finite (as float32)';
      const at = m.vector ? `index ${bad}` : position(bad, m.cols);
      throw new RangeError(`${m.name} has ${m.data[bad]} at ${at}; values must be ${what}`);
    }
    return ptr;
  }
  words(values) {
    const ptr = this.alloc(4 * values.length);
    new Int32Array(this.ex.memory.buffer, ptr, values.length).set(values);
    return ptr;
  }
  free() {
    for (const ptr of this.ptrs) this.ex.attn_free(ptr);
    this.ptrs = [];
  }
}

class Attention {
  #ex;
  constructor(exports, simd) {
    this.#ex = exports;
    /** True when the SIMD build runs. */
    this.simd = exports.attn_simd_enabled() === 1 && simd;
  }

  /** Bytes the module has allocated right now (0 between calls). */
  memoryInUse() {
    return this.#ex.attn_memory_in_use() >>> 0;
  }

  #peak = 0;
  /**
   * The most bytes in use at any moment of the calls since the previous
   * memoryPeak() (every byte a call uses, workspace included, comes through
   * one allocator); starts counting again from 0.
   */
  memoryPeak() {
    const peak = this.#peak;
    this.#peak = 0;
    return peak;
  }

  /** A matrix {rows, cols, data: Float32Array}; data defaults to zeros. */
  matrix(rows, cols, data) {
    checkSize(rows, 'rows');
    checkSize(cols, 'cols');
    if (rows * cols > MEMORY_LIMIT / 4) {
      throw new RangeError(`rows*cols = ${rows}*${cols} values would not fit in wasm memory (2 GiB)`);
    }
    if (data === undefined) return { rows, cols, data: new Float32Array(rows * cols) };
    const values = toMatrix({ rows, cols, data }, 'matrix').data;
    // NaN and +Infinity are never valid; -Infinity is, in masks and softmax.
    const bad = values.findIndex((v) => Number.isNaN(v) || v === Infinity);
    if (bad >= 0) {
      throw new RangeError(`matrix.data has ${values[bad]} at ${position(bad, cols)}; values must be finite (or -Infinity in a mask)`);
    }
    return { rows, cols, data: values };
  }

  #run(fn) {
    const arena = new Arena(this.#ex);
    try {
      return fn(arena, this.#ex);
    } finally {
      this.#peak = Math.max(this.#peak, arena.peak);
      arena.free();
    }
  }

  #check(status, what) {
    if (status !== 0) {
      const ex = this.#ex;
      const ptr = ex.attn_status_name(status) >>> 0;
      const bytes = new Uint8Array(ex.memory.buffer, ptr, 64);
      const text = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
      throw new RangeError(`${what}: ${text} (status ${status})`);
    }
  }

  #read(ptr, rows, cols) {
    const data = new Float32Array(this.#ex.memory.buffer, ptr, rows * cols).slice();
    return { rows, cols, data };
  }

  /** C = A B, or A B^T with {transposeB: true}. */
  matmul(A, B, options) {
    const opts = toOptions(options, 'matmul');
    A = toMatrix(A, 'A');
    B = toMatrix(B, 'B');
    const t = toFlag(opts.transposeB, 'transposeB', false);
    const k = t ? B.cols : B.rows;
    if (A.cols !== k) {
      throw new RangeError(
        `A is ${A.rows}x${A.cols} and B is ${B.rows}x${B.cols}: ` +
          `A.cols must equal ${t ? 'B.cols (transposeB)' : 'B.rows'}`,
      );
    }
    const n = t ? B.rows : B.cols;
    checkBytes(4 * (A.data.length + B.data.length + A.rows * n), 'matmul');
    return this.#run((arena, ex) => {
      const c = arena.floats(A.rows * n);
      const status = ex.attn_matmul(c, arena.input(A), arena.input(B), A.rows, A.cols, n, t ? 1 : 0);
      this.#check(status, 'matmul');
      return this.#read(c, A.rows, n);
    });
  }

  /** Row-wise softmax(M / temperature); a row of all -Infinity gives zeros. */
  softmax(M, options) {
    const opts = toOptions(options, 'softmax');
    M = toMatrix(M, 'M', { allowMinusInf: true });
    const temperature = toPositive(opts.temperature, 'temperature', 1);
    checkBytes(8 * M.data.length, 'softmax');
    return this.#run((arena, ex) => {
      const p = arena.input(M);
      this.#check(ex.attn_softmax_rows(p, p, M.rows, M.cols, toFloat32(temperature)), 'softmax');
      return this.#read(p, M.rows, M.cols);
    });
  }

  /** Sinusoidal positional encoding, n positions x d features. */
  positionalEncoding(n, d) {
    checkSize(n, 'n');
    checkSize(d, 'd');
    checkBytes(4 * n * d, 'positionalEncoding');
    return this.#run((arena, ex) => {
      const p = arena.floats(n * d);
      this.#check(ex.attn_positional_encoding(p, n, d), 'positionalEncoding');
      return this.#read(p, n, d);
    });
  }

  /**
   * softmax(scale Q K^T + masks) V. Returns {output, weights}; weights is
   * null with {weights: false}, which also selects the fused kernel whose
   * memory grows with N*d instead of N^2.
   */
  attention(Q, K, V, options) {
    const opts = toOptions(options, 'attention');
    Q = toMatrix(Q, 'Q');
    K = toMatrix(K, 'K');
    V = toMatrix(V, 'V');
    expectShape(K, 'K', undefined, Q.cols, 'keys need as many columns as the queries Q');
    expectShape(V, 'V', K.rows, undefined, 'one value row per key in K');
    const [n_q, n_k, d_k, d_v] = [Q.rows, K.rows, Q.cols, V.cols];
    const scale = toPositive(opts.scale, 'scale', 1 / Math.sqrt(d_k));
    const wantWeights = toFlag(opts.weights, 'weights', true);
    checkBytes(
      4 * (Q.data.length + K.data.length + V.data.length + n_q * d_v) +
        (wantWeights || opts.mask ? 4 * n_q * n_k : 0),
      `attention with ${n_q} queries and ${n_k} keys`,
      wantWeights ? FUSED_HINT : '',
    );
    const masks = toMasks(opts, n_q, n_k);
    return this.#run((arena, ex) => {
      const out = arena.floats(n_q * d_v);
      const w = wantWeights ? arena.floats(n_q * n_k) : 0;
      const ws = ex.attn_attention_workspace_size(n_q, n_k, d_k, d_v, wantWeights ? 1 : 0) >>> 0;
      const status = ex.attn_attention(
        out, w, arena.input(Q), arena.input(K), arena.input(V), n_q, n_k, d_k, d_v,
        toFloat32(scale), this.#masks(arena, masks), ws ? arena.alloc(ws) : 0,
      );
      this.#check(status, 'attention');
      return { output: this.#read(out, n_q, d_v), weights: wantWeights ? this.#read(w, n_q, n_k) : null };
    });
  }

  // attn_masks {const float *add; const uint8_t *key_padding; int causal}
  #masks(arena, { mask, padding, causal }) {
    if (!mask && !padding && !causal) return 0;
    return arena.words([arena.input(mask), padding ? arena.put(padding) : 0, causal ? 1 : 0]);
  }

  /**
   * Multi-head attention, Y = Concat(Z_1..Z_h) Wo + bo with Q = Xq Wq + bq,
   * K = Xkv Wk + bk, V = Xkv Wv + bv. Xkv null or undefined = self-attention.
   * Returns {output, weights: [per head] | null, heads: [per-head Z_i]}.
   */
  multiHeadAttention(Xq, Xkv, options) {
    const opts = toOptions(options, 'multiHeadAttention');
    [Xq, Xkv] = toSequences(Xq, Xkv);
    const call = toMhaCall(toLayer(opts, Xq.cols), Xq, Xkv, opts);
    return this.#run((arena) => this.#mha(arena, putLayer(arena, call.layer), call));
  }

  /**
   * The same layer with its parameters kept in wasm memory, for running it
   * many times without copying Wq..Wo each call (memoryInUse() counts them
   * until dispose()). Options: heads, Wq, Wk, Wv, Wo, bq, bk, bv, bo.
   * layer.run(Xq, Xkv, {mask, causal, keyPaddingMask, weights}) returns what
   * multiHeadAttention returns.
   */
  multiHeadAttentionLayer(options) {
    const opts = toOptions(options, 'multiHeadAttentionLayer');
    if (opts.Wq === undefined) throw new TypeError('Wq is required (d_model x d_model)');
    const layer = toLayer(opts, toMatrix(opts.Wq, 'Wq').rows);
    const resident = new Arena(this.#ex);
    let params;
    try {
      params = putLayer(resident, layer);
    } catch (e) {
      resident.free();
      throw e;
    }
    const token = {};
    layerRegistry.register(token, resident, token); // frees a layer that is dropped undisposed
    return {
      heads: layer.heads,
      dModel: layer.d,
      run: (Xq, Xkv, runOptions) => {
        if (!params) throw new Error('this multiHeadAttentionLayer was disposed');
        const o = toOptions(runOptions, 'run');
        [Xq, Xkv] = toSequences(Xq, Xkv);
        expectShape(Xq, 'Xq', undefined, layer.d, 'rows as wide as the layer (d_model)');
        const call = toMhaCall(layer, Xq, Xkv, o);
        return this.#run((arena) => this.#mha(arena, params, call));
      },
      dispose: () => {
        layerRegistry.unregister(token);
        resident.free();
        params = 0;
      },
    };
  }

  // One checked multi-head call (toMhaCall) with the layer's parameters at
  // `params`; the per-call buffers come from `arena`.
  #mha(arena, params, { layer: { heads, d }, Xq, Xkv, wantWeights, masks }) {
    const ex = this.#ex;
    const [n_q, n_k, dh] = [Xq.rows, Xkv.rows, d / heads];
    const y = arena.floats(n_q * d);
    const z = arena.floats(n_q * d);
    const w = wantWeights ? arena.floats(heads * n_q * n_k) : 0;
    const xq = arena.input(Xq);
    const xkv = Xkv === Xq ? xq : arena.input(Xkv);
    const ws = ex.attn_mha_workspace_size(n_q, n_k, d, heads, wantWeights ? 1 : 0) >>> 0;
    const status = ex.attn_mha(
      y, w, z, xq, xkv, n_q, n_k, d, heads, params, this.#masks(arena, masks), arena.alloc(ws),
    );
    this.#check(status, 'multiHeadAttention');
    const weights = wantWeights
      ? Array.from({ length: heads }, (_, h) => this.#read(w + 4 * h * n_q * n_k, n_q, n_k))
      : null;
    // Z comes out in one piece; it is split into per-head matrices only when
    // `heads` is first read (most callers want only the output).
    const Z = this.#read(z, n_q, d).data;
    let perHead = null;
    return {
      output: this.#read(y, n_q, d),
      weights,
      get heads() {
        return (perHead ??= splitHeads(Z, n_q, heads, dh));
      },
    };
  }

}

// Types for attention-wasm's JavaScript API (web/attention.js).

/** A row-major float32 matrix. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** Anything the API accepts as a matrix: {rows, cols, data} or an array of rows. */
export type MatrixLike =
  | { rows: number; cols: number; data: ArrayLike<number> }
  | ArrayLike<ArrayLike<number>>;

/** The builds of the kernels: relaxed SIMD (fused multiply-add), plain wasm SIMD, scalar. */
export type Build = 'relaxed' | 'simd' | 'scalar';

/** Which parts of the engine loadAttention loads. */
export type Parts = 'all' | 'attention';

export interface LoadOptions {
  /**
   * 'all' (the default): every call. 'attention': the attention part alone
   * (build/attention-only*.wasm, and none of the training part's JavaScript):
   * attention, masks, windows, multi-head attention and a resident layer's run,
   * linear attention and random features, positional encoding, softmax and
   * softmaxBackward, matmul. Its training calls (attentionBackward,
   * multiHeadAttentionBackward, layer.backward, createTransformer) throw an
   * Error that names parts: 'all'.
   */
  parts?: Parts;
  /**
   * Force a build; an Error when the engine does not validate it. Default: the best the
   * engine validates (relaxed > simd > scalar). With `module`, `wasmBinary` or `wasmUrl`
   * the build is the one those are, and `build` (or `simd`) only checks it: an Error if
   * they are another.
   */
  build?: Build;
  /** Force the SIMD (true) or scalar (false) build; `build` wins when both are given. */
  simd?: boolean;
  /**
   * A compiled module of the engine (attn.module of an engine loaded before, for instance
   * posted to a Web Worker): no fetch, no compile. Checked to be a WebAssembly.Module that
   * exports what `parts` needs. Wins over wasmBinary and wasmUrl.
   */
  module?: WebAssembly.Module;
  /** The .wasm bytes themselves: no fetch, and no URL is made. Wins over wasmUrl. */
  wasmBinary?: BufferSource;
  /**
   * Where the .wasm file is. A relative URL is relative to the page (document.baseURI) or a
   * worker's script, in Node to the working directory. Default:
   * ../build/attention[-only][.relaxed|.simd].wasm next to web/attention.js (a literal
   * new URL(..., import.meta.url) per file, which bundlers copy).
   */
  wasmUrl?: string | URL;
  /**
   * The register tile of every matrix product. 'auto' (default): the relaxed build times
   * its two, 2x16 and 6x8, once per page, worker or process (one small product while
   * loading, the rest in the background: attn.tuned) and keeps the faster; the other
   * builds and the attention part alone have 2x16 only. '2x16' or '6x8' forces one ('6x8'
   * is an Error on an engine without it).
   */
  tiles?: 'auto' | Tiles;
}

/** A register tile of the matrix products: rows x columns of the output per step. */
export type Tiles = '2x16' | '6x8';

export interface MaskOptions {
  /** n_q x n_k matrix added to the scaled scores; -Infinity blocks a key. */
  mask?: MatrixLike | null;
  /** One flag per key, 1/true = padding (ignored), as in PyTorch. */
  keyPaddingMask?: ArrayLike<number | boolean> | null;
  /** Query i sees keys j <= i only. */
  causal?: boolean;
  /** Sliding window (Longformer): query i sees keys j with |i - j| <= window (an integer >= 0). */
  window?: number;
  /** With window: positions that see every key and are seen by every query (distinct, in range). */
  globalTokens?: ArrayLike<number>;
}

export interface LinearAttentionOptions {
  /** Number of random features m (default 256): more features, a closer estimate. */
  features?: number;
  /** Seed of the features (integer 0 .. 2^32 - 1, default 0): the same seed gives the same output. */
  seed?: number;
  /** Query i sees keys j <= i only (prefix sums). */
  causal?: boolean;
  /** Multiplies Q K^T; default 1/sqrt(d_k). */
  scale?: number;
}

export interface AttentionOptions extends MaskOptions {
  /** Multiplies Q K^T; default 1/sqrt(d_k). The article's temperature is 1/scale. */
  scale?: number;
  /** Return the n_q x n_k weights (default true). false runs the fused kernel: memory O(N d). */
  weights?: boolean;
  /**
   * An earlier result of the same shapes (or null): the new result's arrays are its arrays,
   * filled again, instead of fresh ones (which browsers can take longer to hand out than the
   * call takes).
   */
  into?: AttentionResult | null;
}

export interface MultiHeadLayerOptions {
  heads: number;
  Wq: MatrixLike;
  Wk: MatrixLike;
  Wv: MatrixLike;
  Wo: MatrixLike;
  bq?: ArrayLike<number> | null;
  bk?: ArrayLike<number> | null;
  bv?: ArrayLike<number> | null;
  bo?: ArrayLike<number> | null;
}

/** What a multi-head layer's run() takes. */
export interface MultiHeadRunOptions extends MaskOptions {
  /** Return per-head weights (default true). */
  weights?: boolean;
  /** An earlier result of the same shapes (or null) whose arrays are filled again, as in attention(). */
  into?: MultiHeadResult | null;
}

export interface MultiHeadOptions extends MultiHeadRunOptions, MultiHeadLayerOptions {}

export interface AttentionResult {
  /** n_q x d_v */
  output: Matrix;
  /** n_q x n_k, or null with {weights: false} */
  weights: Matrix | null;
}

export interface MultiHeadResult {
  /** n_q x d_model */
  output: Matrix;
  /** One n_q x n_k matrix per head, or null with {weights: false} */
  weights: Matrix[] | null;
  /** Per-head outputs Z_i (n_q x d_model/heads), before Wo; split out of Z on first read */
  readonly heads: Matrix[];
}

/** Gradients of attention(Q, K, V) with respect to Q, K and V. */
export interface AttentionGradients {
  /** n_q x d_k */
  dQ: Matrix;
  /** n_k x d_k */
  dK: Matrix;
  /** n_k x d_v */
  dV: Matrix;
}

/** Gradients of multi-head attention with respect to its inputs and parameters. */
export interface MultiHeadGradients {
  /** n_q x d_model; for self-attention (Xkv null) the whole gradient of X */
  dXq: Matrix;
  /** n_k x d_model, or null for self-attention */
  dXkv: Matrix | null;
  /** d_model x d_model each */
  dWq: Matrix;
  dWk: Matrix;
  dWv: Matrix;
  dWo: Matrix;
  /** d_model each, returned whether or not the forward had biases */
  dbq: Float32Array;
  dbk: Float32Array;
  dbv: Float32Array;
  dbo: Float32Array;
}

/** A multi-head layer whose parameters stay in wasm memory until dispose(). */
export interface MultiHeadLayer {
  readonly heads: number;
  readonly dModel: number;
  run(Xq: MatrixLike, Xkv?: MatrixLike | null, options?: MultiHeadRunOptions): MultiHeadResult;
  /** Training part (an Error with parts: 'attention'). The layer's gradients given dY = dLoss/doutput (n_q x d_model). */
  backward(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, dY: MatrixLike, options?: MaskOptions & { weights?: boolean }): MultiHeadGradients;
  /** Frees the parameters; run() throws afterwards. */
  dispose(): void;
}

/** createTransformer's options: attention-only layers, or GPT blocks with mlp and layerNorm. */
export interface TransformerOptions {
  vocab: number;
  /** Most input tokens; a sequence has at most context + 1 tokens. */
  context: number;
  dModel: number;
  /** Must divide dModel. */
  heads: number;
  layers: number;
  /** Each layer adds a GELU MLP (hidden width 4 dModel, exact erf). Default false. */
  mlp?: boolean;
  /** Pre-norm LayerNorm before attention and the MLP, and a final one (eps 1e-5). Default false. */
  layerNorm?: boolean;
  /** The initialisation's seed (default 0): the same seed, the same model. */
  seed?: number;
}

/** torch.optim.AdamW's hyperparameters, with its defaults. */
export interface AdamWOptions {
  lr?: number; // 1e-3
  weightDecay?: number; // 1e-2
  beta1?: number; // 0.9
  beta2?: number; // 0.999
  eps?: number; // 1e-8
}

/** Equal-length sequences of token ids in [0, vocab), each 2 .. context + 1 long. */
export type TokenSequences = ArrayLike<ArrayLike<number>>;

export interface GenerateOptions {
  /** New tokens to produce (>= 1). */
  steps: number;
  /** Default 'greedy'. */
  strategy?: 'greedy' | 'sample' | 'beam';
  /** 'sample' only: logits are divided by it (> 0, default 1). */
  temperature?: number;
  /** 'beam' only: the beam width (1 to 64, default 4). */
  beam?: number;
  /** 'sample' only: the random stream (a uint32, default 0); the same seed gives the same text. */
  seed?: number;
}

export interface Generated {
  /** The new tokens (not the prompt). */
  tokens: number[];
  /** The model's log-probability (temperature 1) of each new token given what precedes it. */
  logProbs: Float64Array;
  /** Their sum: the log-probability of the whole continuation. */
  logProb: number;
}

/** A transformer's shape and seed, as it was created. */
export interface TransformerShape {
  readonly vocab: number;
  readonly context: number;
  readonly dModel: number;
  readonly heads: number;
  readonly layers: number;
  readonly mlp: boolean;
  readonly layerNorm: boolean;
  readonly seed: number;
}

/**
 * A causal decoder whose parameters, gradients and AdamW moments stay in
 * wasm memory until dispose() (or until it is garbage collected). Inputs
 * are tokens[0 .. L-2], targets tokens[1 .. L-1].
 */
export interface Transformer extends TransformerShape {
  /** AdamW steps taken so far. */
  readonly steps: number;
  /** Forward, backward and one AdamW update; returns the batch's mean loss before the update. */
  trainStep(sequences: TokenSequences, options?: AdamWOptions): number;
  /** The gradient of the mean loss for every parameter, without an update. */
  gradients(sequences: TokenSequences): { loss: number; grads: Record<string, Float32Array> };
  /**
   * One AdamW update from `grads` (every parameter's, named as gradients() names them; a sum of
   * several batches' shares, say): trainStep is gradients() then update() with its grads, to the bit.
   */
  update(grads: Record<string, ArrayLike<number>>, options?: AdamWOptions): void;
  /** perToken: sequences.length x (L - 1) next-token cross-entropies; mean: their mean. */
  loss(sequences: TokenSequences): { mean: number; perToken: Float32Array };
  /** weights[layer][head], each (L - 1) x (L - 1), on one sequence. */
  attention(sequence: ArrayLike<number>): Matrix[][];
  /** (L - 1) x vocab next-token logits of one sequence. */
  logits(sequence: ArrayLike<number>): Matrix;
  /** Switch a head's output off (true, the default) or back on (false) for every later call. */
  ablate(layer: number, head: number, off?: boolean): void;
  /**
   * Every parameter by name, row-major, fresh copies: tok, pos, layers.i.Wq .. Wo and bq .. bo,
   * Wu, bu; with mlp also layers.i.W1, b1, W2, b2; with layerNorm also layers.i.ln1.g,
   * layers.i.ln1.b and lnf.g, lnf.b (with both, layers.i.ln2.g, layers.i.ln2.b too).
   */
  parameters(): Record<string, Float32Array>;
  /** Overwrite the named parameters (same sizes; all checked before any is written). */
  setParameters(values: Record<string, ArrayLike<number>>): void;
  /**
   * steps new tokens after prompt, decoded with keys and values cached in wasm (a new token
   * costs one row per layer). Past the context the cache restarts from the last ceil(context / 2) tokens.
   */
  generate(prompt: ArrayLike<number>, options: GenerateOptions): Generated;
  /** Frees the model's wasm memory; every later call throws. */
  dispose(): void;
}

export interface Attention {
  /** Which build runs (the one the module is). */
  readonly build: Build;
  /** True when a SIMD build (relaxed or plain) runs. */
  readonly simd: boolean;
  /** 'all', or 'attention': the attention part alone, whose training calls throw. */
  readonly parts: Parts;
  /**
   * The compiled module: post it to a Web Worker (postMessage), which gets an engine of its
   * own with loadAttention({ module, parts }) and neither fetches nor compiles the .wasm again.
   */
  readonly module: WebAssembly.Module;
  /**
   * The register tile the matrix products run: resolves once tiles: 'auto' has timed both
   * (2x16 runs meanwhile), at once otherwise. The results are the same bits under either.
   */
  readonly tuned: Promise<Tiles>;
  /** Bytes of wasm memory the module holds right now (0 between calls). */
  memoryInUse(): number;
  /** Most bytes in use at any moment of the calls since the previous memoryPeak(); resets the count. */
  memoryPeak(): number;
  /**
   * A checked matrix {rows, cols, data: Float32Array} (zeros without data; NaN and +Infinity
   * are a RangeError), the form every call accepts without copying row arrays.
   */
  matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix;
  attention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: AttentionOptions): AttentionResult;
  multiHeadAttention(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, options: MultiHeadOptions): MultiHeadResult;
  /** The same computation with Wq..Wo copied into wasm once, for many calls. */
  multiHeadAttentionLayer(options: MultiHeadLayerOptions): MultiHeadLayer;
  /** Row-wise softmax(M / temperature); -Infinity entries get 0, an all -Infinity row gives zeros. */
  softmax(M: MatrixLike, options?: { temperature?: number }): Matrix;
  /** A·B, or A·Bᵀ with transposeB; `into`, a matrix of the product's shape, is filled and returned instead of a fresh one. */
  matmul(A: MatrixLike, B: MatrixLike, options?: { transposeB?: boolean; into?: Matrix | null }): Matrix;
  /** Performer's FAVOR+: softmax(scale Q K^T) V estimated with positive orthogonal random features in O(N m d). */
  linearAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: LinearAttentionOptions): { output: Matrix };
  /** The m x d orthogonal random features linearAttention uses for a seed (rows ~ N(0, I_d)). */
  randomFeatures(m: number, d: number, options?: { seed?: number }): Matrix;
  /** Sinusoidal positional encoding (n positions x d features). */
  positionalEncoding(n: number, d: number): Matrix;
  /**
   * Gradient of softmax(M / temperature) with respect to M, from its result `weights` and
   * dWeights = dLoss/dweights: weights * (dWeights - rowsum(weights * dWeights)) / temperature.
   */
  softmaxBackward(weights: MatrixLike, dWeights: MatrixLike, options?: { temperature?: number }): Matrix;
  /**
   * Training part (an Error with parts: 'attention').
   * dQ, dK, dV of attention(Q, K, V, options) given dOutput = dLoss/doutput (n_q x d_v).
   * Masked positions pass no gradient; the additive mask is a constant. weights: false
   * recomputes the weights tile by tile from each row's log-sum-exp (memory O(N d)).
   */
  attentionBackward(Q: MatrixLike, K: MatrixLike, V: MatrixLike, dOutput: MatrixLike, options?: Omit<AttentionOptions, 'into'>): AttentionGradients;
  /** Training part. Every gradient of multiHeadAttention(Xq, Xkv, options) given dY = dLoss/doutput (n_q x d_model). */
  multiHeadAttentionBackward(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, dY: MatrixLike, options: Omit<MultiHeadOptions, 'into'>): MultiHeadGradients;
  /** Training part. A tiny transformer trained in wasm (attention-only layers, or GPT blocks with mlp and layerNorm). */
  createTransformer(options: TransformerOptions): Transformer;
}

export interface PoolOptions extends LoadOptions {
  /** How many workers (a positive integer); default: the cores the platform reports minus one, at least 1. */
  workers?: number;
}

/**
 * The engine's calls run over workers (Web Workers in browsers, worker_threads in Node), each
 * with the page's compiled module: the same options, checks and errors (a bad argument rejects
 * before anything is posted) and the same results, bit for bit, as the engine's calls. Query
 * rows are split across workers (multi-head attention: heads, then rows of the output
 * projection); calls too small for messages to pay run on the pool's own engine, with none.
 * No SharedArrayBuffer, so no cross-origin isolation needed.
 */
/** A transformer whose copies live in an AttentionPool's workers (createTransformer). */
export interface PoolTransformer extends TransformerShape {
  /** One data-parallel step; the batch's mean loss before the update. */
  trainStep(sequences: TokenSequences, options?: AdamWOptions): Promise<number>;
  loss(sequences: TokenSequences): Promise<{ mean: number; perToken: Float32Array }>;
  parameters(): Promise<Record<string, Float32Array>>;
  /** Frees every copy's wasm memory; any later call rejects. */
  dispose(): Promise<void>;
}

/** A multi-head layer whose parameters live in an AttentionPool's workers (multiHeadAttentionLayer). */
export interface PoolLayer {
  readonly heads: number;
  readonly dModel: number;
  /** The engine layer's run(), over the workers: the same bits. */
  run(Xq: MatrixLike, Xkv?: MatrixLike | null, options?: MultiHeadRunOptions): Promise<MultiHeadResult>;
  /** Frees every worker's copy; run() rejects afterwards. */
  dispose(): Promise<void>;
}

export interface AttentionPool {
  /** How many workers run. */
  readonly workers: number;
  /** Which build the pool's engines run. */
  readonly build: Build;
  /** 'all', or 'attention': the attention part alone. */
  readonly parts: Parts;
  attention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: AttentionOptions): Promise<AttentionResult>;
  multiHeadAttention(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, options: MultiHeadOptions): Promise<MultiHeadResult>;
  /**
   * The layer's parameters posted to every worker once and kept in its wasm memory (memoryInUse
   * counts them) until dispose(), so that each run() posts only its sequences.
   */
  multiHeadAttentionLayer(options: MultiHeadLayerOptions): Promise<PoolLayer>;
  /** Split by query rows without causal; causal (prefix sums) runs whole, on one worker. */
  linearAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: LinearAttentionOptions): Promise<{ output: Matrix }>;
  /**
   * Training part (an Error with parts: 'attention'). The forward by blocks of query rows, then
   * dQ by blocks of rows and dK, dV by blocks of 128 keys.
   */
  attentionBackward(Q: MatrixLike, K: MatrixLike, V: MatrixLike, dOutput: MatrixLike, options?: Omit<AttentionOptions, 'into'>): Promise<AttentionGradients>;
  /**
   * Training part. A transformer trained data-parallel: a copy in every worker (the same seed), each
   * step each worker a share of the batch, the gradients summed in worker order, the same AdamW update
   * on every copy: within float32 rounding of the engine's model (one worker: to the bit).
   */
  createTransformer(options: TransformerOptions): Promise<PoolTransformer>;
  /** Bytes each worker's engine holds, one number per worker (0 between calls, but for live pool transformers and layers). */
  memoryInUse(): Promise<number[]>;
  /**
   * Ends the workers (as collecting the pool does, and in a browser the page going away); calls
   * in flight and every later call reject with an Error that says the pool was closed.
   */
  close(): Promise<void>;
}

/** Load the kernels: every call, or with { parts: 'attention' } the attention part alone. */
export function loadAttention(options?: LoadOptions): Promise<Attention>;
/** A pool of workers running the engine's calls on every core (see AttentionPool). */
export function attentionPool(options?: PoolOptions): Promise<AttentionPool>;
/**
 * Compile the engine without instantiating it (loadAttention's options but `module`): post
 * the module to Web Workers, each of which calls loadAttention({ module, parts }) and neither
 * fetches nor compiles the .wasm again.
 */
export function compileAttention(options?: Omit<LoadOptions, 'module'>): Promise<WebAssembly.Module>;
export function simdSupported(): boolean;
/** True when the engine validates relaxed SIMD (f32x4.relaxed_madd). */
export function relaxedSimdSupported(): boolean;
/** The build loadAttention() picks by default: the best the engine validates. */
export function bestBuild(): Build;

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

export interface LoadOptions {
  /** Force the SIMD (true) or scalar (false) build. Default: SIMD where the engine validates it. */
  simd?: boolean;
  /** Where the .wasm file is. Default: ../build/attention[.simd].wasm next to attention.js. */
  wasmUrl?: string | URL;
  /** The .wasm bytes themselves (skips fetching). */
  wasmBinary?: BufferSource;
}

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

export interface MultiHeadOptions extends MaskOptions, MultiHeadLayerOptions {
  /** Return per-head weights (default true). */
  weights?: boolean;
}

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

/** A multi-head layer whose parameters stay in wasm memory until dispose(). */
export interface MultiHeadLayer {
  readonly heads: number;
  readonly dModel: number;
  run(Xq: MatrixLike, Xkv?: MatrixLike | null, options?: MaskOptions & { weights?: boolean }): MultiHeadResult;
  /** Frees the parameters; run() throws afterwards. */
  dispose(): void;
}

export interface Attention {
  /** True when the SIMD build runs. */
  readonly simd: boolean;
  /** Bytes of wasm memory the module holds right now (0 between calls). */
  memoryInUse(): number;
  /** Most bytes in use at any moment of the calls since the previous memoryPeak(); resets the count. */
  memoryPeak(): number;
  matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix;
  attention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: AttentionOptions): AttentionResult;
  multiHeadAttention(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, options: MultiHeadOptions): MultiHeadResult;
  /** The same computation with Wq..Wo copied into wasm once, for many calls. */
  multiHeadAttentionLayer(options: MultiHeadLayerOptions): MultiHeadLayer;
  /** Row-wise softmax(M / temperature); -Infinity entries get 0, an all -Infinity row gives zeros. */
  softmax(M: MatrixLike, options?: { temperature?: number }): Matrix;
  matmul(A: MatrixLike, B: MatrixLike, options?: { transposeB?: boolean }): Matrix;
  /** Performer's FAVOR+: softmax(scale Q K^T) V estimated with positive orthogonal random features in O(N m d). */
  linearAttention(Q: MatrixLike, K: MatrixLike, V: MatrixLike, options?: LinearAttentionOptions): { output: Matrix };
  /** The m x d orthogonal random features linearAttention uses for a seed (rows ~ N(0, I_d)). */
  randomFeatures(m: number, d: number, options?: { seed?: number }): Matrix;
  /** Sinusoidal positional encoding (n positions x d features). */
  positionalEncoding(n: number, d: number): Matrix;
}

export function loadAttention(options?: LoadOptions): Promise<Attention>;
export function simdSupported(): boolean;

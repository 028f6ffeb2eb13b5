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
  run(Xq: MatrixLike, Xkv?: MatrixLike | null, options?: MaskOptions & { weights?: boolean }): MultiHeadResult;
  /** The layer's gradients given dY = dLoss/doutput (n_q x d_model). */
  backward(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, dY: MatrixLike, options?: MaskOptions & { weights?: boolean }): MultiHeadGradients;
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
  /** Sinusoidal positional encoding (n positions x d features). */
  positionalEncoding(n: number, d: number): Matrix;
  /**
   * Gradient of softmax(M / temperature) with respect to M, from its result `weights` and
   * dWeights = dLoss/dweights: weights * (dWeights - rowsum(weights * dWeights)) / temperature.
   */
  softmaxBackward(weights: MatrixLike, dWeights: MatrixLike, options?: { temperature?: number }): Matrix;
  /**
   * dQ, dK, dV of attention(Q, K, V, options) given dOutput = dLoss/doutput (n_q x d_v).
   * Masked positions pass no gradient; the additive mask is a constant. weights: false
   * recomputes the weights tile by tile from each row's log-sum-exp (memory O(N d)).
   */
  attentionBackward(Q: MatrixLike, K: MatrixLike, V: MatrixLike, dOutput: MatrixLike, options?: AttentionOptions): AttentionGradients;
  /** Every gradient of multiHeadAttention(Xq, Xkv, options) given dY = dLoss/doutput (n_q x d_model). */
  multiHeadAttentionBackward(Xq: MatrixLike, Xkv: MatrixLike | null | undefined, dY: MatrixLike, options: MultiHeadOptions): MultiHeadGradients;
}

export function loadAttention(options?: LoadOptions): Promise<Attention>;
export function simdSupported(): boolean;

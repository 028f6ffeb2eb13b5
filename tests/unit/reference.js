// reference.js: the float64 specification of every kernel, written as the
// obvious loops. It is the oracle of the numeric tests: slow, plain, and
// easy to check against the formulas of DESIGN.md and src/attention.h.
//
// Matrices are {rows, cols, data} with data any array-like, row-major; every
// result is {rows, cols, data: Float64Array}.

export function matrix(rows, cols, data = new Float64Array(rows * cols)) {
  return { rows, cols, data: Float64Array.from(data) };
}

/** Nested arrays or {rows, cols, data} -> {rows, cols, data: Float64Array}. */
export function asMatrix(x) {
  if (Array.isArray(x)) return matrix(x.length, x[0].length, x.flat());
  return matrix(x.rows, x.cols, x.data);
}

export const at = (M, i, j) => M.data[i * M.cols + j];

/** M^T. */
export function transpose(M) {
  M = asMatrix(M);
  const T = matrix(M.cols, M.rows);
  for (let i = 0; i < M.rows; i++) {
    for (let j = 0; j < M.cols; j++) T.data[j * M.rows + i] = M.data[i * M.cols + j];
  }
  return T;
}

/** C = A B, or A B^T with transposeB (B is then n x k). */
export function matmul(A, B, { transposeB = false } = {}) {
  A = asMatrix(A);
  B = transposeB ? transpose(B) : asMatrix(B);
  const [m, k, n] = [A.rows, A.cols, B.cols];
  const C = matrix(m, n);
  // C[i][j] = sum_p A[i][p] B[p][j], summed in the order p = 0, 1, ... (the
  // loop over j is innermost only so that B is read along its rows).
  const [a, b, c] = [A.data, B.data, C.data];
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p];
      for (let j = 0; j < n; j++) c[i * n + j] += aip * b[p * n + j];
    }
  }
  return C;
}

/** Element-wise |M|, for error bounds. */
export function abs(M) {
  M = asMatrix(M);
  return matrix(M.rows, M.cols, M.data.map(Math.abs));
}

/**
 * Row-wise softmax((x - max) / temperature). -Infinity entries get weight 0;
 * a row that is entirely -Infinity gives zeros (not NaN).
 */
export function softmax(M, { temperature = 1 } = {}) {
  M = asMatrix(M);
  const out = matrix(M.rows, M.cols);
  for (let i = 0; i < M.rows; i++) {
    let max = -Infinity;
    for (let j = 0; j < M.cols; j++) max = Math.max(max, at(M, i, j));
    if (max === -Infinity) continue; // every entry blocked: zeros
    let sum = 0;
    for (let j = 0; j < M.cols; j++) {
      const e = Math.exp((at(M, i, j) - max) / temperature);
      out.data[i * M.cols + j] = e;
      sum += e;
    }
    for (let j = 0; j < M.cols; j++) out.data[i * M.cols + j] /= sum;
  }
  return out;
}

/**
 * The masked, scaled scores of attention (n_q x n_k):
 *   s_ij = scale * q_i . k_j + mask_ij, or -Infinity when key j is hidden
 *   from query i (causal: j > i; keyPaddingMask[j] = 1).
 */
export function scores(Q, K, { scale, mask, causal = false, keyPaddingMask } = {}) {
  Q = asMatrix(Q);
  K = asMatrix(K);
  const s = scale ?? 1 / Math.sqrt(Q.cols);
  const M = mask ? asMatrix(mask) : null;
  const S = matrix(Q.rows, K.rows);
  for (let i = 0; i < Q.rows; i++) {
    for (let j = 0; j < K.rows; j++) {
      let dot = 0;
      for (let p = 0; p < Q.cols; p++) dot += at(Q, i, p) * at(K, j, p);
      let v = s * dot + (M ? at(M, i, j) : 0);
      if (causal && j > i) v = -Infinity;
      if (keyPaddingMask && Number(keyPaddingMask[j]) === 1) v = -Infinity;
      S.data[i * K.rows + j] = v;
    }
  }
  return S;
}

/** softmax(scale Q K^T + masks) V -> {output (n_q x d_v), weights (n_q x n_k)}. */
export function attention(Q, K, V, options = {}) {
  const weights = softmax(scores(Q, K, options));
  return { output: matmul(weights, V), weights };
}

/** Columns c0 .. c0+width of M. */
export function columns(M, c0, width) {
  M = asMatrix(M);
  const out = matrix(M.rows, width);
  for (let i = 0; i < M.rows; i++) {
    for (let c = 0; c < width; c++) out.data[i * width + c] = at(M, i, c0 + c);
  }
  return out;
}

/** X W + b (b broadcast over rows; null = no bias). */
export function project(X, W, b) {
  const Y = matmul(X, W);
  if (b) {
    for (let i = 0; i < Y.rows; i++) {
      for (let c = 0; c < Y.cols; c++) Y.data[i * Y.cols + c] += b[c];
    }
  }
  return Y;
}

/**
 * Multi-head attention (Xkv null = self-attention):
 *   Q = Xq Wq + bq, K = Xkv Wk + bk, V = Xkv Wv + bv
 *   head h: columns h*dh .. (h+1)*dh of Q, K, V, dh = d/heads, scale 1/sqrt(dh)
 *   Y = Concat(Z_1 .. Z_heads) Wo + bo
 * Returns {output, weights: [per head], heads: [per head Z_h], Q, K, V, Z}.
 */
export function multiHeadAttention(Xq, Xkv, options) {
  const { heads, Wq, Wk, Wv, Wo, bq, bk, bv, bo, mask, causal, keyPaddingMask } = options;
  Xq = asMatrix(Xq);
  Xkv = Xkv ? asMatrix(Xkv) : Xq;
  const d = Xq.cols;
  const dh = d / heads;
  const Q = project(Xq, Wq, bq);
  const K = project(Xkv, Wk, bk);
  const V = project(Xkv, Wv, bv);
  const Z = matrix(Xq.rows, d);
  const weights = [];
  const headOutputs = [];
  for (let h = 0; h < heads; h++) {
    const r = attention(columns(Q, h * dh, dh), columns(K, h * dh, dh), columns(V, h * dh, dh), {
      scale: 1 / Math.sqrt(dh),
      mask,
      causal,
      keyPaddingMask,
    });
    weights.push(r.weights);
    headOutputs.push(r.output);
    for (let i = 0; i < Z.rows; i++) {
      for (let c = 0; c < dh; c++) Z.data[i * d + h * dh + c] = at(r.output, i, c);
    }
  }
  return { output: project(Z, Wo, bo), weights, heads: headOutputs, Q, K, V, Z };
}

/**
 * Sinusoidal positional encoding (n x d): for i = 0, 1, ...
 *   PE[p][2i] = sin(p / 10000^(2i/d)),  PE[p][2i+1] = cos(p / 10000^(2i/d)).
 */
export function positionalEncoding(n, d) {
  const PE = matrix(n, d);
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < d; c++) {
      const i = Math.floor(c / 2);
      const angle = p / 10000 ** ((2 * i) / d);
      PE.data[p * d + c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return PE;
}

// ---- gradients -----------------------------------------------------------------
// Each backward returns the gradient of a loss L with respect to the inputs of
// the forward above, given the gradient with respect to its result. They are
// the obvious formulas; tests/backward.test.js checks them against central
// finite differences of the forward functions above.

/** dL/dM for Y = softmax(M / T) row-wise, from Y and dY: Y (dY - rowsum(Y dY)) / T. */
export function softmaxBackward(Y, dY, { temperature = 1 } = {}) {
  Y = asMatrix(Y);
  dY = asMatrix(dY);
  const dX = matrix(Y.rows, Y.cols);
  for (let i = 0; i < Y.rows; i++) {
    let D = 0;
    for (let j = 0; j < Y.cols; j++) D += at(Y, i, j) * at(dY, i, j);
    for (let j = 0; j < Y.cols; j++) dX.data[i * Y.cols + j] = (at(Y, i, j) * (at(dY, i, j) - D)) / temperature;
  }
  return dX;
}

/** s * M, element-wise. */
export function times(M, s) {
  M = asMatrix(M);
  return matrix(M.rows, M.cols, M.data.map((x) => s * x));
}

/**
 * Gradients of attention(Q, K, V, options) given dO = dL/doutput. With P the
 * weights and S = scale Q K^T + masks:
 *   dV = P^T dO    dP = dO V^T    dS = P (dP - rowsum(P dP))    dQ = dS K    dK = dS^T Q
 * (dS here includes the scale). The additive mask is a constant. Returns
 * {dQ, dK, dV, weights, output, dScores}.
 */
export function attentionBackward(Q, K, V, dO, options = {}) {
  const scale = options.scale ?? 1 / Math.sqrt(asMatrix(Q).cols);
  const { output, weights } = attention(Q, K, V, options);
  const dP = matmul(dO, V, { transposeB: true });
  const dScores = times(softmaxBackward(weights, dP), scale);
  return {
    dQ: matmul(dScores, K),
    dK: matmul(transpose(dScores), Q),
    dV: matmul(transpose(weights), dO),
    weights,
    output,
    dScores,
  };
}

/** Column sums of M, as an array (the gradient of a bias added to every row). */
export function columnSums(M) {
  M = asMatrix(M);
  const s = new Float64Array(M.cols);
  for (let i = 0; i < M.rows; i++) for (let c = 0; c < M.cols; c++) s[c] += at(M, i, c);
  return s;
}

/** A + B. */
export function add(A, B) {
  A = asMatrix(A);
  B = asMatrix(B);
  return matrix(A.rows, A.cols, A.data.map((x, i) => x + B.data[i]));
}

/**
 * Gradients of multiHeadAttention(Xq, Xkv, options) given dY = dL/doutput:
 *   dZ = dY Wo^T, dWo = Z^T dY, dbo = column sums of dY
 *   per head: attentionBackward on its columns of Q, K, V and dZ -> dQ, dK, dV
 *   dWq = Xq^T dQ, dWk = Xkv^T dK, dWv = Xkv^T dV (biases: column sums)
 *   dXq = dQ Wq^T, dXkv = dK Wk^T + dV Wv^T; self-attention (Xkv null):
 *   dXq is the sum of the three and dXkv is null.
 * Returns those and the intermediates {forward, dZ, dQ, dK, dV, perHead}.
 */
export function multiHeadAttentionBackward(Xq, Xkv, dY, options) {
  const { heads, Wq, Wk, Wv, Wo, mask, causal, keyPaddingMask } = options;
  const self = !Xkv;
  Xq = asMatrix(Xq);
  Xkv = self ? Xq : asMatrix(Xkv);
  const forward = multiHeadAttention(Xq, Xkv, options);
  const { Q, K, V, Z } = forward;
  const d = Xq.cols;
  const dh = d / heads;
  const dZ = matmul(dY, Wo, { transposeB: true });
  const [dQ, dK, dV] = [matrix(Q.rows, d), matrix(K.rows, d), matrix(V.rows, d)];
  const perHead = [];
  for (let h = 0; h < heads; h++) {
    const g = attentionBackward(columns(Q, h * dh, dh), columns(K, h * dh, dh), columns(V, h * dh, dh),
      columns(dZ, h * dh, dh), { scale: 1 / Math.sqrt(dh), mask, causal, keyPaddingMask });
    perHead.push(g);
    [[dQ, g.dQ], [dK, g.dK], [dV, g.dV]].forEach(([whole, part]) => {
      for (let i = 0; i < whole.rows; i++) {
        for (let c = 0; c < dh; c++) whole.data[i * d + h * dh + c] = at(part, i, c);
      }
    });
  }
  const XT = transpose(Xq);
  const XkvT = self ? XT : transpose(Xkv);
  const dXq = matmul(dQ, Wq, { transposeB: true });
  const dXkv = add(matmul(dK, Wk, { transposeB: true }), matmul(dV, Wv, { transposeB: true }));
  return {
    dXq: self ? add(dXq, dXkv) : dXq,
    dXkv: self ? null : dXkv,
    dWq: matmul(XT, dQ), dWk: matmul(XkvT, dK), dWv: matmul(XkvT, dV), dWo: matmul(transpose(Z), dY),
    dbq: columnSums(dQ), dbk: columnSums(dK), dbv: columnSums(dV), dbo: columnSums(dY),
    forward, dZ, dQ, dK, dV, perHead,
  };
}

/**
 * Performer's FAVOR+ estimate of softmax(scale Q K^T) V with the random
 * features omega (m x d_k), in its quadratic form (the specification of
 * attn_linear_attention, which never builds the n_q x n_k matrix):
 *   phi(x)_r = exp(w_r . x' - |x'|^2 / 2) / sqrt(m),   x' = sqrt(scale) x
 *   A_ij = phi(q_i) . phi(k_j), 0 for j > i with causal
 *   out_i = sum_j A_ij v_j / sum_j A_ij (0 for a row of zeros)
 * Returns {output, weights} with weights = A, rows normalised (the
 * Performer's implicit attention weights).
 */
export function linearAttention(Q, K, V, omega, { scale, causal = false } = {}) {
  [Q, K, V, omega] = [Q, K, V, omega].map(asMatrix);
  const [n_q, n_k, d, m] = [Q.rows, K.rows, Q.cols, omega.rows];
  const root = Math.sqrt(scale ?? 1 / Math.sqrt(d));
  const features = (X) => {
    const F = matrix(X.rows, m);
    for (let i = 0; i < X.rows; i++) {
      let h = 0;
      for (let c = 0; c < d; c++) h += (root * at(X, i, c)) ** 2;
      for (let r = 0; r < m; r++) {
        let p = 0;
        for (let c = 0; c < d; c++) p += at(omega, r, c) * root * at(X, i, c);
        F.data[i * m + r] = Math.exp(p - h / 2) / Math.sqrt(m);
      }
    }
    return F;
  };
  const A = matmul(features(Q), features(K), { transposeB: true });
  for (let i = 0; i < n_q; i++) {
    let sum = 0;
    for (let j = 0; j < n_k; j++) {
      if (causal && j > i) A.data[i * n_k + j] = 0;
      sum += A.data[i * n_k + j];
    }
    for (let j = 0; j < n_k; j++) A.data[i * n_k + j] = sum > 0 ? A.data[i * n_k + j] / sum : 0;
  }
  return { output: matmul(A, V), weights: A };
}

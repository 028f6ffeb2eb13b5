// plain-js.mjs: attention as the obvious loops over Float32Arrays. It is
// both a contender in the bench and the reference the other engines'
// outputs are checked against (scores and sums accumulate in doubles).

/** out (n x dout) = X (n x din) W (din x dout) + b (dout). */
export function linear(X, W, b, n, din, dout) {
  const out = new Float32Array(n * dout);
  const acc = new Float64Array(dout);
  for (let i = 0; i < n; i++) {
    acc.set(b);
    for (let k = 0; k < din; k++) {
      const x = X[i * din + k];
      for (let j = 0; j < dout; j++) acc[j] += x * W[k * dout + j];
    }
    out.set(acc, i * dout);
  }
  return out;
}

/** softmax(scale Q K^T) V for the query rows listed in `rows` (all by
 *  default). Returns { output (rows x dv), weights (rows x nk) or null }.
 *  Without weights only one row of scores exists at a time. `causal`: query
 *  i sees keys j <= i only; the loops stop there (its weights past i stay 0). */
export function sdpa(Q, K, V, nk, dk, dv, scale, { weights = false, rows, causal = false } = {}) {
  const nq = rows ? rows.length : Q.length / dk;
  const output = new Float32Array(nq * dv);
  const P = weights ? new Float32Array(nq * nk) : null;
  const scratch = new Float32Array(nk);
  const acc = new Float64Array(dv);
  for (let r = 0; r < nq; r++) {
    const i = rows ? rows[r] : r;
    const q = i * dk;
    const n = causal ? Math.min(i + 1, nk) : nk; // keys this query sees
    const s = P ? P.subarray(r * nk, (r + 1) * nk) : scratch;
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < dk; c++) dot += Q[q + c] * K[j * dk + c];
      s[j] = dot * scale;
      if (s[j] > max) max = s[j];
    }
    // Subtracting the row max keeps exp from overflowing.
    let sum = 0;
    for (let j = 0; j < n; j++) {
      s[j] = Math.exp(s[j] - max);
      sum += s[j];
    }
    acc.fill(0);
    for (let j = 0; j < n; j++) {
      s[j] /= sum;
      for (let c = 0; c < dv; c++) acc[c] += s[j] * V[j * dv + c];
    }
    output.set(acc, r * dv);
  }
  return { output, weights: P };
}

// Columns [h*dh, (h+1)*dh) of an n x D matrix, as a contiguous n x dh one.
function headSlice(M, n, D, dh, h) {
  const out = new Float32Array(n * dh);
  for (let i = 0; i < n; i++) out.set(M.subarray(i * D + h * dh, i * D + (h + 1) * dh), i * dh);
  return out;
}

/** Multi-head attention with projections (see onnx-model.mjs for the
 *  convention). `rows` limits the query rows computed, as in sdpa. */
export function mha(x, { rows } = {}) {
  const { D, heads, Wq, Wk, Wv, Wo, bq, bk, bv, bo } = x;
  const nk = x.Xkv.length / D;
  const Xq = rows ? Float32Array.from(rows.flatMap((i) => [...x.Xq.subarray(i * D, (i + 1) * D)])) : x.Xq;
  const nq = Xq.length / D;
  const dh = D / heads;
  const Q = linear(Xq, Wq, bq, nq, D, D);
  const K = linear(x.Xkv, Wk, bk, nk, D, D);
  const V = linear(x.Xkv, Wv, bv, nk, D, D);
  const Z = new Float32Array(nq * D); // heads concatenated, nq x D
  for (let h = 0; h < heads; h++) {
    const { output } = sdpa(
      headSlice(Q, nq, D, dh, h), headSlice(K, nk, D, dh, h), headSlice(V, nk, D, dh, h),
      nk, dh, dh, 1 / Math.sqrt(dh),
    );
    for (let i = 0; i < nq; i++) Z.set(output.subarray(i * dh, (i + 1) * dh), i * D + h * dh);
  }
  return linear(Z, Wo, bo, nq, D, D);
}

// plain-js-backward.mjs: the forward and backward of attention as the
// obvious loops over Float32Arrays (sums in doubles). A contender in the
// backward bench and the reference its results are checked against.
//
// In the forward pass: P_i = softmax(scale q_i K^T), o_i = P_i V; so, given
// dO: dP_ij = dO_i . v_j, dS_ij = scale P_ij (dP_ij - sum_l P_il dP_il),
// dQ_i = sum_j dS_ij k_j, dK_j = sum_i dS_ij q_i, dV_j = sum_i P_ij dO_i.
import { linear } from './plain-js.mjs';

/**
 * Forward and backward of softmax(scale Q K^T [+ causal]) V, all N x d.
 * `rows` limits dQ to those query rows (returned in that order) and `keys`
 * limits dK, dV to those key rows; both default to all. Every query row is
 * still visited when keys are wanted (each key's gradient sums over them).
 */
export function sdpaBackward(Q, K, V, dO, N, d, scale, { causal = false, rows, keys } = {}) {
  const queryRows = rows ?? [...Array(N).keys()];
  const keyRows = keys ?? [...Array(N).keys()];
  const rowIndex = new Map(queryRows.map((i, r) => [i, r]));
  const keyIndex = new Map(keyRows.map((j, k) => [j, k]));
  const dQ = new Float32Array(queryRows.length * d);
  const dK = new Float64Array(keyRows.length * d);
  const dV = new Float64Array(keyRows.length * d);
  const p = new Float64Array(N);
  const ds = new Float64Array(N);
  const acc = new Float64Array(d);
  const visit = keyRows.length ? [...Array(N).keys()] : queryRows;
  for (const i of visit) {
    const n = causal ? i + 1 : N; // keys this query sees
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
      p[j] = dot * scale;
      if (p[j] > max) max = p[j];
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += (p[j] = Math.exp(p[j] - max));
    let D = 0;
    for (let j = 0; j < n; j++) {
      p[j] /= sum;
      let dp = 0;
      for (let c = 0; c < d; c++) dp += dO[i * d + c] * V[j * d + c];
      ds[j] = dp;
      D += p[j] * dp;
    }
    for (let j = 0; j < n; j++) ds[j] = scale * p[j] * (ds[j] - D);
    if (rowIndex.has(i)) {
      acc.fill(0);
      for (let j = 0; j < n; j++) for (let c = 0; c < d; c++) acc[c] += ds[j] * K[j * d + c];
      dQ.set(acc, rowIndex.get(i) * d);
    }
    for (let j = 0; j < n; j++) {
      const k = keys ? keyIndex.get(j) : j;
      if (k === undefined) continue;
      for (let c = 0; c < d; c++) {
        dK[k * d + c] += ds[j] * Q[i * d + c];
        dV[k * d + c] += p[j] * dO[i * d + c];
      }
    }
  }
  return { dQ, dK: Float32Array.from(dK), dV: Float32Array.from(dV) };
}

// Columns [h*dh, (h+1)*dh) of an n x D matrix as a contiguous n x dh one, and back.
function headSlice(M, n, D, dh, h) {
  const out = new Float32Array(n * dh);
  for (let i = 0; i < n; i++) out.set(M.subarray(i * D + h * dh, i * D + (h + 1) * dh), i * dh);
  return out;
}
function putHead(M, part, n, D, dh, h) {
  for (let i = 0; i < n; i++) M.set(part.subarray(i * dh, (i + 1) * dh), i * D + h * dh);
}

/** C (m x n) = A^T B with A (k x m), B (k x n). */
function atb(A, B, k, m, n) {
  const C = new Float64Array(m * n);
  for (let p = 0; p < k; p++) {
    for (let i = 0; i < m; i++) {
      const a = A[p * m + i];
      for (let j = 0; j < n; j++) C[i * n + j] += a * B[p * n + j];
    }
  }
  return Float32Array.from(C);
}

/** C (m x n) = A B^T (+ C), A (m x k), B (n x k). */
function abt(A, B, m, k, n, C = new Float32Array(m * n)) {
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += A[i * k + p] * B[j * k + p];
      C[i * n + j] += s;
    }
  }
  return C;
}

const columnSums = (M, n, D) => {
  const s = new Float64Array(D);
  for (let i = 0; i < n; i++) for (let c = 0; c < D; c++) s[c] += M[i * D + c];
  return Float32Array.from(s);
};

/**
 * Every gradient of self-attention multi-head attention (bench/lib/inputs.mjs's
 * mhaInputs: Xq = Xkv = X) given dY: {dX, dWq..dWo, dbq..dbo}.
 */
export function mhaBackward(x, dY) {
  const { D, heads, Wq, Wk, Wv, Wo, bq, bk, bv } = x;
  const X = x.Xq;
  const N = X.length / D;
  const dh = D / heads;
  const [Q, K, V] = [[Wq, bq], [Wk, bk], [Wv, bv]].map(([W, b]) => linear(X, W, b, N, D, D));
  const Z = new Float32Array(N * D);
  const dZ = abt(dY, Wo, N, D, D); // dY Wo^T (Wo is D x D: row j of Wo is column j of Wo^T)
  const [dQ, dK, dV] = [0, 0, 0].map(() => new Float32Array(N * D));
  for (let h = 0; h < heads; h++) {
    const [q, k, v, dz] = [Q, K, V, dZ].map((M) => headSlice(M, N, D, dh, h));
    const scale = 1 / Math.sqrt(dh);
    const g = sdpaBackward(q, k, v, dz, N, dh, scale);
    // Z for dWo: the head's forward output
    const p = new Float64Array(N);
    for (let i = 0; i < N; i++) {
      let max = -Infinity;
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let c = 0; c < dh; c++) s += q[i * dh + c] * k[j * dh + c];
        p[j] = s * scale;
        max = Math.max(max, p[j]);
      }
      let sum = 0;
      for (let j = 0; j < N; j++) sum += (p[j] = Math.exp(p[j] - max));
      for (let c = 0; c < dh; c++) {
        let o = 0;
        for (let j = 0; j < N; j++) o += p[j] * v[j * dh + c];
        Z[i * D + h * dh + c] = o / sum;
      }
    }
    putHead(dQ, g.dQ, N, D, dh, h);
    putHead(dK, g.dK, N, D, dh, h);
    putHead(dV, g.dV, N, D, dh, h);
  }
  const dX = abt(dQ, Wq, N, D, D);
  abt(dK, Wk, N, D, D, dX);
  abt(dV, Wv, N, D, D, dX);
  return {
    dX,
    dWq: atb(X, dQ, N, D, D), dWk: atb(X, dK, N, D, D), dWv: atb(X, dV, N, D, D), dWo: atb(Z, dY, N, D, D),
    dbq: columnSums(dQ, N, D), dbk: columnSums(dK, N, D), dbv: columnSums(dV, N, D), dbo: columnSums(dY, N, D),
  };
}

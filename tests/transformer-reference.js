// transformer-reference.js: the float64 oracle for the trainer (src/train.c):
// the tiny transformer of DESIGN.md ("Tiny transformers"), its gradients and
// torch.optim.AdamW, written as the obvious loops, one sequence at a time.
// Parameters are {name: Float64Array} with the API's names and layout.

/** [{name, rows, cols}] in the parameter block's order. */
export function layout({ vocab, context, dModel: d, layers }) {
  const list = [{ name: 'tok', rows: vocab, cols: d }, { name: 'pos', rows: context, cols: d }];
  for (let l = 0; l < layers; l++) {
    for (const w of ['Wq', 'Wk', 'Wv', 'Wo']) list.push({ name: `layers.${l}.${w}`, rows: d, cols: d });
    for (const b of ['bq', 'bk', 'bv', 'bo']) list.push({ name: `layers.${l}.${b}`, rows: 1, cols: d });
  }
  list.push({ name: 'Wu', rows: d, cols: vocab }, { name: 'bu', rows: 1, cols: vocab });
  return list;
}

/** {name: Float64Array} of zeros, or of `from` (any arrays) converted. */
export function zeros(cfg, from) {
  return Object.fromEntries(layout(cfg).map(({ name, rows, cols }) =>
    [name, from ? Float64Array.from(from[name]) : new Float64Array(rows * cols)]));
}

// Y (n x o) = X (n x i) W (i x o) + b
function linear(X, W, b, n, i, o) {
  const Y = new Float64Array(n * o);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < o; c++) {
      let s = b ? b[c] : 0;
      for (let k = 0; k < i; k++) s += X[r * i + k] * W[k * o + c];
      Y[r * o + c] = s;
    }
  }
  return Y;
}

// dX += dY W^T, dW += X^T dY, db += column sums of dY
function linearBack(dX, dW, db, dY, X, W, n, i, o) {
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < o; c++) {
      const g = dY[r * o + c];
      db[c] += g;
      for (let k = 0; k < i; k++) {
        if (dX) dX[r * i + k] += g * W[k * o + c];
        dW[k * o + c] += X[r * i + k] * g;
      }
    }
  }
}

/**
 * One sequence (tokens: T + 1 ids) through the model: {losses (T), logits
 * (T x vocab), att[layer][head] (T x T), cache}. off[layer][head] = true
 * switches a head's output off.
 */
export function forwardOne(P, cfg, tokens, off = []) {
  const { vocab: V, dModel: C, heads: H, layers: L } = cfg;
  const T = tokens.length - 1;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  const x = [new Float64Array(T * C)];
  for (let t = 0; t < T; t++) {
    for (let c = 0; c < C; c++) x[0][t * C + c] = P.tok[tokens[t] * C + c] + P.pos[t * C + c];
  }
  const layers = [];
  for (let l = 0; l < L; l++) {
    const w = (n) => P[`layers.${l}.${n}`];
    const q = linear(x[l], w('Wq'), w('bq'), T, C, C);
    const k = linear(x[l], w('Wk'), w('bk'), T, C, C);
    const v = linear(x[l], w('Wv'), w('bv'), T, C, C);
    const z = new Float64Array(T * C);
    const att = [];
    for (let h = 0; h < H; h++) {
      const p = new Float64Array(T * T);
      for (let i = 0; i < T; i++) {
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          let s = 0;
          for (let c = 0; c < hs; c++) s += q[i * C + h * hs + c] * k[j * C + h * hs + c];
          p[i * T + j] = scale * s;
          max = Math.max(max, scale * s);
        }
        let sum = 0;
        for (let j = 0; j <= i; j++) sum += (p[i * T + j] = Math.exp(p[i * T + j] - max));
        for (let j = 0; j <= i; j++) p[i * T + j] /= sum;
        if (off[l]?.[h]) continue;
        for (let j = 0; j <= i; j++) {
          for (let c = 0; c < hs; c++) z[i * C + h * hs + c] += p[i * T + j] * v[j * C + h * hs + c];
        }
      }
      att.push(p);
    }
    const y = linear(z, w('Wo'), w('bo'), T, C, C);
    x.push(x[l].map((xi, idx) => xi + y[idx]));
    layers.push({ q, k, v, z, att });
  }
  const logits = linear(x[L], P.Wu, P.bu, T, C, V);
  const losses = new Float64Array(T);
  const probs = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    let max = -Infinity;
    for (let c = 0; c < V; c++) max = Math.max(max, logits[t * V + c]);
    let sum = 0;
    for (let c = 0; c < V; c++) sum += Math.exp(logits[t * V + c] - max);
    for (let c = 0; c < V; c++) probs[t * V + c] = Math.exp(logits[t * V + c] - max) / sum;
    losses[t] = Math.log(sum) + max - logits[t * V + tokens[t + 1]];
  }
  return { losses, logits, att: layers.map((ly) => ly.att), cache: { x, layers, probs } };
}

/** The mean loss over a batch and every parameter's gradient: {loss, losses, grads}. */
export function gradients(P, cfg, sequences, off = []) {
  const { vocab: V, dModel: C, heads: H, layers: L } = cfg;
  const G = zeros(cfg);
  const T = sequences[0].length - 1;
  const N = sequences.length * T;
  const hs = C / H;
  const scale = 1 / Math.sqrt(hs);
  let total = 0;
  const losses = [];
  for (const tokens of sequences) {
    const { losses: lo, cache: { x, layers, probs } } = forwardOne(P, cfg, tokens, off);
    losses.push(...lo);
    for (const v of lo) total += v;
    const dlogits = probs.map((p) => p / N);
    for (let t = 0; t < T; t++) dlogits[t * V + tokens[t + 1]] -= 1 / N;
    let dx = new Float64Array(T * C);
    linearBack(dx, G.Wu, G.bu, dlogits, x[L], P.Wu, T, C, V);
    for (let l = L - 1; l >= 0; l--) {
      const w = (n) => P[`layers.${l}.${n}`];
      const g = (n) => G[`layers.${l}.${n}`];
      const { q, k, v, z, att } = layers[l];
      const dz = new Float64Array(T * C);
      linearBack(dz, g('Wo'), g('bo'), dx, z, w('Wo'), T, C, C);
      const [dq, dk, dv] = [0, 0, 0].map(() => new Float64Array(T * C));
      for (let h = 0; h < H; h++) {
        if (off[l]?.[h]) continue;
        const p = att[h];
        for (let i = 0; i < T; i++) {
          const dp = new Float64Array(i + 1);
          let dot = 0;
          for (let j = 0; j <= i; j++) {
            for (let c = 0; c < hs; c++) {
              dp[j] += dz[i * C + h * hs + c] * v[j * C + h * hs + c];
              dv[j * C + h * hs + c] += p[i * T + j] * dz[i * C + h * hs + c];
            }
            dot += p[i * T + j] * dp[j];
          }
          for (let j = 0; j <= i; j++) {
            const ds = p[i * T + j] * (dp[j] - dot) * scale;
            for (let c = 0; c < hs; c++) {
              dq[i * C + h * hs + c] += ds * k[j * C + h * hs + c];
              dk[j * C + h * hs + c] += ds * q[i * C + h * hs + c];
            }
          }
        }
      }
      const dxl = dx.slice(); // the residual passes dx through unchanged
      linearBack(dxl, g('Wq'), g('bq'), dq, x[l], w('Wq'), T, C, C);
      linearBack(dxl, g('Wk'), g('bk'), dk, x[l], w('Wk'), T, C, C);
      linearBack(dxl, g('Wv'), g('bv'), dv, x[l], w('Wv'), T, C, C);
      dx = dxl;
    }
    for (let t = 0; t < T; t++) {
      for (let c = 0; c < C; c++) {
        G.tok[tokens[t] * C + c] += dx[t * C + c];
        G.pos[t * C + c] += dx[t * C + c];
      }
    }
  }
  return { loss: total / N, losses, grads: G };
}

/** The mean loss alone (for finite differences). */
export function meanLoss(P, cfg, sequences, off = []) {
  let total = 0;
  for (const s of sequences) for (const v of forwardOne(P, cfg, s, off).losses) total += v;
  return total / (sequences.length * (sequences[0].length - 1));
}

/**
 * One step of torch.optim.AdamW on every tensor, in place (step counts from
 * 1): p *= 1 - lr wd; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
 * p -= lr / (1 - b1^step) * m / (sqrt(v) / sqrt(1 - b2^step) + eps).
 */
export function adamw(P, M, Vs, G, step, { lr, weightDecay, beta1, beta2, eps }) {
  const bc1 = 1 - beta1 ** step;
  const bc2 = 1 - beta2 ** step;
  for (const name of Object.keys(P)) {
    const [p, m, v, g] = [P[name], M[name], Vs[name], G[name]];
    for (let i = 0; i < p.length; i++) {
      p[i] *= 1 - lr * weightDecay;
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
      p[i] -= (lr / bc1) * m[i] / (Math.sqrt(v[i]) / Math.sqrt(bc2) + eps);
    }
  }
}

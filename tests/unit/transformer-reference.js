// transformer-reference.js: the float64 oracle for the trainer (src/train.c):
// the tiny transformer of DESIGN.md ("Tiny transformers"), its gradients and
// torch.optim.AdamW, written as the obvious loops, one sequence at a time.
// Parameters are {name: Float64Array} with the API's names and layout.
// With mlp and layerNorm the layers are GPT blocks (pre-norm LayerNorm, GELU
// MLP, a final LayerNorm).

/** [{name, rows, cols}] in the parameter block's order. */
export function layout({ vocab, context, dModel: d, layers, mlp = false, layerNorm = false }) {
  const list = [{ name: 'tok', rows: vocab, cols: d }, { name: 'pos', rows: context, cols: d }];
  const vector = (name, cols = d) => list.push({ name, rows: 1, cols });
  for (let l = 0; l < layers; l++) {
    if (layerNorm) vector(`layers.${l}.ln1.g`), vector(`layers.${l}.ln1.b`);
    for (const w of ['Wq', 'Wk', 'Wv', 'Wo']) list.push({ name: `layers.${l}.${w}`, rows: d, cols: d });
    for (const b of ['bq', 'bk', 'bv', 'bo']) vector(`layers.${l}.${b}`);
    if (layerNorm && mlp) vector(`layers.${l}.ln2.g`), vector(`layers.${l}.ln2.b`);
    if (mlp) {
      list.push({ name: `layers.${l}.W1`, rows: d, cols: 4 * d });
      vector(`layers.${l}.b1`, 4 * d);
      list.push({ name: `layers.${l}.W2`, rows: 4 * d, cols: d });
      vector(`layers.${l}.b2`);
    }
  }
  if (layerNorm) vector('lnf.g'), vector('lnf.b');
  list.push({ name: 'Wu', rows: d, cols: vocab }, { name: 'bu', rows: 1, cols: vocab });
  return list;
}

/**
 * erf in float64 to ~1e-15: its Taylor series (a fixed 60 terms, so a smooth
 * function for finite differences) below 3, the continued fraction of erfc
 * (a fixed 60 levels) above.
 */
export function erf(x) {
  const a = Math.abs(x);
  if (a < 3) {
    let term = a, sum = a;
    for (let n = 1; n < 60; n++) {
      term *= (-a * a) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = a;
  for (let k = 60; k >= 1; k--) f = a + (k / 2) / f;
  return Math.sign(x) * (1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / f);
}

const gelu = (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));
const geluGrad = (x) => 0.5 * (1 + erf(x / Math.SQRT2)) + x * Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

// LayerNorm of each row of X (n x C), eps 1e-5, biased variance: {Y, norm, rstd}.
function layerNorm(X, g, b, n, C) {
  const Y = new Float64Array(n * C), norm = new Float64Array(n * C), rstd = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    let mean = 0, vr = 0;
    for (let c = 0; c < C; c++) mean += X[r * C + c] / C;
    for (let c = 0; c < C; c++) vr += (X[r * C + c] - mean) ** 2 / C;
    rstd[r] = 1 / Math.sqrt(vr + 1e-5);
    for (let c = 0; c < C; c++) {
      norm[r * C + c] = (X[r * C + c] - mean) * rstd[r];
      Y[r * C + c] = norm[r * C + c] * g[c] + b[c];
    }
  }
  return { Y, norm, rstd };
}

// Its backward: dg, db accumulated; returns dX (n x C).
function layerNormBack(dg, db, dY, { norm, rstd }, g, n, C) {
  const dX = new Float64Array(n * C);
  for (let r = 0; r < n; r++) {
    let m1 = 0, m2 = 0;
    for (let c = 0; c < C; c++) {
      const dn = g[c] * dY[r * C + c];
      m1 += dn / C;
      m2 += dn * norm[r * C + c] / C;
      db[c] += dY[r * C + c];
      dg[c] += norm[r * C + c] * dY[r * C + c];
    }
    for (let c = 0; c < C; c++) dX[r * C + c] = rstd[r] * (g[c] * dY[r * C + c] - m1 - norm[r * C + c] * m2);
  }
  return dX;
}

const add = (a, b) => a.map((v, i) => v + b[i]);

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
    const ln1 = cfg.layerNorm ? layerNorm(x[l], w('ln1.g'), w('ln1.b'), T, C) : null;
    const h = ln1 ? ln1.Y : x[l];
    const q = linear(h, w('Wq'), w('bq'), T, C, C);
    const k = linear(h, w('Wk'), w('bk'), T, C, C);
    const v = linear(h, w('Wv'), w('bv'), T, C, C);
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
    const a = add(x[l], linear(z, w('Wo'), w('bo'), T, C, C));
    const block = { ln1, h, q, k, v, z, att, a };
    if (cfg.mlp) {
      block.ln2 = cfg.layerNorm ? layerNorm(a, w('ln2.g'), w('ln2.b'), T, C) : null;
      block.h2 = block.ln2 ? block.ln2.Y : a;
      block.pre = linear(block.h2, w('W1'), w('b1'), T, C, 4 * C);
      block.act = block.pre.map(gelu);
      x.push(add(a, linear(block.act, w('W2'), w('b2'), T, 4 * C, C)));
    } else {
      x.push(a);
    }
    layers.push(block);
  }
  const lnf = cfg.layerNorm ? layerNorm(x[L], P['lnf.g'], P['lnf.b'], T, C) : null;
  const f = lnf ? lnf.Y : x[L];
  const logits = linear(f, P.Wu, P.bu, T, C, V);
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
  return { losses, logits, att: layers.map((ly) => ly.att), cache: { x, layers, probs, lnf, f } };
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
    const { losses: lo, cache: { x, layers, probs, lnf, f } } = forwardOne(P, cfg, tokens, off);
    losses.push(...lo);
    for (const v of lo) total += v;
    const dlogits = probs.map((p) => p / N);
    for (let t = 0; t < T; t++) dlogits[t * V + tokens[t + 1]] -= 1 / N;
    let dx = new Float64Array(T * C);
    linearBack(dx, G.Wu, G.bu, dlogits, f, P.Wu, T, C, V);
    if (lnf) dx = layerNormBack(G['lnf.g'], G['lnf.b'], dx, lnf, P['lnf.g'], T, C);
    for (let l = L - 1; l >= 0; l--) {
      const w = (n) => P[`layers.${l}.${n}`];
      const g = (n) => G[`layers.${l}.${n}`];
      const { ln1, h, q, k, v, z, att, ln2, h2, pre, act } = layers[l];
      if (cfg.mlp) { // x_{l+1} = a + GELU(h2 W1 + b1) W2 + b2
        const dact = new Float64Array(T * 4 * C);
        linearBack(dact, g('W2'), g('b2'), dx, act, w('W2'), T, 4 * C, C);
        const dpre = dact.map((d, i) => d * geluGrad(pre[i]));
        let dh2 = new Float64Array(T * C);
        linearBack(dh2, g('W1'), g('b1'), dpre, h2, w('W1'), T, C, 4 * C);
        if (ln2) dh2 = layerNormBack(g('ln2.g'), g('ln2.b'), dh2, ln2, w('ln2.g'), T, C);
        dx = add(dx, dh2);
      }
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
      let dh = new Float64Array(T * C);
      linearBack(dh, g('Wq'), g('bq'), dq, h, w('Wq'), T, C, C);
      linearBack(dh, g('Wk'), g('bk'), dk, h, w('Wk'), T, C, C);
      linearBack(dh, g('Wv'), g('bv'), dv, h, w('Wv'), T, C, C);
      if (ln1) dh = layerNormBack(g('ln1.g'), g('ln1.b'), dh, ln1, w('ln1.g'), T, C);
      dx = add(dx, dh); // the residual passes dx through unchanged
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

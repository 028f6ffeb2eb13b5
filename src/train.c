/* train.c: a tiny decoder-only transformer, trained in wasm memory.
 *
 * In the style of llm.c's train_gpt2.c: every layer is a forward/backward
 * pair, in the order data flows; the forward keeps exactly what the backward
 * needs (the attention weights, Q, K, V, Z, each layer's input); gradients
 * accumulate with += into a block zeroed once per step; parameters,
 * gradients and AdamW's two moments are four blocks of one layout
 * (tf_params.c: attn__tf_params points into any of them), so the optimizer
 * is one loop over them.
 *
 * The model (DESIGN.md, "Tiny transformers"):
 *   x_0     = tok[token] + pos[position]                       (B, T, C)
 *   a_l     = x_l + Concat(Z_1..Z_NH) Wo + bo,  Z_h = causal attention of
 *             the h-th column block of Q = h_l Wq + bq, K, V    (B, T, C)
 *             with h_l = x_l, or LN1(x_l) with layer_norm
 *   x_{l+1} = a_l, or with mlp a_l + GELU(h2 W1 + b1) W2 + b2, h2 = a_l or
 *             LN2(a_l) with layer_norm; the hidden width is 4C
 *   logits  = f Wu + bu, f = x_L or LNf(x_L) with layer_norm    (B, T, V)
 *   loss    = mean over (b, t) of -log softmax(logits[b][t])[token[b][t+1]]
 * B sequences of T + 1 tokens each (T inputs, T targets); C = d_model,
 * NH heads of hs = C / NH columns, V = vocab, L = layers.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* ==== activations ======================================================== */

typedef struct {
  float *x;      /* (L+1, B, T, C) the residual stream: x[0] embeddings, x[l+1] after layer l */
  float *q, *k, *v; /* (L, B, T, C) each layer's projections */
  float *z;      /* (L, B, T, C) each layer's head outputs, concatenated */
  float *att;    /* (L, B, NH, T, T) each layer's attention weights */
  float *logits; /* (B, T, V); the training step turns them into dlogits */
  float *row;    /* (V) scratch for the loss without gradients */
  float *dx;     /* (B, T, C) dLoss / the residual stream, layer by layer */
  float *dz, *dq, *dk, *dv; /* (B, T, C) one layer's gradients */
  /* The GPT block's (empty when the config leaves the part out): */
  float *h1, *h2; /* (L, B, T, C) LN1(x_l) and LN2(a_l) */
  float *ln_mean, *ln_rstd; /* (2L+1, B, T) per LayerNorm (LN1, LN2 of each layer, LNf) */
  float *xf;     /* (B, T, C) LNf(x_L) */
  float *xa;     /* (L, B, T, C) a_l, the stream between attention and MLP */
  float *pre, *act; /* (L, B, T, 4C) the MLP's hidden layer before and after GELU */
  float *dh;     /* (B, T, C) the gradient of a LayerNorm's output */
  float *dact, *dpre; /* (B, T, 4C) the MLP's hidden gradients */
  void *scratch; /* the attention backward's workspace */
} acts_t;

/* Carves the workspace at `base` into `a` (base NULL: only counts); returns
 * its size in bytes, 16-byte aligned pieces. */
static size_t carve(acts_t *a, char *base, const attn_tf_config *cfg, int B, int T) {
  const size_t L = (size_t)cfg->layers, BT = (size_t)B * T, BTC = BT * cfg->d_model;
  const size_t ln = cfg->layer_norm ? 1 : 0, mlp = cfg->mlp ? 1 : 0;
  const size_t sizes[] = {
      (L + 1) * BTC, L * BTC, L * BTC, L * BTC, L * BTC,
      L * B * cfg->heads * T * T, BT * cfg->vocab, (size_t)cfg->vocab,
      BTC, BTC, BTC, BTC, BTC,
      ln * L * BTC, ln * mlp * L * BTC, ln * (2 * L + 1) * BT, ln * (2 * L + 1) * BT,
      ln * BTC, mlp * L * BTC, mlp * L * 4 * BTC, mlp * L * 4 * BTC,
      ln * BTC, mlp * 4 * BTC, mlp * 4 * BTC};
  float **slots[] = {&a->x, &a->q, &a->k, &a->v, &a->z, &a->att, &a->logits,
                     &a->row, &a->dx, &a->dz, &a->dq, &a->dk, &a->dv,
                     &a->h1, &a->h2, &a->ln_mean, &a->ln_rstd,
                     &a->xf, &a->xa, &a->pre, &a->act,
                     &a->dh, &a->dact, &a->dpre};
  size_t bytes = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    *slots[i] = base ? (float *)(base + bytes) : NULL;
    bytes += (sizes[i] * sizeof(float) + 15) & ~(size_t)15;
  }
  const int hs = cfg->d_model / cfg->heads;
  a->scratch = base ? base + bytes : NULL;
  return bytes + attn_attention_backward_workspace_size(T, T, hs, hs);
}

/* ==== layers: forward and backward ====================================== */

/* out (B, T, C) = tok[tokens[b][t]] + pos[t]
 *   tokens (B, T+1), rows T+1 apart; tok (V, C); pos (context, C) */
static void embed_forward(float *out, const int32_t *tokens, const float *tok,
                          const float *pos, int B, int T, int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      const float *e = tok + (size_t)tokens[(size_t)b * (T + 1) + t] * C, *p = pos + (size_t)t * C;
      float *o = out + ((size_t)b * T + t) * C;
      for (int c = 0; c < C; c++) o[c] = e[c] + p[c];
    }
}

/* In the forward pass: out[b][t] = tok[tokens[b][t]] + pos[t], so now
 * dtok[tokens[b][t]] += dout[b][t] (a scatter-add: a token seen twice
 * gathers both) and dpos[t] += dout[b][t]. */
static void embed_backward(float *dtok, float *dpos, const float *dout,
                           const int32_t *tokens, int B, int T, int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      float *dt = dtok + (size_t)tokens[(size_t)b * (T + 1) + t] * C, *dp = dpos + (size_t)t * C;
      const float *d = dout + ((size_t)b * T + t) * C;
      for (int c = 0; c < C; c++) dt[c] += d[c], dp[c] += d[c];
    }
}

/* In the forward pass: out = inp W + bias, so now
 *   dinp (N, IC) += dout W^T    dW (IC, OC) += inp^T dout    dbias += sum over rows of dout
 * dbias NULL: a bias whose gradient is known to be exactly zero (bk). */
static void linear_backward(float *dinp, float *dW, float *dbias, const float *dout,
                            const float *inp, const float *W, int N, int IC, int OC) {
  attn__gemm(dinp, (size_t)IC, dout, (size_t)OC, W, (size_t)OC, N, OC, IC, 1, 1);
  attn__gemm_at(dW, (size_t)OC, inp, (size_t)IC, dout, (size_t)OC, IC, N, OC, 1);
  if (dbias)
    for (int i = 0; i < N; i++)
      for (int o = 0; o < OC; o++) dbias[o] += dout[(size_t)i * OC + o];
}

static const attn_masks CAUSAL = {.causal = 1};

/* z (B, T, C) = per sequence b and head h, causal attention of the column
 * blocks h of q, k, v (B, T, C), scale 1/sqrt(hs); att (B, NH, T, T) keeps
 * the weights. A head switched off (off[h]) writes zeros into z. */
static void attention_forward(float *z, float *att, const float *q, const float *k,
                              const float *v, const uint8_t *off, int B, int T,
                              int C, int NH) {
  const int hs = C / NH;
  const float scale = 1.0f / sqrtf((float)hs);
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++) {
      const size_t at = (size_t)b * T * C + (size_t)h * hs;
      attn__attention_strided(z + at, (size_t)C, att + ((size_t)b * NH + h) * T * T,
                              q + at, (size_t)C, k + at, (size_t)C, v + at, (size_t)C,
                              T, T, hs, hs, scale, &CAUSAL, NULL);
      if (off[h])
        for (int t = 0; t < T; t++) memset(z + at + (size_t)t * C, 0, hs * sizeof(float));
    }
}

/* In the forward pass: z_bh = softmax(scale q_bh k_bh^T + causal) v_bh, so
 * now dq, dk, dv (B, T, C) = that attention's gradients given dz (the
 * weights path of the attention backward, with att from the forward). A
 * head that was off passed nothing forward, so it gets zero gradients. */
static void attention_backward(float *dq, float *dk, float *dv, const float *dz,
                               const float *z, const float *att, const float *q,
                               const float *k, const float *v, const uint8_t *off,
                               int B, int T, int C, int NH, void *scratch) {
  const int hs = C / NH;
  const float scale = 1.0f / sqrtf((float)hs);
  for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++) {
      const size_t at = (size_t)b * T * C + (size_t)h * hs;
      if (off[h]) {
        for (int t = 0; t < T; t++) {
          const size_t row = at + (size_t)t * C;
          memset(dq + row, 0, hs * sizeof(float));
          memset(dk + row, 0, hs * sizeof(float));
          memset(dv + row, 0, hs * sizeof(float));
        }
        continue;
      }
      attn__attention_backward_strided(
          dq + at, (size_t)C, dk + at, (size_t)C, dv + at, (size_t)C, q + at, (size_t)C,
          k + at, (size_t)C, v + at, (size_t)C, z + at, (size_t)C, dz + at, (size_t)C,
          att + ((size_t)b * NH + h) * T * T, NULL, T, T, hs, hs, scale, &CAUSAL, scratch);
    }
}

/* losses (N) = -log softmax(logits[i])[targets[i]] for N rows of V logits;
 * returns their sum (in double). With dlogits (which may be logits itself),
 * also the gradient of grad_scale * sum(losses) in the same pass:
 *   dlogits[i] = grad_scale (softmax(logits[i]) - onehot(targets[i]))
 * Without, `row` (V floats) is the scratch for the exponentials. */
static double crossentropy(float *losses, float *dlogits, float *row,
                           const float *logits, const int32_t *tokens, int B, int T,
                           int V, float grad_scale) {
  double total = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      const size_t i = (size_t)b * T + t;
      const int target = tokens[(size_t)b * (T + 1) + t + 1];
      const float *in = logits + i * V;
      float *e = dlogits ? dlogits + i * V : row;
      if (e != in) memcpy(e, in, (size_t)V * sizeof(float));
      const float max = attn__row_max(e, V), picked = e[target] - max;
      const float sum = attn__exp_shifted(e, V, max, 1.0f);
      const float loss = logf(sum) - picked;
      if (losses) losses[i] = loss;
      total += loss;
      if (dlogits) {
        attn__scale_row(e, V, grad_scale / sum);
        e[target] -= grad_scale;
      }
    }
  return total;
}

/* ==== the model ========================================================== */

static int check_call(const attn_tf_model *m, const int32_t *tokens, int B,
                      int n_tokens, void *workspace) {
  if (!m) return ATTN_E_NULL;
  const int status = attn__tf_check_config(&m->cfg);
  if (status != ATTN_OK) return status;
  if (!m->params || !tokens || (!m->off && m->cfg.layers > 0)) return ATTN_E_NULL;
  if (B <= 0 || n_tokens < 2 || n_tokens > m->cfg.context + 1) return ATTN_E_SIZE;
  if (attn_tf_workspace_size(&m->cfg, B, n_tokens) == 0) return ATTN_E_SIZE;
  for (size_t i = 0; i < (size_t)B * n_tokens; i++)
    if (tokens[i] < 0 || tokens[i] >= m->cfg.vocab) return ATTN_E_TOKEN;
  if (!workspace) return ATTN_E_WORKSPACE;
  return ATTN_OK;
}

size_t attn_tf_workspace_size(const attn_tf_config *cfg, int batch, int n_tokens) {
  if (attn__tf_check_config(cfg) != ATTN_OK || batch <= 0 || n_tokens < 2 ||
      n_tokens > cfg->context + 1)
    return 0;
  const int T = n_tokens - 1;
  const uint64_t L = (uint64_t)cfg->layers, BT = (uint64_t)batch * T;
  /* What carve() asks for, in floats, bounded before it is computed (the
   * GPT block adds at most 12 L + 10 of B T C and 4 L + 2 of B T); and the
   * tokens, B (T + 1). Each term on its own first: their products can
   * overflow 64 bits. */
  const uint64_t terms[5] = {attn__mul(17 * L + 16, attn__mul(BT, (uint64_t)cfg->d_model)),
                             attn__mul(attn__mul(L, BT), (uint64_t)cfg->heads * T),
                             attn__mul(BT + 1, (uint64_t)cfg->vocab), attn__mul(4 * L + 2, BT),
                             attn__mul(BT, (uint64_t)n_tokens)};
  uint64_t floats = 64;
  for (int i = 0; i < 5; i++) {
    if (!attn__fits(terms[i], 4)) return 0;
    floats += terms[i];
  }
  if (!attn__fits(floats, 4)) return 0;
  acts_t a;
  return carve(&a, NULL, cfg, batch, T);
}

/* The MLP of layer l: x_{l+1} = a_l + GELU(h2 W1 + b1) W2 + b2, h2 = a_l or
 * LN2(a_l). Reads a->xa, writes h2, pre, act and x_{l+1}. */
static void mlp_forward(acts_t *a, const attn__tf_layer *w, const attn_tf_config *cfg, int l,
                        int N, int C) {
  const size_t BTC = (size_t)N * C;
  const float *xa = a->xa + l * BTC, *h = xa;
  if (cfg->layer_norm) {
    float *h2 = a->h2 + l * BTC;
    attn__layernorm_forward(h2, a->ln_mean + (size_t)(2 * l + 1) * N,
                            a->ln_rstd + (size_t)(2 * l + 1) * N, xa, w->ln2g, w->ln2b, N, C);
    h = h2;
  }
  float *pre = a->pre + l * 4 * BTC, *act = a->act + l * 4 * BTC;
  attn__linear(pre, h, w->W1, w->b1, N, C, 4 * C, 0);
  for (int i = 0; i < N; i++)
    attn__gelu_forward(act + (size_t)i * 4 * C, pre + (size_t)i * 4 * C, 4 * C);
  float *x_next = a->x + (l + 1) * BTC;
  memcpy(x_next, xa, BTC * sizeof(float)); /* the residual */
  attn__linear(x_next, act, w->W2, w->b2, N, 4 * C, C, 1);
}

/* Its backward: given dx = dLoss/dx_{l+1} in a->dx, adds the MLP's
 * gradients into g and leaves dLoss/da_l in a->dx (the residual's dx plus
 * what came back through the MLP). */
static void mlp_backward(acts_t *a, const attn__tf_layer *w, const attn__tf_layer *g,
                         const attn_tf_config *cfg, int l, int N, int C) {
  const size_t BTC = (size_t)N * C;
  const float *xa = a->xa + l * BTC, *pre = a->pre + l * 4 * BTC, *act = a->act + l * 4 * BTC;
  memset(a->dact, 0, 4 * BTC * sizeof(float));
  linear_backward(a->dact, g->W2, g->b2, a->dx, act, w->W2, N, 4 * C, C);
  for (int i = 0; i < N; i++) {
    const size_t at = (size_t)i * 4 * C;
    attn__gelu_backward(a->dpre + at, pre + at, a->dact + at, 4 * C);
  }
  if (!cfg->layer_norm) {
    linear_backward(a->dx, g->W1, g->b1, a->dpre, xa, w->W1, N, C, 4 * C);
    return;
  }
  memset(a->dh, 0, BTC * sizeof(float));
  linear_backward(a->dh, g->W1, g->b1, a->dpre, a->h2 + l * BTC, w->W1, N, C, 4 * C);
  attn__layernorm_backward(a->dx, g->ln2g, g->ln2b, a->dh, xa, w->ln2g,
                           a->ln_mean + (size_t)(2 * l + 1) * N,
                           a->ln_rstd + (size_t)(2 * l + 1) * N, N, C);
}

/* The forward pass into the activations; returns the summed loss. With
 * dlogits set, also dlogits = d(mean loss) / d logits, in place. */
static double forward(acts_t *a, const attn_tf_model *m, const int32_t *tokens,
                      int B, int T, float *losses, int dlogits) {
  const attn_tf_config *cfg = &m->cfg;
  const int C = cfg->d_model, NH = cfg->heads, V = cfg->vocab, N = B * T;
  const size_t BTC = (size_t)N * C;
  const int L = cfg->layers;
  attn__tf_params P;
  attn__tf_point(&P, m->params, cfg);
  embed_forward(a->x, tokens, P.tok, P.pos, B, T, C);
  for (int l = 0; l < L; l++) {
    const attn__tf_layer w = attn__tf_layer_at(&P, l);
    const float *x = a->x + l * BTC;
    float *q = a->q + l * BTC, *k = a->k + l * BTC, *v = a->v + l * BTC, *z = a->z + l * BTC;
    const float *h = x;
    if (cfg->layer_norm) {
      float *h1 = a->h1 + l * BTC;
      attn__layernorm_forward(h1, a->ln_mean + (size_t)2 * l * N, a->ln_rstd + (size_t)2 * l * N,
                              x, w.ln1g, w.ln1b, N, C);
      h = h1;
    }
    attn__linear(q, h, w.Wq, w.bq, N, C, C, 0);
    attn__linear(k, h, w.Wk, w.bk, N, C, C, 0);
    attn__linear(v, h, w.Wv, w.bv, N, C, C, 0);
    attention_forward(z, a->att + (size_t)l * B * NH * T * T, q, k, v,
                      m->off + (size_t)l * NH, B, T, C, NH);
    float *x_next = a->x + (l + 1) * BTC;
    float *xa = cfg->mlp ? a->xa + l * BTC : x_next;
    memcpy(xa, x, BTC * sizeof(float)); /* the residual */
    attn__linear(xa, z, w.Wo, w.bo, N, C, C, 1);
    if (cfg->mlp) mlp_forward(a, &w, cfg, l, N, C);
  }
  const float *f = a->x + L * BTC;
  if (cfg->layer_norm) {
    attn__layernorm_forward(a->xf, a->ln_mean + (size_t)2 * L * N, a->ln_rstd + (size_t)2 * L * N,
                            f, P.lnfg, P.lnfb, N, C);
    f = a->xf;
  }
  attn__linear(a->logits, f, P.Wu, P.bu, N, C, V, 0);
  return crossentropy(losses, dlogits ? a->logits : NULL, a->row, a->logits, tokens,
                      B, T, V, 1.0f / (float)N);
}

/* The backward pass, from the dlogits forward() left in a->logits into the
 * zeroed gradient block. */
static void backward(acts_t *a, attn_tf_model *m, const int32_t *tokens, int B, int T) {
  const attn_tf_config *cfg = &m->cfg;
  const int C = cfg->d_model, NH = cfg->heads, V = cfg->vocab, N = B * T;
  const size_t BTC = (size_t)N * C;
  const int L = cfg->layers;
  attn__tf_params P, G;
  attn__tf_point(&P, m->params, cfg);
  attn__tf_point(&G, m->grads, cfg);
  memset(a->dx, 0, BTC * sizeof(float));
  const float *xL = a->x + L * BTC;
  if (cfg->layer_norm) { /* logits = LNf(x_L) Wu + bu */
    memset(a->dh, 0, BTC * sizeof(float));
    linear_backward(a->dh, G.Wu, G.bu, a->logits, a->xf, P.Wu, N, C, V);
    attn__layernorm_backward(a->dx, G.lnfg, G.lnfb, a->dh, xL, P.lnfg, a->ln_mean + (size_t)2 * L * N,
                             a->ln_rstd + (size_t)2 * L * N, N, C);
  } else {
    linear_backward(a->dx, G.Wu, G.bu, a->logits, xL, P.Wu, N, C, V);
  }
  for (int l = L - 1; l >= 0; l--) {
    const attn__tf_layer w = attn__tf_layer_at(&P, l), g = attn__tf_layer_at(&G, l);
    const float *x = a->x + l * BTC, *q = a->q + l * BTC, *k = a->k + l * BTC,
                *v = a->v + l * BTC, *z = a->z + l * BTC;
    if (cfg->mlp) mlp_backward(a, &w, &g, cfg, l, N, C); /* a->dx is now dLoss/da_l */
    /* a_l = x_l + z Wo + bo: dx passes to x_l as it is, and through Wo. */
    memset(a->dz, 0, BTC * sizeof(float));
    linear_backward(a->dz, g.Wo, g.bo, a->dx, z, w.Wo, N, C, C);
    attention_backward(a->dq, a->dk, a->dv, a->dz, z, a->att + (size_t)l * B * NH * T * T,
                       q, k, v, m->off + (size_t)l * NH, B, T, C, NH, a->scratch);
    /* Q, K, V came from h = x_l, or from h = LN1(x_l): then their gradient
     * gathers in dh and goes back through the LayerNorm. */
    const float *h = cfg->layer_norm ? a->h1 + l * BTC : x;
    float *dh = cfg->layer_norm ? a->dh : a->dx;
    if (cfg->layer_norm) memset(a->dh, 0, BTC * sizeof(float));
    linear_backward(dh, g.Wq, g.bq, a->dq, h, w.Wq, N, C, C);
    /* bk adds q_i . bk to every score of row i, which the softmax ignores:
     * its gradient is exactly 0. Summing dk would give rounding noise, which
     * AdamW's normalisation would turn into steps of up to lr. */
    linear_backward(dh, g.Wk, NULL, a->dk, h, w.Wk, N, C, C);
    linear_backward(dh, g.Wv, g.bv, a->dv, h, w.Wv, N, C, C);
    if (cfg->layer_norm)
      attn__layernorm_backward(a->dx, g.ln1g, g.ln1b, a->dh, x, w.ln1g,
                               a->ln_mean + (size_t)2 * l * N, a->ln_rstd + (size_t)2 * l * N, N, C);
  }
  embed_backward(G.tok, G.pos, a->dx, tokens, B, T, C);
}

int attn_tf_forward(float *loss, float *losses, float *logits, float *weights,
                    const attn_tf_model *model, const int32_t *tokens, int batch,
                    int n_tokens, void *workspace) {
  const int status = check_call(model, tokens, batch, n_tokens, workspace);
  if (status != ATTN_OK) return status;
  const attn_tf_config *cfg = &model->cfg;
  const int T = n_tokens - 1;
  acts_t a;
  carve(&a, workspace, cfg, batch, T);
  const double total = forward(&a, model, tokens, batch, T, losses, 0);
  if (loss) *loss = (float)(total / ((double)batch * T));
  if (logits) memcpy(logits, a.logits, (size_t)batch * T * cfg->vocab * sizeof(float));
  if (weights)
    memcpy(weights, a.att, (size_t)cfg->layers * batch * cfg->heads * T * T * sizeof(float));
  return ATTN_OK;
}

int attn_tf_gradients(float *loss, attn_tf_model *model, const int32_t *tokens,
                      int batch, int n_tokens, void *workspace) {
  int status = check_call(model, tokens, batch, n_tokens, workspace);
  if (status != ATTN_OK) return status;
  if (!model->grads) return ATTN_E_NULL;
  const int T = n_tokens - 1;
  acts_t a;
  carve(&a, workspace, &model->cfg, batch, T);
  memset(model->grads, 0, attn_tf_param_count(&model->cfg) * sizeof(float));
  const double total = forward(&a, model, tokens, batch, T, NULL, 1);
  backward(&a, model, tokens, batch, T);
  if (loss) *loss = (float)(total / ((double)batch * T));
  return ATTN_OK;
}

/* ==== AdamW ============================================================== */

/* b^n for a whole n, by squaring: PyTorch's beta ** step, in double. */
static double power(double b, int n) {
  double r = 1;
  for (; n; n >>= 1, b *= b)
    if (n & 1) r *= b;
  return r;
}

static int check_adamw(const attn_adamw *o) {
  if (!o) return ATTN_E_NULL;
  const int ok = o->lr > 0 && o->lr < INFINITY && o->beta1 >= 0 && o->beta1 < 1 &&
                 o->beta2 >= 0 && o->beta2 < 1 && o->eps >= 0 && o->eps < INFINITY &&
                 o->weight_decay >= 0 && o->weight_decay < INFINITY;
  return ok ? ATTN_OK : ATTN_E_OPTIM;
}

/* One step of torch.optim.AdamW (step is 1 for the first), the same
 * operations in the same order as its single-tensor loop:
 *   p *= 1 - lr wd;  m += (1 - b1)(g - m);  v = b2 v + (1 - b2) g^2
 *   p -= (lr / (1 - b1^step)) m / (sqrt(v) / sqrt(1 - b2^step) + eps) */
static void adamw(float *p, float *m, float *v, const float *g, size_t n, int step,
                  const attn_adamw *o) {
  const float decay = (float)(1.0 - (double)o->lr * o->weight_decay);
  const float w1 = (float)(1.0 - o->beta1), w2 = (float)(1.0 - o->beta2);
  const float step_size = (float)(o->lr / (1.0 - power(o->beta1, step)));
  const float bc2_sqrt = (float)sqrt(1.0 - power(o->beta2, step));
  for (size_t i = 0; i < n; i++) {
    p[i] *= decay;
    /* torch.lerp(m, g, w1), which switches form at w1 = 0.5 */
    m[i] = w1 < 0.5f ? m[i] + w1 * (g[i] - m[i]) : g[i] - (g[i] - m[i]) * (1.0f - w1);
    v[i] = v[i] * o->beta2 + w2 * g[i] * g[i];
    p[i] -= step_size * (m[i] / (sqrtf(v[i]) / bc2_sqrt + o->eps));
  }
}

/* model->step++, then one AdamW step of every parameter from model->grads
 * (arguments checked). */
static void update(attn_tf_model *model, const attn_adamw *opt) {
  model->step++;
  attn__tf_params P; /* every tensor of the block: one loop over all of them */
  attn__tf_point(&P, model->params, &model->cfg);
  adamw(model->params, model->m, model->v, model->grads, P.count, model->step, opt);
}

int attn_tf_train_step(float *loss, attn_tf_model *model, const int32_t *tokens,
                       int batch, int n_tokens, const attn_adamw *opt, void *workspace) {
  int status = check_adamw(opt);
  if (status != ATTN_OK) return status;
  if (model && (!model->m || !model->v)) return ATTN_E_NULL;
  if (model && model->step == INT32_MAX) return ATTN_E_SIZE;
  status = attn_tf_gradients(loss, model, tokens, batch, n_tokens, workspace);
  if (status != ATTN_OK) return status;
  update(model, opt);
  return ATTN_OK;
}

int attn_tf_update(attn_tf_model *model, const attn_adamw *opt) {
  if (!model || !model->params || !model->grads || !model->m || !model->v) return ATTN_E_NULL;
  int status = attn__tf_check_config(&model->cfg);
  if (status == ATTN_OK && model->step == INT32_MAX) status = ATTN_E_SIZE;
  if (status == ATTN_OK) status = check_adamw(opt);
  if (status != ATTN_OK) return status;
  update(model, opt);
  return ATTN_OK;
}

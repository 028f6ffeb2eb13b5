/* generate.c: one token at a time through a trained model, with the keys
 * and values of every earlier position cached (the KV cache).
 *
 * attn_tf_decode feeds the token at `position` of n sequences (beams, say)
 * that share that position: it computes only this position's activations
 * (projections of n rows, O(C^2) each, and one attention row over the
 * position + 1 cached keys, O(position C)), stores its keys and values in the
 * cache, and returns the next-token logits. The same operations as the
 * trainer's forward pass (src/train.c), on one row instead of a sequence.
 *
 * The cache of n sequences is (n, L, 2, context, C) floats: per sequence
 * and layer, K (context, C) then V (context, C), rows 0 .. position filled.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* The workspace, in floats: x, h, q, k, v, z (n, C) each; hidden (n, 4C);
 * mean, rstd (n); weights (context); the layer's output (n, C). */
typedef struct {
  float *x, *h, *q, *k, *v, *z, *hidden, *mean, *rstd, *weights, *y;
} decode_ws;

static uint64_t decode_floats(const attn_tf_config *cfg, int n) {
  const uint64_t C = (uint64_t)cfg->d_model, N = (uint64_t)n;
  return 7 * N * C + 4 * N * C + 2 * N + (uint64_t)cfg->context + 16 * 11;
}

static decode_ws carve(float *base, const attn_tf_config *cfg, int n) {
  const size_t C = (size_t)cfg->d_model, N = (size_t)n;
  const size_t sizes[11] = {N * C, N * C, N * C, N * C, N * C, N * C, 4 * N * C,
                            N, N, (size_t)cfg->context, N * C};
  decode_ws w;
  float **slots[11] = {&w.x, &w.h, &w.q, &w.k, &w.v, &w.z, &w.hidden,
                       &w.mean, &w.rstd, &w.weights, &w.y};
  size_t at = 0;
  for (int i = 0; i < 11; i++) {
    *slots[i] = base + at;
    at += (sizes[i] + 3) & ~(size_t)3; /* 16-byte aligned pieces */
  }
  return w;
}

size_t attn_tf_cache_size(const attn_tf_config *cfg, int n) {
  if (n <= 0 || attn__tf_check_config(cfg) != ATTN_OK) return 0;
  const uint64_t floats = attn__mul(attn__mul((uint64_t)n * cfg->layers, 2 * (uint64_t)cfg->context),
                                    (uint64_t)cfg->d_model);
  if (!attn__fits(floats, 4)) return 0;
  return (size_t)(floats ? floats : 1) * sizeof(float);
}

size_t attn_tf_decode_workspace_size(const attn_tf_config *cfg, int n) {
  if (n <= 0 || attn__tf_check_config(cfg) != ATTN_OK) return 0;
  const uint64_t floats = decode_floats(cfg, n);
  return attn__fits(floats, 4) ? (size_t)floats * sizeof(float) : 0;
}

/* h = LayerNorm(x) with gain g and bias b, into out; or x itself without
 * layer_norm. */
static const float *norm(decode_ws *w, float *out, const float *x, const attn_tf_config *cfg,
                         const float *g, const float *b, int n) {
  if (!cfg->layer_norm) return x;
  attn__layernorm_forward(out, w->mean, w->rstd, x, g, b, n, cfg->d_model);
  return out;
}

/* Y (n, OC) = X (n, IC) W + b, or += with accumulate: the one linear layer,
 * a row at a time, so that a sequence's logits do not depend on how many
 * run beside it (greedy decoding and beam search agree bit for bit). */
static void linear_rows(float *Y, const float *X, const float *W, const float *b, int n, int IC,
                        int OC, int accumulate) {
  for (int s = 0; s < n; s++)
    attn__linear(Y + (size_t)s * OC, X + (size_t)s * IC, W, b, 1, IC, OC, accumulate);
}

int attn_tf_decode(float *logits, float *cache, const attn_tf_model *model,
                   const int32_t *tokens, int n, int position, void *workspace) {
  if (!model) return ATTN_E_NULL;
  const attn_tf_config *cfg = &model->cfg;
  const int status = attn__tf_check_config(cfg);
  if (status != ATTN_OK) return status;
  if (!logits || !cache || !tokens || !model->params || (!model->off && cfg->layers > 0))
    return ATTN_E_NULL;
  if (n <= 0 || position < 0 || position >= cfg->context ||
      attn_tf_cache_size(cfg, n) == 0 || attn_tf_decode_workspace_size(cfg, n) == 0)
    return ATTN_E_SIZE;
  for (int i = 0; i < n; i++)
    if (tokens[i] < 0 || tokens[i] >= cfg->vocab) return ATTN_E_TOKEN;
  if (!workspace) return ATTN_E_WORKSPACE;

  const int C = cfg->d_model, NH = cfg->heads, hs = C / NH, V = cfg->vocab;
  const size_t plane = (size_t)cfg->context * C; /* one K or V of one layer */
  const float scale = 1.0f / sqrtf((float)hs);
  decode_ws w = carve(workspace, cfg, n);
  attn__tf_params P;
  attn__tf_point(&P, model->params, cfg);
  const float *pos = P.pos + (size_t)position * C;
  for (int s = 0; s < n; s++)
    for (int c = 0; c < C; c++) w.x[(size_t)s * C + c] = P.tok[(size_t)tokens[s] * C + c] + pos[c];

  for (int l = 0; l < cfg->layers; l++) {
    const attn__tf_layer p = attn__tf_layer_at(&P, l);
    const float *h = norm(&w, w.h, w.x, cfg, p.ln1g, p.ln1b, n);
    linear_rows(w.q, h, p.Wq, p.bq, n, C, C, 0);
    linear_rows(w.k, h, p.Wk, p.bk, n, C, C, 0);
    linear_rows(w.v, h, p.Wv, p.bv, n, C, C, 0);
    for (int s = 0; s < n; s++) {
      float *K = cache + ((size_t)s * cfg->layers + l) * 2 * plane, *Vc = K + plane;
      memcpy(K + (size_t)position * C, w.k + (size_t)s * C, C * sizeof(float));
      memcpy(Vc + (size_t)position * C, w.v + (size_t)s * C, C * sizeof(float));
      for (int hd = 0; hd < NH; hd++) {
        float *z = w.z + (size_t)s * C + (size_t)hd * hs;
        if (model->off[(size_t)l * NH + hd]) {
          memset(z, 0, hs * sizeof(float));
          continue;
        }
        /* The newest query sees every cached key: no mask needed. */
        attn__attention_strided(z, (size_t)C, w.weights, w.q + (size_t)s * C + (size_t)hd * hs,
                                (size_t)C, K + (size_t)hd * hs, (size_t)C, Vc + (size_t)hd * hs,
                                (size_t)C, 1, position + 1, hs, hs, scale, NULL, NULL);
      }
    }
    linear_rows(w.x, w.z, p.Wo, p.bo, n, C, C, 1); /* residual */
    if (cfg->mlp) {
      const float *h2 = norm(&w, w.h, w.x, cfg, p.ln2g, p.ln2b, n);
      linear_rows(w.hidden, h2, p.W1, p.b1, n, C, 4 * C, 0);
      for (int s = 0; s < n; s++)
        attn__gelu_forward(w.hidden + (size_t)s * 4 * C, w.hidden + (size_t)s * 4 * C, 4 * C);
      linear_rows(w.x, w.hidden, p.W2, p.b2, n, 4 * C, C, 1);
    }
  }
  const float *f = norm(&w, w.y, w.x, cfg, P.lnfg, P.lnfb, n);
  linear_rows(logits, f, P.Wu, P.bu, n, C, V, 0);
  return ATTN_OK;
}

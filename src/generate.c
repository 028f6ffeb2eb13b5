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

/* The tensor `name` of `layer` (-1: the others), or NULL when the config
 * leaves it out: the names of attn_tf_param_info. */
static const float *param(const attn_tf_model *m, int layer, const char *name) {
  attn_tf_param t;
  for (int i = 0; attn_tf_param_info(&t, &m->cfg, i) == ATTN_OK; i++)
    if (t.layer == layer && !strcmp(t.name, name)) return m->params + t.offset;
  return NULL;
}

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
  attn_tf_param first;
  if (n <= 0 || attn_tf_param_info(&first, cfg, 0) != ATTN_OK) return 0;
  const uint64_t floats = (uint64_t)n * cfg->layers * 2 * cfg->context * cfg->d_model;
  if (!attn__fits(floats, 4)) return 0;
  return (size_t)(floats ? floats : 1) * sizeof(float);
}

size_t attn_tf_decode_workspace_size(const attn_tf_config *cfg, int n) {
  attn_tf_param first;
  if (n <= 0 || attn_tf_param_info(&first, cfg, 0) != ATTN_OK) return 0;
  const uint64_t floats = decode_floats(cfg, n);
  return attn__fits(floats, 4) ? (size_t)floats * sizeof(float) : 0;
}

/* Y (n, OC) = X (n, IC) W + b, or += with accumulate. */
static void linear(float *Y, const float *X, const float *W, const float *b, int n,
                   int IC, int OC, int accumulate) {
  attn__gemm(Y, (size_t)OC, X, (size_t)IC, W, (size_t)OC, n, IC, OC, 0, accumulate);
  for (int i = 0; i < n; i++)
    for (int o = 0; o < OC; o++) Y[(size_t)i * OC + o] += b[o];
}

/* h = LayerNorm(x) with the tensors `g_name`, `b_name` of `layer`, or x
 * itself without layer_norm. */
static const float *norm(decode_ws *w, float *out, const float *x, const attn_tf_model *m,
                         int layer, const char *g_name, const char *b_name, int n) {
  if (!m->cfg.layer_norm) return x;
  attn__layernorm_forward(out, w->mean, w->rstd, x, param(m, layer, g_name),
                          param(m, layer, b_name), n, m->cfg.d_model);
  return out;
}

int attn_tf_decode(float *logits, float *cache, const attn_tf_model *model,
                   const int32_t *tokens, int n, int position, void *workspace) {
  if (!model) return ATTN_E_NULL;
  attn_tf_param first;
  const int status = attn_tf_param_info(&first, &model->cfg, 0);
  if (status != ATTN_OK) return status;
  const attn_tf_config *cfg = &model->cfg;
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
  const float *tok = param(model, -1, "tok"), *pos = param(model, -1, "pos") + (size_t)position * C;
  for (int s = 0; s < n; s++)
    for (int c = 0; c < C; c++) w.x[(size_t)s * C + c] = tok[(size_t)tokens[s] * C + c] + pos[c];

  for (int l = 0; l < cfg->layers; l++) {
    const float *h = norm(&w, w.h, w.x, model, l, "ln1.g", "ln1.b", n);
    linear(w.q, h, param(model, l, "Wq"), param(model, l, "bq"), n, C, C, 0);
    linear(w.k, h, param(model, l, "Wk"), param(model, l, "bk"), n, C, C, 0);
    linear(w.v, h, param(model, l, "Wv"), param(model, l, "bv"), n, C, C, 0);
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
    linear(w.x, w.z, param(model, l, "Wo"), param(model, l, "bo"), n, C, C, 1); /* residual */
    if (cfg->mlp) {
      const float *h2 = norm(&w, w.h, w.x, model, l, "ln2.g", "ln2.b", n);
      linear(w.hidden, h2, param(model, l, "W1"), param(model, l, "b1"), n, C, 4 * C, 0);
      for (int s = 0; s < n; s++)
        attn__gelu_forward(w.hidden + (size_t)s * 4 * C, w.hidden + (size_t)s * 4 * C, 4 * C);
      linear(w.x, w.hidden, param(model, l, "W2"), param(model, l, "b2"), n, 4 * C, C, 1);
    }
  }
  const float *f = norm(&w, w.y, w.x, model, -1, "lnf.g", "lnf.b", n);
  linear(logits, f, param(model, -1, "Wu"), param(model, -1, "bu"), n, C, V, 0);
  return ATTN_OK;
}

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
#include "simd.h"

/* The parameters by name: the tensors outside the layers, layer 0's, and
 * the distance between two layers' blocks (every layer has one layout).
 * Looked up once per call: a name lookup walks the whole layout, and a
 * decoding step is short enough for that to show. */
enum { N_NAMES = 22 };
static const char *const NAMES[N_NAMES] = {
    "tok", "pos", "lnf.g", "lnf.b", "Wu", "bu",                               /* layer -1 */
    "ln1.g", "ln1.b", "Wq", "Wk", "Wv", "Wo", "bq", "bk", "bv", "bo", "ln2.g", /* layer 0.. */
    "ln2.b", "W1", "b1", "W2", "b2"};
enum { GLOBAL_NAMES = 6 };

typedef struct {
  const float *at[N_NAMES]; /* NULL: not in this config */
  size_t stride;            /* floats from one layer's tensors to the next's */
} params_t;

static params_t resolve(const attn_tf_model *m) {
  params_t p = {{0}, 0};
  size_t layer0 = 0;
  attn_tf_param t;
  for (int i = 0; attn_tf_param_info(&t, &m->cfg, i) == ATTN_OK; i++) {
    if (t.layer == 1 && !p.stride) p.stride = t.offset - layer0;
    if (t.layer > 0) continue;
    for (int k = t.layer < 0 ? 0 : GLOBAL_NAMES; k < (t.layer < 0 ? GLOBAL_NAMES : N_NAMES); k++)
      if (!strcmp(t.name, NAMES[k])) {
        if (t.layer == 0 && !layer0) layer0 = t.offset;
        p.at[k] = m->params + t.offset;
      }
  }
  return p;
}

/* The tensor `name` of `layer` (-1: the others), or NULL. */
static const float *get(const params_t *p, int layer, const char *name) {
  for (int k = 0; k < N_NAMES; k++)
    if (!strcmp(NAMES[k], name))
      return p->at[k] && layer > 0 ? p->at[k] + (size_t)layer * p->stride : p->at[k];
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
  const uint64_t floats = attn__mul(attn__mul((uint64_t)n * cfg->layers, 2 * (uint64_t)cfg->context),
                                    (uint64_t)cfg->d_model);
  if (!attn__fits(floats, 4)) return 0;
  return (size_t)(floats ? floats : 1) * sizeof(float);
}

size_t attn_tf_decode_workspace_size(const attn_tf_config *cfg, int n) {
  attn_tf_param first;
  if (n <= 0 || attn_tf_param_info(&first, cfg, 0) != ATTN_OK) return 0;
  const uint64_t floats = decode_floats(cfg, n);
  return attn__fits(floats, 4) ? (size_t)floats * sizeof(float) : 0;
}

/* y (OC) += x (IC) W (IC, OC), a row of W at a time (the GEMM would pack
 * all of W for one row, which costs as much as the product itself). */
static void row_times(float *y, const float *x, const float *W, int IC, int OC) {
  for (int i = 0; i < IC; i++) {
    const float xi = x[i], *w = W + (size_t)i * OC;
    int o = 0;
#if ATTN_HAVE_SIMD
    if (attn__use_simd()) {
      const vf4 vx = vf4_splat(xi);
      for (; o + 4 <= OC; o += 4) vf4_store(y + o, vf4_add(vf4_load(y + o), vf4_mul(vx, vf4_load(w + o))));
    }
#endif
    for (; o < OC; o++) y[o] += xi * w[o];
  }
}

/* Y (n, OC) = X (n, IC) W + b, or += with accumulate; n is a few rows (beams). */
static void linear(float *Y, const float *X, const float *W, const float *b, int n,
                   int IC, int OC, int accumulate) {
  for (int r = 0; r < n; r++) {
    float *y = Y + (size_t)r * OC;
    if (!accumulate) memset(y, 0, (size_t)OC * sizeof(float));
    row_times(y, X + (size_t)r * IC, W, IC, OC);
    for (int o = 0; o < OC; o++) y[o] += b[o];
  }
}

/* h = LayerNorm(x) with the tensors `g_name`, `b_name` of `layer`, or x
 * itself without layer_norm. */
static const float *norm(decode_ws *w, float *out, const float *x, const attn_tf_model *m,
                         const params_t *p, int layer, const char *g_name, const char *b_name, int n) {
  if (!m->cfg.layer_norm) return x;
  attn__layernorm_forward(out, w->mean, w->rstd, x, get(p, layer, g_name),
                          get(p, layer, b_name), n, m->cfg.d_model);
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
  const params_t P = resolve(model);
  const float *tok = get(&P, -1, "tok"), *pos = get(&P, -1, "pos") + (size_t)position * C;
  for (int s = 0; s < n; s++)
    for (int c = 0; c < C; c++) w.x[(size_t)s * C + c] = tok[(size_t)tokens[s] * C + c] + pos[c];

  for (int l = 0; l < cfg->layers; l++) {
    const float *h = norm(&w, w.h, w.x, model, &P, l, "ln1.g", "ln1.b", n);
    linear(w.q, h, get(&P, l, "Wq"), get(&P, l, "bq"), n, C, C, 0);
    linear(w.k, h, get(&P, l, "Wk"), get(&P, l, "bk"), n, C, C, 0);
    linear(w.v, h, get(&P, l, "Wv"), get(&P, l, "bv"), n, C, C, 0);
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
    linear(w.x, w.z, get(&P, l, "Wo"), get(&P, l, "bo"), n, C, C, 1); /* residual */
    if (cfg->mlp) {
      const float *h2 = norm(&w, w.h, w.x, model, &P, l, "ln2.g", "ln2.b", n);
      linear(w.hidden, h2, get(&P, l, "W1"), get(&P, l, "b1"), n, C, 4 * C, 0);
      for (int s = 0; s < n; s++)
        attn__gelu_forward(w.hidden + (size_t)s * 4 * C, w.hidden + (size_t)s * 4 * C, 4 * C);
      linear(w.x, w.hidden, get(&P, l, "W2"), get(&P, l, "b2"), n, 4 * C, C, 1);
    }
  }
  const float *f = norm(&w, w.y, w.x, model, &P, -1, "lnf.g", "lnf.b", n);
  linear(logits, f, get(&P, -1, "Wu"), get(&P, -1, "bu"), n, C, V, 0);
  return ATTN_OK;
}

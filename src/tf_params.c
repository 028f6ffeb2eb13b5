/* tf_params.c: the transformer's parameters. One block of floats per model
 * (and one each of the same layout for its gradients and AdamW's two
 * moments), and one struct of pointers into a block, attn__tf_params (llm.c's
 * ParameterTensors), that the trainer, the decoder and AdamW use.
 *
 * The tables below are the layout, in block order: HEAD, then LAYER once per
 * layer, then TAIL; the GPT block's tensors (LayerNorm, MLP) only behind
 * their config flags. Each entry names its field of the struct (offsetof),
 * so the struct, attn_tf_param_info's table and attn_tf_init all come from
 * these lines, and the static asserts below keep every field in them.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* A tensor's size, as rows x cols of these dimensions. */
enum dim { ONE, D_MODEL, VOCAB, CONTEXT, HIDDEN };

/* What a tensor needs in the config: bits of these (0: always there). */
enum { NEEDS_LN = 1, NEEDS_MLP = 2 };

/* How attn_tf_init sets it: uniform of standard deviation 1 (EMBED),
 * 1/sqrt(C) (WEIGHT), 1/sqrt(4C) (WEIGHT_4C), 0.02 (UNEMBED); or 0, or 1. */
enum init { ZEROS, ONES, EMBED, WEIGHT, WEIGHT_4C, UNEMBED };

typedef struct {
  const char *name;
  unsigned short field; /* offsetof its pointer in attn__tf_params (HEAD,
                           TAIL) or attn__tf_layer (LAYER) */
  unsigned char rows, cols; /* enum dim */
  unsigned char needs, init;
} tensor_t;

#define P(f) offsetof(attn__tf_params, f)
#define L(f) offsetof(attn__tf_layer, f)
static const tensor_t HEAD[] = {{"tok", P(tok), VOCAB, D_MODEL, 0, EMBED},
                                {"pos", P(pos), CONTEXT, D_MODEL, 0, EMBED}};
static const tensor_t LAYER[] = {
    {"ln1.g", L(ln1g), ONE, D_MODEL, NEEDS_LN, ONES},
    {"ln1.b", L(ln1b), ONE, D_MODEL, NEEDS_LN, ZEROS},
    {"Wq", L(Wq), D_MODEL, D_MODEL, 0, WEIGHT},
    {"Wk", L(Wk), D_MODEL, D_MODEL, 0, WEIGHT},
    {"Wv", L(Wv), D_MODEL, D_MODEL, 0, WEIGHT},
    {"Wo", L(Wo), D_MODEL, D_MODEL, 0, WEIGHT},
    {"bq", L(bq), ONE, D_MODEL, 0, ZEROS},
    {"bk", L(bk), ONE, D_MODEL, 0, ZEROS},
    {"bv", L(bv), ONE, D_MODEL, 0, ZEROS},
    {"bo", L(bo), ONE, D_MODEL, 0, ZEROS},
    {"ln2.g", L(ln2g), ONE, D_MODEL, NEEDS_LN | NEEDS_MLP, ONES},
    {"ln2.b", L(ln2b), ONE, D_MODEL, NEEDS_LN | NEEDS_MLP, ZEROS},
    {"W1", L(W1), D_MODEL, HIDDEN, NEEDS_MLP, WEIGHT},
    {"b1", L(b1), ONE, HIDDEN, NEEDS_MLP, ZEROS},
    {"W2", L(W2), HIDDEN, D_MODEL, NEEDS_MLP, WEIGHT_4C},
    {"b2", L(b2), ONE, D_MODEL, NEEDS_MLP, ZEROS}};
static const tensor_t TAIL[] = {{"lnf.g", P(lnfg), ONE, D_MODEL, NEEDS_LN, ONES},
                                {"lnf.b", P(lnfb), ONE, D_MODEL, NEEDS_LN, ZEROS},
                                {"Wu", P(Wu), D_MODEL, VOCAB, 0, UNEMBED},
                                {"bu", P(bu), ONE, VOCAB, 0, ZEROS}};
#undef P
#undef L
enum {
  N_HEAD = sizeof HEAD / sizeof *HEAD,
  N_LAYER = sizeof LAYER / sizeof *LAYER,
  N_TAIL = sizeof TAIL / sizeof *TAIL,
};
_Static_assert(N_LAYER * sizeof(float *) == sizeof(attn__tf_layer),
               "every tensor of attn__tf_layer has its line in LAYER");
_Static_assert((N_HEAD + N_TAIL) * sizeof(float *) == offsetof(attn__tf_params, layer0),
               "every tensor of attn__tf_params has its line in HEAD or TAIL");

/* The three parts of a block, in order; LAYER repeats `layers` times. */
static const struct {
  const tensor_t *list;
  int n;
} PARTS[3] = {{HEAD, N_HEAD}, {LAYER, N_LAYER}, {TAIL, N_TAIL}};

static uint64_t dim(const attn_tf_config *cfg, int d) {
  switch (d) {
    case D_MODEL: return (uint64_t)cfg->d_model;
    case VOCAB: return (uint64_t)cfg->vocab;
    case CONTEXT: return (uint64_t)cfg->context;
    case HIDDEN: return 4 * (uint64_t)cfg->d_model;
    default: return 1;
  }
}

/* 1 when cfg has tensor t. */
static int has(const tensor_t *t, const attn_tf_config *cfg) {
  const int have = (cfg->layer_norm ? NEEDS_LN : 0) | (cfg->mlp ? NEEDS_MLP : 0);
  return (t->needs & have) == t->needs;
}

/* Floats of a part (all of HEAD or TAIL, one layer of LAYER) for cfg. */
static uint64_t part_floats(int part, const attn_tf_config *cfg) {
  uint64_t n = 0;
  for (int e = 0; e < PARTS[part].n; e++) {
    const tensor_t *t = &PARTS[part].list[e];
    if (has(t, cfg)) n += dim(cfg, t->rows) * dim(cfg, t->cols);
  }
  return n;
}

int attn__tf_check_config(const attn_tf_config *cfg) {
  if (!cfg) return ATTN_E_NULL;
  if ((cfg->mlp != 0 && cfg->mlp != 1) || (cfg->layer_norm != 0 && cfg->layer_norm != 1))
    return ATTN_E_CONFIG;
  if (cfg->vocab <= 0 || cfg->context <= 0 || cfg->d_model <= 0 || cfg->layers < 0)
    return ATTN_E_SIZE;
  if (cfg->heads <= 0 || cfg->d_model % cfg->heads != 0) return ATTN_E_HEADS;
  /* The largest tensors, then the four blocks (parameters, gradients, m and
   * v: 16 bytes per parameter), must be addressable. */
  const uint64_t C = (uint64_t)cfg->d_model;
  if (!attn__fits(4 * C * C, 4) || !attn__fits((uint64_t)cfg->vocab * C, 4) ||
      !attn__fits((uint64_t)cfg->context * C, 4))
    return ATTN_E_SIZE;
  const uint64_t layer = part_floats(1, cfg), ends = part_floats(0, cfg) + part_floats(2, cfg);
  if ((uint64_t)cfg->layers > (uint64_t)INT32_MAX * 8 / layer ||
      !attn__fits(ends + (uint64_t)cfg->layers * layer, 16))
    return ATTN_E_SIZE;
  return ATTN_OK;
}

/* The index-th tensor of cfg's (checked) block, in block order: its line,
 * with its layer (-1 outside the layers) and offset in floats; NULL past the
 * last, with *offset the block's size. */
static const tensor_t *tensor_at(const attn_tf_config *cfg, int index, int *layer,
                                 uint64_t *offset) {
  *offset = 0;
  int64_t i = 0; /* the index of the part's first tensor */
  for (int part = 0; part < 3; part++) {
    const int64_t repeat = part == 1 ? cfg->layers : 1;
    int present = 0;
    for (int e = 0; e < PARTS[part].n; e++) present += has(&PARTS[part].list[e], cfg);
    const uint64_t floats = part_floats(part, cfg);
    if (index < i || index >= i + repeat * present) {
      *offset += (uint64_t)repeat * floats;
      i += repeat * present;
      continue;
    }
    const int l = (int)((index - i) / present);
    int k = (int)((index - i) % present);
    *offset += (uint64_t)l * floats;
    *layer = part == 1 ? l : -1;
    for (int e = 0;; e++) {
      const tensor_t *t = &PARTS[part].list[e];
      if (!has(t, cfg)) continue;
      if (k-- == 0) return t;
      *offset += dim(cfg, t->rows) * dim(cfg, t->cols);
    }
  }
  return NULL;
}

size_t attn_tf_param_count(const attn_tf_config *cfg) {
  if (attn__tf_check_config(cfg) != ATTN_OK) return 0;
  int layer;
  uint64_t count;
  tensor_at(cfg, -1, &layer, &count);
  return (size_t)count;
}

int attn_tf_param_info(attn_tf_param *info, const attn_tf_config *cfg, int index) {
  if (!info) return ATTN_E_NULL;
  const int status = attn__tf_check_config(cfg);
  if (status != ATTN_OK) return status;
  int layer;
  uint64_t offset;
  const tensor_t *t = index >= 0 ? tensor_at(cfg, index, &layer, &offset) : NULL;
  if (!t) return ATTN_E_SIZE;
  *info = (attn_tf_param){t->name, layer, (int)dim(cfg, t->rows), (int)dim(cfg, t->cols),
                          (size_t)offset};
  return ATTN_OK;
}

void attn__tf_point(attn__tf_params *p, float *block, const attn_tf_config *cfg) {
  memset(p, 0, sizeof *p);
  float *at = block;
  for (int part = 0; part < 3; part++) {
    if (part == 1 && cfg->layers == 0) continue;
    char *base = part == 1 ? (char *)&p->layer0 : (char *)p;
    float *start = at;
    for (int e = 0; e < PARTS[part].n; e++) {
      const tensor_t *t = &PARTS[part].list[e];
      if (!has(t, cfg)) continue;
      memcpy(base + t->field, &at, sizeof at);
      at += dim(cfg, t->rows) * dim(cfg, t->cols);
    }
    if (part == 1) {
      p->layer_stride = (size_t)(at - start);
      at = start + (size_t)cfg->layers * p->layer_stride;
    }
  }
  p->count = (size_t)(at - block);
}

attn__tf_layer attn__tf_layer_at(const attn__tf_params *p, int l) {
  attn__tf_layer out = p->layer0;
  for (int e = 0; e < N_LAYER; e++) {
    float *t;
    memcpy(&t, (char *)&out + LAYER[e].field, sizeof t);
    if (!t) continue;
    t += (size_t)l * p->layer_stride;
    memcpy((char *)&out + LAYER[e].field, &t, sizeof t);
  }
  return out;
}

/* Uniform in [-a, a): 24 random bits, so exact in float. */
static float uniform(uint64_t *s, float a) {
  return a * ((float)(attn__splitmix64(s) >> 40) * 0x1p-23f - 1.0f);
}

int attn_tf_init(attn_tf_model *model, uint32_t seed) {
  if (!model) return ATTN_E_NULL;
  const attn_tf_config *cfg = &model->cfg;
  const int status = attn__tf_check_config(cfg);
  if (status != ATTN_OK) return status;
  if (!model->params || !model->grads || !model->m || !model->v ||
      (!model->off && cfg->layers > 0))
    return ATTN_E_NULL;
  /* Uniform, so that a standard deviation sigma takes a = sqrt(3) sigma:
   * embeddings sigma 1; Wq..Wo and W1 sigma 1/sqrt(C), W2 1/sqrt(4C) (a
   * unit input keeps unit size); Wu sigma 0.02 (the first logits are near
   * 0, the loss near log V); biases 0; LayerNorm gains 1 and biases 0.
   * Drawn tensor by tensor in block order. */
  const float root3 = 1.7320508f, C = (float)cfg->d_model;
  uint64_t s = seed, offset;
  int layer;
  const tensor_t *t;
  for (int i = 0; (t = tensor_at(cfg, i, &layer, &offset)); i++) {
    const float a = t->init == EMBED       ? root3
                    : t->init == WEIGHT    ? root3 / sqrtf(C)
                    : t->init == WEIGHT_4C ? root3 / sqrtf(4 * C)
                    : t->init == UNEMBED   ? 0.02f * root3
                                           : 0.0f;
    float *x = model->params + offset;
    const uint64_t n = dim(cfg, t->rows) * dim(cfg, t->cols);
    for (uint64_t k = 0; k < n; k++) x[k] = a ? uniform(&s, a) : t->init == ONES ? 1.0f : 0.0f;
  }
  const size_t n = (size_t)offset; /* past the last tensor: the block's size */
  memset(model->grads, 0, n * sizeof(float));
  memset(model->m, 0, n * sizeof(float));
  memset(model->v, 0, n * sizeof(float));
  if (cfg->layers > 0) memset(model->off, 0, (size_t)cfg->layers * cfg->heads);
  model->step = 0;
  return ATTN_OK;
}

/* test_transformer.c: the tiny transformer: src/tf_params.c (its parameter
 * layout), src/train.c (the trainer), src/gpt_block.c (LayerNorm, GELU) and
 * src/generate.c (decoding with a KV cache). Their numbers are checked
 * against a float64 reference and PyTorch in tests/transformer.test.js,
 * tests/gpt.test.js and tests/generate.test.js; here: erf's accuracy, the
 * layout, and training and decoding on each path under the sanitizers.
 * (Their statuses: test_contract.c.) */
#include "harness.h"

typedef struct {
  attn_tf_model m;
  float *blocks[4];
} tf_t;

static tf_t tf_new(attn_tf_config c, uint32_t seed) {
  tf_t t;
  const size_t n = attn_tf_param_count(&c);
  for (int i = 0; i < 4; i++) t.blocks[i] = fbuf(n);
  t.m = (attn_tf_model){c, t.blocks[0], t.blocks[1], t.blocks[2], t.blocks[3],
                        xmalloc((size_t)c.layers * c.heads), 0};
  expect_status(attn_tf_init(&t.m, seed), ATTN_OK, "attn_tf_init");
  return t;
}

static void tf_free(tf_t *t) {
  for (int i = 0; i < 4; i++) free(t->blocks[i]);
  free(t->m.off);
}

/* B sequences of L tokens: a segment of 3 different tokens, repeated. */
static void copy_task(rng_t *r, int32_t *tokens, int B, int L, int vocab) {
  for (int b = 0; b < B; b++) {
    int seg[3];
    for (int k = 0; k < 3; k++) {
      int fresh;
      do {
        seg[k] = (int)(rng_unit(r) * vocab);
        fresh = 1;
        for (int j = 0; j < k; j++) fresh &= seg[j] != seg[k];
      } while (!fresh);
    }
    for (int t = 0; t < L; t++) tokens[b * L + t] = seg[t % 3];
  }
}

/* Every tensor attn_tf_param_info lists is where attn__tf_params (the
 * struct the trainer, the decoder and AdamW use) points, layer by layer;
 * the ones the config leaves out are NULL; the block's count agrees. */
static void check_layout(const attn_tf_config *c) {
  const size_t n = attn_tf_param_count(c);
  float *block = fbuf(n);
  attn__tf_params P;
  attn__tf_point(&P, block, c);
  CHECK(P.count == n, "the struct counts %zu floats, attn_tf_param_count %zu", P.count, n);
  const struct {
    const char *name;
    size_t field;
  } outside[] = {{"tok", offsetof(attn__tf_params, tok)},   {"pos", offsetof(attn__tf_params, pos)},
                 {"lnf.g", offsetof(attn__tf_params, lnfg)}, {"lnf.b", offsetof(attn__tf_params, lnfb)},
                 {"Wu", offsetof(attn__tf_params, Wu)},     {"bu", offsetof(attn__tf_params, bu)}},
    inside[] = {{"ln1.g", offsetof(attn__tf_layer, ln1g)}, {"ln1.b", offsetof(attn__tf_layer, ln1b)},
                {"Wq", offsetof(attn__tf_layer, Wq)},      {"Wk", offsetof(attn__tf_layer, Wk)},
                {"Wv", offsetof(attn__tf_layer, Wv)},      {"Wo", offsetof(attn__tf_layer, Wo)},
                {"bq", offsetof(attn__tf_layer, bq)},      {"bk", offsetof(attn__tf_layer, bk)},
                {"bv", offsetof(attn__tf_layer, bv)},      {"bo", offsetof(attn__tf_layer, bo)},
                {"ln2.g", offsetof(attn__tf_layer, ln2g)}, {"ln2.b", offsetof(attn__tf_layer, ln2b)},
                {"W1", offsetof(attn__tf_layer, W1)},      {"b1", offsetof(attn__tf_layer, b1)},
                {"W2", offsetof(attn__tf_layer, W2)},      {"b2", offsetof(attn__tf_layer, b2)}};
  int listed = 0, pointed = 0;
  attn_tf_param info;
  for (int i = 0; attn_tf_param_info(&info, c, i) == ATTN_OK; i++, listed++) {
    const int in_layer = info.layer >= 0;
    attn__tf_layer layer = in_layer ? attn__tf_layer_at(&P, info.layer) : P.layer0;
    const char *base = in_layer ? (const char *)&layer : (const char *)&P;
    const int count = in_layer ? N_OF(inside) : N_OF(outside);
    int found = 0;
    for (int k = 0; k < count; k++) {
      if (strcmp(in_layer ? inside[k].name : outside[k].name, info.name)) continue;
      float *ptr;
      memcpy(&ptr, base + (in_layer ? inside[k].field : outside[k].field), sizeof ptr);
      CHECK(ptr == block + info.offset, "%s of layer %d: the struct points at %td, the table says %zu",
            info.name, info.layer, ptr ? ptr - block : -1, info.offset);
      found = 1;
    }
    CHECK(found, "%s has no field in the struct", info.name);
    CHECK(info.offset + (size_t)info.rows * info.cols <= n, "%s runs past the block", info.name);
  }
  /* and nothing else is set: count the struct's non-NULL pointers */
  for (int k = 0; k < N_OF(outside); k++) {
    float *ptr;
    memcpy(&ptr, (const char *)&P + outside[k].field, sizeof ptr);
    pointed += ptr != NULL;
  }
  for (int l = 0; l < c->layers; l++) {
    const attn__tf_layer layer = attn__tf_layer_at(&P, l);
    for (int k = 0; k < N_OF(inside); k++) {
      float *ptr;
      memcpy(&ptr, (const char *)&layer + inside[k].field, sizeof ptr);
      pointed += ptr != NULL;
    }
  }
  CHECK(pointed == listed, "the struct points at %d tensors, attn_tf_param_info lists %d", pointed, listed);
  free(block);
}

static void test_trainer(void) {
  const attn_tf_config c = {7, 8, 8, 2, 2, 0, 0};
  enum { B = 8, L = 9 };
  rng_t r = rng_for("trainer");
  int32_t tokens[B * L];
  copy_task(&r, tokens, B, L, c.vocab);
  const attn_adamw opt = {0.03f, 0.9f, 0.999f, 1e-8f, 0.01f};
  const size_t ws_bytes = attn_tf_workspace_size(&c, B, L);
  void *ws = wsbuf(ws_bytes);

  begin("the parameter layout: counts, and attn__tf_params points where attn_tf_param_info says");
  /* tok 7x8, pos 8x8, per layer 4 8x8 + 4 x 8, Wu 8x7, bu 7 */
  CHECK(attn_tf_param_count(&c) == 56 + 64 + 2 * (256 + 32) + 56 + 7, "param_count %zu", attn_tf_param_count(&c));
  check_layout(&c);
  const attn_tf_config gpt = {5, 6, 12, 3, 3, 1, 1}, mlp_only = {5, 6, 12, 3, 2, 1, 0},
                       norm_only = {5, 6, 12, 3, 2, 0, 1}, no_layers = {5, 6, 12, 3, 0, 1, 1};
  check_layout(&gpt), check_layout(&mlp_only), check_layout(&norm_only), check_layout(&no_layers);
  end();
  tf_t t = tf_new(c, 5);
  float loss;

  begin("trainer: 150 AdamW steps on a copy task (period 3) halve the loss; the step's loss is forward's");
  float first = NAN, last = NAN;
  for (int step = 0; step < 150; step++) {
    copy_task(&r, tokens, B, L, c.vocab);
    float before;
    expect_status(attn_tf_forward(&before, NULL, NULL, NULL, &t.m, tokens, B, L, ws), ATTN_OK, "forward");
    expect_status(attn_tf_train_step(&loss, &t.m, tokens, B, L, &opt, ws), ATTN_OK, "train_step");
    CHECK(loss == before, "step %d: the step's loss %.9g, forward's %.9g", step, (double)loss, (double)before);
    if (step == 0) first = loss;
    last = loss;
  }
  CHECK(t.m.step == 150, "step count %d", t.m.step);
  check_finite("parameters", t.m.params, attn_tf_param_count(&c));
  CHECK(last < 0.5f * first, "loss %.4f -> %.4f", (double)first, (double)last);
  tf_free(&t);
  end();

  begin("attn_tf_gradients then attn_tf_update: attn_tf_train_step's very bits, step after step");
  {
    tf_t a = tf_new(c, 9), b = tf_new(c, 9);
    const size_t bytes = attn_tf_param_count(&c) * sizeof(float);
    for (int step = 0; step < 5; step++) {
      copy_task(&r, tokens, B, L, c.vocab);
      float la, lb;
      expect_status(attn_tf_train_step(&la, &a.m, tokens, B, L, &opt, ws), ATTN_OK, "train_step");
      expect_status(attn_tf_gradients(&lb, &b.m, tokens, B, L, ws), ATTN_OK, "gradients");
      expect_status(attn_tf_update(&b.m, &opt), ATTN_OK, "update");
      CHECK(la == lb && a.m.step == b.m.step, "step %d: loss %.9g / %.9g, count %d / %d", step, (double)la, (double)lb,
            a.m.step, b.m.step);
      for (int k = 0; k < 4; k++) CHECK(!memcmp(a.blocks[k], b.blocks[k], bytes), "step %d: block %d differs", step, k);
    }
    tf_free(&a), tf_free(&b);
  }
  free(ws);
  end();
}


static void test_gpt(void) {
  begin("erf within 4.2e-7 of libm's double erf on [-6, 6]; GELU(x) = x Phi(x)");
  double worst = 0;
  for (double x = -6; x <= 6; x += 1e-3) {
    const float xf = (float)x;
    worst = fmax(worst, fabs((double)attn__erff(xf) - erf((double)xf)));
  }
  CHECK(worst <= 4.2e-7, "erf off by %g", worst);
  enum { NG = 37 }; /* not a multiple of 4: the tail too */
  float x[NG], y[NG], dy[NG], dx[NG];
  for (int i = 0; i < NG; i++) x[i] = -6.0f + 12.0f * i / (NG - 1), dy[i] = 1.0f;
  attn__gelu_forward(y, x, NG);
  attn__gelu_backward(dx, x, dy, NG);
  for (int i = 0; i < NG; i++) {
    const double xd = x[i], phi = 0.5 * (1 + erf(xd / sqrt(2.0)));
    const double want = xd * phi, dwant = phi + xd * exp(-0.5 * xd * xd) / sqrt(2 * M_PI);
    CHECK(fabs(y[i] - want) <= 1e-6 * (1 + fabs(xd)), "GELU(%g) = %g, want %g", xd, (double)y[i], want);
    CHECK(fabs(dx[i] - dwant) <= 2e-6, "GELU'(%g) = %g, want %g", xd, (double)dx[i], dwant);
  }
  end();

  const attn_tf_config c = {7, 8, 8, 2, 2, 1, 1};
  enum { B = 8, L = 9 };
  rng_t r = rng_for("gpt");
  int32_t tokens[B * L];
  const attn_adamw opt = {0.01f, 0.9f, 0.999f, 1e-8f, 0.01f};
  const size_t ws_bytes = attn_tf_workspace_size(&c, B, L);
  void *ws = wsbuf(ws_bytes);
  begin("GPT block: layout; 150 AdamW steps on a copy task halve the loss");
  /* per layer: ln1 2x8, 4 8x8 + 4x8, ln2 2x8, W1 8x32, b1 32, W2 32x8, b2 8; lnf 2x8 */
  const size_t layer = 16 + 256 + 32 + 16 + 256 + 32 + 256 + 8;
  CHECK(attn_tf_param_count(&c) == 56 + 64 + 2 * layer + 16 + 56 + 7, "param_count %zu", attn_tf_param_count(&c));
  tf_t t = tf_new(c, 5);
  float loss = NAN, first = NAN;
  for (int step = 0; step < 150; step++) {
    copy_task(&r, tokens, B, L, c.vocab);
    expect_status(attn_tf_train_step(&loss, &t.m, tokens, B, L, &opt, ws), ATTN_OK, "train_step");
    if (step == 0) first = loss;
  }
  check_finite("parameters", t.m.params, attn_tf_param_count(&c));
  CHECK(loss < 0.5f * first, "loss %.4f -> %.4f", (double)first, (double)loss);
  end();

  begin("decode: its logits at every position equal the forward pass's");
  const size_t cache_bytes = attn_tf_cache_size(&c, 2), dws_bytes = attn_tf_decode_workspace_size(&c, 2);
  CHECK(cache_bytes == 2 * 2 * 2 * 8 * 8 * sizeof(float), "cache %zu bytes", cache_bytes);
  CHECK(attn_tf_cache_size(&c, 0) == 0 && attn_tf_decode_workspace_size(&c, 0) == 0, "sizes for n = 0");
  float *cache = fbuf(cache_bytes / sizeof(float)), *dlogits = fbuf(2 * c.vocab);
  float *logits = fbuf((size_t)B * (L - 1) * c.vocab);
  void *dws = wsbuf(dws_bytes);
  int32_t pair[2] = {0, 1};
  t.m.off[1 * c.heads + 1] = 1; /* a head off: the cached path must skip it too */
  expect_status(attn_tf_forward(NULL, NULL, logits, NULL, &t.m, tokens, B, L, ws), ATTN_OK, "forward");
  for (int p = 0; p < L - 1; p++) {
    pair[0] = tokens[p], pair[1] = tokens[L + p]; /* sequences 0 and 1 */
    expect_status(attn_tf_decode(dlogits, cache, &t.m, pair, 2, p, dws), ATTN_OK, "decode");
    for (int s = 0; s < 2; s++)
      for (int v = 0; v < c.vocab; v++) {
        const float want = logits[((size_t)s * (L - 1) + p) * c.vocab + v], got = dlogits[s * c.vocab + v];
        CHECK(fabsf(got - want) <= 1e-4f * (1 + fabsf(want)), "sequence %d position %d logit %d: %g, forward %g", s, p, v, (double)got, (double)want);
      }
  }
  free(cache), free(dlogits), free(logits), free(dws);
  tf_free(&t);
  free(ws);
  end();
}


const test_group TEST_GROUPS[] = {
    {"trainer", test_trainer, 1},
    {"gpt", test_gpt, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

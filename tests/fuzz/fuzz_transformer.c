/* fuzz_transformer.c: libFuzzer harness for the trainer: attn_tf_param_count,
 * attn_tf_param_info, attn_tf_init, attn_tf_workspace_size, attn_tf_forward,
 * attn_tf_gradients and attn_tf_train_step, and for decoding with the KV
 * cache: attn_tf_cache_size, attn_tf_decode_workspace_size, attn_tf_decode;
 * attention-only models and GPT blocks (mlp, layer_norm), on the SIMD and
 * the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-2 a NULL pointer (1 model, 2 params, 3 tokens,
 *       4 workspace, 5 optimizer, 6 m, 7 off), bit 3 a GPT config (one
 *       more byte: bit 0 mlp, bit 1 layer_norm, bit 2 one of them neither 0
 *       nor 1), bit 4 a token out of range, bit 5 a bad
 *       optimizer setting, bit 6 a head switched off, bit 7 parameters
 *       overwritten with extreme data
 *   [1] vocab  [2] context  [3] d_model (fz_size each)
 *   [4] heads: < 224 a divisor of d_model, < 255 any 1..31, 255 zero
 *   [5] layers: 255 is -1, else % 4   [6] batch (fz_size)
 *   [7] n_tokens: < 240 from 2 to context + 1, else 0, 1 or context + 2
 *   [8..11] seed   [12] lr: (b + 1) / 2560   then one byte per token
 * Checked: the statuses; the layout (param_info's tensors tile the block in
 * order and param_count is its size); init: every parameter finite and
 * within its uniform range, biases, gradients, moments and off 0, the same
 * numbers on both paths; forward: losses >= 0 with the loss their mean,
 * weights causal with rows summing to 1, logits finite; gradients: the same
 * loss as forward, finite, dbk exactly 0, nothing for tokens or positions the
 * batch does not use; a train step from a fresh model: counted, each
 * parameter moved by at most lr (1 + wd |p|) (the first AdamW step moves by
 * lr g / (|g| + eps) at most lr), SIMD and scalar losses within 1e-4 of each
 * other (sane data); decoding sequence 0 position by position gives the
 * forward pass's logits (sane data), and refuses position = context; the
 * tokens unchanged; no allocation.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int decode_heads(uint8_t b, int d) {
  if (b == 255) return 0;
  if (b >= 224 || d <= 0) return 1 + b % 31;
  int divisors[64], n = 0;
  for (int h = 1; h <= d && h <= 300 && n < 64; h++)
    if (d % h == 0) divisors[n++] = h;
  return divisors[b % n];
}

static int finite_row(const float *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

/* The statuses a bad config may give (0 for a good one). */
static void config_faults(fz_expect *e, const attn_tf_config *c) {
  if ((c->mlp != 0 && c->mlp != 1) || (c->layer_norm != 0 && c->layer_norm != 1)) fz_may(e, ATTN_E_CONFIG);
  if (c->vocab <= 0 || c->context <= 0 || c->d_model <= 0 || c->layers < 0) fz_may(e, ATTN_E_SIZE);
  if (c->heads <= 0 || (c->d_model > 0 && c->d_model % c->heads != 0)) fz_may(e, ATTN_E_HEADS);
}

static void check_layout(const attn_tf_config *c, size_t count) {
  attn_tf_param t;
  size_t next = 0;
  int i = 0;
  for (; attn_tf_param_info(&t, c, i) == ATTN_OK; i++) {
    FZ_CHECK(t.offset == next && t.rows > 0 && t.cols > 0, "tensor %d (%s) at %zu, expected %zu", i, t.name, t.offset, next);
    next += (size_t)t.rows * t.cols;
  }
  const int per_layer = 8 + 2 * c->layer_norm + 4 * c->mlp + 2 * (c->layer_norm && c->mlp);
  FZ_CHECK(i == 4 + 2 * c->layer_norm + per_layer * c->layers && next == count, "%d tensors, %zu floats; param_count %zu", i, next, count);
  FZ_CHECK(attn_tf_param_info(&t, c, -1) == ATTN_E_SIZE, "index -1 accepted");
}

/* The uniform bound of each tensor, as attn_tf_init states it. */
static float init_bound(const attn_tf_param *t, int d) {
  if (t->name[0] == 'b') return 0.0f;
  if (!strncmp(t->name, "ln", 2)) return 1.0f; /* gains exactly 1, biases 0 */
  if (!strcmp(t->name, "W2")) return 1.7320508f / sqrtf(4.0f * d);
  if (!strcmp(t->name, "tok") || !strcmp(t->name, "pos")) return 1.7320508f;
  if (!strcmp(t->name, "Wu")) return 0.02f * 1.7320508f;
  return 1.7320508f / sqrtf((float)d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  attn_tf_config c = {0};
  c.vocab = fz_size(&f), c.context = fz_size(&f), c.d_model = fz_size(&f);
  c.heads = decode_heads(fz_u8(&f), c.d_model);
  const uint8_t lb = fz_u8(&f);
  c.layers = lb == 255 ? -1 : lb % 4;
  if (flags & 8) {
    const uint8_t g = fz_u8(&f);
    c.mlp = g & 1, c.layer_norm = g >> 1 & 1;
    if (g & 4) *(g & 8 ? &c.mlp : &c.layer_norm) = g & 16 ? 2 : -1;
  }
  const int batch = fz_size(&f);
  const uint8_t nb = fz_u8(&f);
  const int ctx = c.context > 0 && c.context < FZ_HUGE ? c.context : 1;
  const int n_tokens = nb < 240 ? 2 + nb % ctx : nb % 3 == 0 ? 0 : nb % 3 == 1 ? 1 : ctx + 2;
  uint32_t seed = 0;
  for (int i = 0; i < 4; i++) seed = seed << 8 | fz_u8(&f);
  attn_adamw opt = {(float)(fz_u8(&f) + 1) / 2560.0f, 0.9f, 0.999f, 1e-8f, 0.01f};
  if (flags & 32) {
    const float bad[8] = {0.0f, NAN, -1.0f, INFINITY, 1.0f, -0.5f, -1.0f, NAN};
    const int k = fz_u8(&f) % 8;
    if (k < 4) opt.lr = bad[k]; else if (k == 4) opt.beta1 = bad[k];
    else if (k == 5) opt.beta2 = bad[k]; else if (k == 6) opt.eps = bad[k]; else opt.weight_decay = bad[k];
  }
  const int null = flags & 7, extreme = (flags & 128) != 0;

  /* ---- the config alone: count, layout, workspace size ---- */
  fz_expect ec = {0};
  config_faults(&ec, &c);
  const size_t count = attn_tf_param_count(&c);
  /* A dimension of INT_MAX: a block no test can allocate (natively it may
   * still be addressable), so only a bad config's 0 is checked. */
  if (c.vocab == FZ_HUGE || c.context == FZ_HUGE || c.d_model == FZ_HUGE) {
    FZ_CHECK(!ec.set || count == 0, "param_count %zu for a bad config", count);
    return 0;
  }
  FZ_CHECK((count == 0) == (ec.set != 0), "param_count %zu for a config that is %s", count, ec.set ? "bad" : "good");
  FZ_CHECK(attn_tf_param_count(NULL) == 0, "param_count(NULL)");
  if (!count) {
    int st;
    attn_tf_param t;
    FZ_CALL(st, attn_tf_param_info(&t, &c, 0));
    fz_check_status(&ec, st, "attn_tf_param_info");
    attn_tf_model m = {c, fz_dummy[0], fz_dummy[1], fz_dummy[2], fz_dummy[3], (uint8_t *)fz_dummy[0], 0};
    FZ_CALL(st, attn_tf_init(&m, seed));
    fz_check_status(&ec, st, "attn_tf_init");
    FZ_CHECK(attn_tf_workspace_size(&c, 1, 2) == 0, "workspace for a bad config");
    return 0;
  }
  check_layout(&c, count);
  if (batch == FZ_HUGE) return 0; /* no tokens buffer that large */
  const int sizes_ok = batch > 0 && n_tokens >= 2 && n_tokens <= c.context + 1;
  const size_t ws_bytes = attn_tf_workspace_size(&c, batch, n_tokens);
  FZ_CHECK((ws_bytes == 0) == !sizes_ok, "workspace %zu for batch %d, %d tokens", ws_bytes, batch, n_tokens);
  /* Keep each input quick: about the flops of a few training steps of a tiny model. */
  const double T = n_tokens - 1, C = c.d_model,
               work = (double)batch * T * C * ((8.0 + 16.0 * c.mlp) * (c.layers + 1) * C + c.vocab + 4.0 * c.layers * T);
  if ((double)count > 1e6 || work > 4e6) return 0;

  /* ---- a model ---- */
  float *blocks[4];
  for (int i = 0; i < 4; i++) blocks[i] = fz_floats(count);
  const size_t n_off = (size_t)c.layers * c.heads;
  uint8_t *off = malloc(n_off ? n_off : 1);
  if (!off) abort();
  attn_tf_model m = {c, blocks[0], blocks[1], blocks[2], blocks[3], off, 7};
  attn_tf_model bad = m;
  if (null == 2) bad.params = NULL;
  if (null == 6) bad.m = NULL;
  if (null == 7) bad.off = NULL;
  fz_expect ei = {0};
  if (null == 1 || null == 2 || (null == 7 && c.layers > 0)) fz_may(&ei, ATTN_E_NULL);
  float *first = fz_floats(count);
  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(m.params, count);
    int st;
    attn_tf_model *target = null == 1 ? NULL : null == 2 || null == 7 ? &bad : &m;
    FZ_CALL(st, attn_tf_init(target, seed));
    fz_check_status(&ei, st, "attn_tf_init");
    if (target != &m) { /* the rest needs this model */
      FZ_CALL(st, attn_tf_init(&m, seed));
      FZ_CHECK(st == ATTN_OK, "attn_tf_init returned %d", st);
    }
    FZ_CHECK(m.step == 0, "init left step %d", m.step);
    if (simd) memcpy(first, m.params, count * sizeof(float));
    else FZ_CHECK(!memcmp(first, m.params, count * sizeof(float)), "init differs between the paths");
  }
  free(first);
  attn_tf_param t;
  for (int i = 0; attn_tf_param_info(&t, &c, i) == ATTN_OK; i++) {
    const float a = init_bound(&t, c.d_model);
    for (size_t k = 0; k < (size_t)t.rows * t.cols; k++) {
      const float p = m.params[t.offset + k];
      FZ_CHECK(isfinite(p) && fabsf(p) <= a, "%s[%zu] = %g outside [-%g, %g]", t.name, k, (double)p, (double)a, (double)a);
    }
  }
  for (size_t k = 0; k < count; k++)
    FZ_CHECK(m.grads[k] == 0 && m.m[k] == 0 && m.v[k] == 0, "grads/m/v not zeroed at %zu", k);
  for (size_t k = 0; k < n_off; k++) FZ_CHECK(off[k] == 0, "off not zeroed");
  if (extreme) /* some parameters become large (finite): the losses may overflow, nothing may crash */
    for (size_t k = 0; k < count; k++)
      if ((fz_u8(&f) & 7) == 0) m.params[k] = fz_float(&f, 0) * 64.0f;
  if ((flags & 64) && n_off) off[fz_u8(&f) % n_off] = 1;

  /* ---- tokens and the calls ---- */
  const size_t n_tok = sizes_ok ? (size_t)batch * n_tokens : 4;
  int32_t *tokens = malloc(n_tok * sizeof(int32_t));
  if (!tokens) abort();
  for (size_t i = 0; i < n_tok; i++) tokens[i] = fz_u8(&f) % (c.vocab < 256 ? c.vocab : 256);
  if (flags & 16) tokens[fz_u8(&f) % n_tok] = fz_u8(&f) & 1 ? c.vocab : -1 - fz_u8(&f);
  int32_t *tokens0 = malloc(n_tok * sizeof(int32_t));
  if (!tokens0) abort();
  memcpy(tokens0, tokens, n_tok * sizeof(int32_t));
  void *ws = fz_workspace(ws_bytes);

  fz_expect e = {0};
  if (null == 1 || null == 2 || null == 3 || (null == 7 && c.layers > 0)) fz_may(&e, ATTN_E_NULL);
  if (!sizes_ok) fz_may(&e, ATTN_E_SIZE);
  if (flags & 16) fz_may(&e, ATTN_E_TOKEN);
  if (null == 4 || (sizes_ok && !ws)) fz_may(&e, ATTN_E_WORKSPACE);
  fz_expect et = e; /* the training step also needs m, v and a good optimizer */
  if (null == 5 || null == 6) fz_may(&et, ATTN_E_NULL);
  if (flags & 32) fz_may(&et, ATTN_E_OPTIM);
  attn_tf_model *call = null == 1 ? NULL : null == 2 || null == 6 || null == 7 ? &bad : &m;
  bad.off = null == 7 ? NULL : off;
  const int32_t *tok = null == 3 ? NULL : tokens;
  void *wsp = null == 4 ? NULL : ws;

  const int Ti = sizes_ok ? n_tokens - 1 : 1;
  const size_t n_loss = sizes_ok ? (size_t)batch * Ti : 1;
  const size_t n_logits = n_loss * c.vocab, n_w = n_loss * Ti * n_off;
  float *losses = fz_floats(n_loss), *logits = fz_floats(n_logits ? n_logits : 1),
        *weights = fz_floats(n_w ? n_w : 1), *p0 = fz_floats(count);
  memcpy(p0, m.params, count * sizeof(float));
  float loss_by_path[2] = {0, 0};
  int sane = !extreme;
  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    memcpy(m.params, p0, count * sizeof(float));
    memset(m.m, 0, count * sizeof(float));
    memset(m.v, 0, count * sizeof(float));
    m.step = bad.step = 0;
    float loss = NAN, loss2 = NAN, loss3 = NAN;
    fz_poison(losses, n_loss);
    int st;
    FZ_CALL(st, attn_tf_forward(&loss, losses, logits, weights, call, tok, batch, n_tokens, wsp));
    fz_check_status(&e, st, "attn_tf_forward");
    FZ_CHECK(!memcmp(tokens, tokens0, n_tok * sizeof(int32_t)), "tokens modified");
    if (st != ATTN_OK) {
      FZ_CALL(st, attn_tf_gradients(&loss2, call, tok, batch, n_tokens, wsp));
      fz_check_status(&e, st, "attn_tf_gradients");
      FZ_CALL(st, attn_tf_train_step(&loss3, call, tok, batch, n_tokens, null == 5 ? NULL : &opt, wsp));
      fz_check_status(&et, st, "attn_tf_train_step");
      FZ_CHECK(m.step == 0 && bad.step == 0, "a failed step was counted");
      continue;
    }
    /* forward */
    double sum = 0;
    for (size_t i = 0; i < n_loss; i++) {
      FZ_CHECK(losses[i] >= 0 || !sane, "loss %zu = %g", i, (double)losses[i]);
      sum += losses[i];
    }
    if (isfinite(sum)) FZ_CHECK(fabs(sum / n_loss - loss) <= 1e-5 * (1 + fabs(loss)), "mean %g vs loss %g", sum / n_loss, (double)loss);
    if (sane) fz_check_finite("logits", logits, n_logits);
    for (size_t r = 0; r < n_w / (Ti ? Ti : 1); r++) {
      const int i = (int)(r % Ti);
      double row = 0;
      for (int j = 0; j < Ti; j++) {
        const float w = weights[r * Ti + j];
        /* (extreme parameters can overflow a score to NaN, and then no weight is meaningful) */
        if (j > i && sane) FZ_CHECK(w == 0.0f, "a future key has weight %g", (double)w);
        row += w;
      }
      if (sane) FZ_CHECK(fabs(row - 1) <= 1e-5, "weights row sums to %.9g", row);
    }
    /* decoding sequence 0 with the KV cache */
    {
      const size_t cache_bytes = attn_tf_cache_size(&c, 1), dws_bytes = attn_tf_decode_workspace_size(&c, 1);
      FZ_CHECK(cache_bytes >= (size_t)c.layers * 2 * c.context * c.d_model * sizeof(float) && dws_bytes > 0,
               "cache %zu, workspace %zu bytes", cache_bytes, dws_bytes);
      float *cache = fz_floats(cache_bytes / sizeof(float)), *row = fz_floats(c.vocab);
      void *dws = fz_workspace(dws_bytes);
      FZ_CALL(st, attn_tf_decode(row, cache, &m, tokens, 1, c.context, dws));
      FZ_CHECK(st == ATTN_E_SIZE, "decode at position = context returned %d", st);
      for (int p = 0; p < Ti; p++) {
        FZ_CALL(st, attn_tf_decode(row, cache, &m, tokens + p, 1, p, dws));
        FZ_CHECK(st == ATTN_OK, "decode at position %d returned %d", p, st);
        if (!sane || !finite_row(logits + (size_t)p * c.vocab, c.vocab)) continue;
        for (int v = 0; v < c.vocab; v++) {
          const float want = logits[(size_t)p * c.vocab + v];
          FZ_CHECK(fabsf(row[v] - want) <= 1e-3f * (1 + fabsf(want)), "decode position %d logit %d: %g, forward %g", p, v, (double)row[v], (double)want);
        }
      }
      free(cache), free(row), free(dws);
    }
    /* gradients */
    FZ_CALL(st, attn_tf_gradients(&loss2, call, tok, batch, n_tokens, wsp));
    FZ_CHECK(st == ATTN_OK, "attn_tf_gradients returned %d after forward succeeded", st);
    FZ_CHECK(loss2 == loss || (isnan(loss) && isnan(loss2)), "gradients' loss %g, forward's %g", (double)loss2, (double)loss);
    const int finite = isfinite(loss);
    for (int i = 0; attn_tf_param_info(&t, &c, i) == ATTN_OK; i++) {
      const float *g = m.grads + t.offset;
      if (finite && sane) fz_check_finite(t.name, g, (size_t)t.rows * t.cols);
      if (!strcmp(t.name, "bk"))
        for (int k = 0; k < t.cols; k++) FZ_CHECK(g[k] == 0.0f, "dbk[%d] = %g", k, (double)g[k]);
      if (!strcmp(t.name, "pos"))
        for (size_t k = (size_t)Ti * t.cols; k < (size_t)t.rows * t.cols; k++) FZ_CHECK(g[k] == 0.0f, "an unused position has a gradient");
      if (!strcmp(t.name, "tok"))
        for (int v = 0; v < t.rows; v++) {
          int used = 0;
          for (int b = 0; b < batch && !used; b++)
            for (int p = 0; p < Ti; p++) used |= tokens[(size_t)b * n_tokens + p] == v;
          for (int k = 0; !used && k < t.cols; k++) FZ_CHECK(g[(size_t)v * t.cols + k] == 0.0f, "an unused token has a gradient");
        }
    }
    /* one training step */
    FZ_CALL(st, attn_tf_train_step(&loss3, call, tok, batch, n_tokens, null == 5 ? NULL : &opt, wsp));
    fz_check_status(&et, st, "attn_tf_train_step");
    if (st != ATTN_OK) continue;
    FZ_CHECK(call->step == 1, "step %d after one step", call->step);
    FZ_CHECK(loss3 == loss || (isnan(loss) && isnan(loss3)), "the step's loss %g, forward's %g", (double)loss3, (double)loss);
    if (finite && sane)
      for (size_t k = 0; k < count; k++) {
        const double moved = fabs((double)m.params[k] - p0[k]);
        const double most = opt.lr * (1.0 + opt.weight_decay * fabs(p0[k])) * (1 + 1e-5) + 1e-6 * fabs(p0[k]);
        FZ_CHECK(isfinite(m.params[k]) && moved <= most, "parameter %zu moved by %g (at most %g)", k, moved, most);
      }
    loss_by_path[simd] = loss;
  }
  attn__set_simd(1);
  if (sane && !e.set && isfinite(loss_by_path[0]))
    FZ_CHECK(fabs(loss_by_path[1] - loss_by_path[0]) <= 1e-4 * (1 + fabs(loss_by_path[0])),
             "SIMD loss %.9g, scalar %.9g", (double)loss_by_path[1], (double)loss_by_path[0]);

  for (int i = 0; i < 4; i++) free(blocks[i]);
  free(off), free(tokens), free(tokens0), free(ws), free(losses), free(logits), free(weights), free(p0);
  return 0;
}

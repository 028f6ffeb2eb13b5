/* test_mha.c: src/mha.c and src/mha_backward.c: multi-head attention and
 * its gradients, against the float64 reference. */
#include "harness.h"

/* ==== attn_mha =========================================================== */

typedef struct {
  int n_q, n_k, d, heads, self, biases, mode;
  float x_scale;
  int loose; /* ill-conditioned: finite results only */
} mha_case_t;

/* A layer of width d: Wq..Wo uniform in +-w_scale, biases in +-0.5 (or
 * none); the buffers in Wm and bm (free them after). */
static attn_mha_params random_layer(rng_t *r, int d, float w_scale, int biases, float *Wm[4],
                                    float *bm[4]) {
  for (int i = 0; i < 4; i++) {
    Wm[i] = fbuf((size_t)d * d);
    fill(r, Wm[i], (size_t)d * d, w_scale);
    bm[i] = biases ? fbuf((size_t)d) : NULL;
    if (biases) fill(r, bm[i], (size_t)d, 0.5f);
  }
  return (attn_mha_params){Wm[0], Wm[1], Wm[2], Wm[3], bm[0], bm[1], bm[2], bm[3]};
}

static void mha_case(rng_t *r, mha_case_t c) {
  if (c.self) c.n_k = c.n_q;
  begin("attn_mha n_q=%d n_k=%d d_model=%d heads=%d %s biases=%d masks=%s |X|=%g",
        c.n_q, c.n_k, c.d, c.heads, c.self ? "self" : "cross", c.biases,
        MK_NAMES[c.mode], (double)c.x_scale);
  const int n_q = c.n_q, n_k = c.n_k, d = c.d, H = c.heads;
  const size_t nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d, hw = (size_t)H * n_q * n_k;
  float *Xq = fbuf(nq_d), *Xkv = c.self ? Xq : fbuf(nk_d);
  fill(r, Xq, nq_d, c.x_scale);
  if (!c.self) fill(r, Xkv, nk_d, c.x_scale);
  float *Wm[4], *bm[4];
  const float w_scale = 1.0f / sqrtf((float)d); /* keeps projections O(|X|) */
  const attn_mha_params P = random_layer(r, d, 2 * w_scale, c.biases, Wm, bm);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, c.mode, n_q, n_k);
  float *Xq0 = clone_bytes(Xq, nq_d * 4), *Xkv0 = clone_bytes(Xkv, nk_d * 4);

  /* call 1: weights and Z wanted; call 2: neither */
  float *Y1 = fbuf(nq_d), *Wt = fbuf(hw), *Z = fbuf(nq_d), *Y2 = fbuf(nq_d);
  poison(Y1, nq_d), poison(Wt, hw), poison(Z, nq_d), poison(Y2, nq_d);
  const size_t ws1_bytes = attn_mha_workspace_size(n_q, n_k, d, H, 1);
  const size_t ws2_bytes = attn_mha_workspace_size(n_q, n_k, d, H, 0);
  void *ws1 = wsbuf(ws1_bytes), *ws2 = wsbuf(ws2_bytes);
  const int st1 = attn_mha(Y1, Wt, Z, Xq, Xkv, n_q, n_k, d, H, &P, mk, ws1);
  expect_status(st1, ATTN_OK, "attn_mha with weights and Z");
  const int st2 = attn_mha(Y2, NULL, NULL, Xq, Xkv, n_q, n_k, d, H, &P, mk, ws2);
  expect_status(st2, ATTN_OK, "attn_mha without weights and Z");

  /* reference: projections, heads, output projection, all with bounds */
  double *Zd = dbuf(nq_d), *eZ = dbuf(nq_d), *Yd = dbuf(nq_d), *eY = dbuf(nq_d),
         *wd = dbuf(hw), *ewd = dbuf(hw);
  ref_mha(Yd, eY, Zd, eZ, wd, ewd, NULL, NULL, Xq, Xkv, n_q, n_k, d, H, &P, mk);

  if (st1 == ATTN_OK) {
    check_finite("Y", Y1, nq_d);
    check_finite("Z", Z, nq_d);
    check_finite("weights", Wt, hw);
    for (size_t i = 0; i < hw; i++)
      if (ewd[i] == 0 && wd[i] == 0)
        CHECK(Wt[i] == 0.0f, "masked weight [head %zu][%zu][%zu] = %g", i / ((size_t)n_q * n_k),
              (i / n_k) % n_q, i % n_k, (double)Wt[i]);
    if (!c.loose) {
      compare("Y", Y1, Yd, eY, nq_d, (size_t)d, 0);
      compare("Z", Z, Zd, eZ, nq_d, (size_t)d, 0);
      compare("weights", Wt, wd, ewd, hw, (size_t)n_k, 0);
    }
  }
  if (st2 == ATTN_OK) {
    check_finite("Y (fused)", Y2, nq_d);
    if (!c.loose) compare("Y (fused)", Y2, Yd, eY, nq_d, (size_t)d, 0);
  }
  check_unchanged("Xq", Xq, Xq0, nq_d * 4);
  check_unchanged("Xkv", Xkv, Xkv0, nk_d * 4);

  free(Xq), free(Xq0), free(Xkv0);
  if (!c.self) free(Xkv);
  for (int i = 0; i < 4; i++) free(Wm[i]), free(bm[i]);
  free(add), free(pad), free(Y1), free(Wt), free(Z), free(Y2), free(ws1), free(ws2);
  free(Zd), free(eZ), free(Yd), free(eY), free(wd), free(ewd);
  end();
}

static void test_mha(void) {
  rng_t r = rng_for("mha");
  const int shapes[][2] = {{1, 1}, {4, 1}, {4, 2}, {4, 4}, {8, 2}, {8, 8}, {6, 3},
                           {9, 3}, {12, 3}, {16, 4}, {20, 5}, {33, 11}, {17, 1}, {64, 8}};
  const int ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 65};
  int k = 0;
  for (int s = 0; s < 14; s++)
    for (int a = 0; a < 12; a++, k++) {
      mha_case_t c = {ns[a], ns[(a + 3 * s + 1) % 12], shapes[s][0], shapes[s][1],
                      k % 3 == 0, (k / 2) % 2, k % MK_MODES, 1.0f, 0};
      mha_case(&r, c);
    }
  for (int mode = 0; mode < MK_MODES; mode++) {
    mha_case_t self = {17, 0, 64, 8, 1, 1, mode, 1.0f, 0};
    mha_case(&r, self);
    mha_case_t cross = {5, 130, 16, 2, 0, 1, mode, 1.0f, 0};
    mha_case(&r, cross);
    mha_case_t huge = {9, 12, 32, 4, mode % 2, 1, mode, 1e4f, 1}; /* issue 5 */
    mha_case(&r, huge);
    /* d past one packed block of the GEMM (512 deep, 64 wide), not a
     * multiple of the tile width */
    mha_case_t wide = {3, 4, 524, 4, mode % 2, 1, mode, 1.0f, 0};
    mha_case(&r, wide);
  }

  /* issue 2's acceptance figure, stated as it is there */
  begin("attn_mha: 8 heads on 64-wide inputs within 1e-5 of the row magnitude");
  {
    const int n = 33, d = 64, H = 8;
    float *X = fbuf((size_t)n * d), *Y = fbuf((size_t)n * d);
    float *Wm[4], *bm[4];
    for (int i = 0; i < 4; i++) {
      Wm[i] = fbuf((size_t)d * d), bm[i] = fbuf((size_t)d);
      fill(&r, Wm[i], (size_t)d * d, 0.25f), fill(&r, bm[i], (size_t)d, 0.1f);
    }
    fill(&r, X, (size_t)n * d, 1.0f);
    const attn_mha_params P = {Wm[0], Wm[1], Wm[2], Wm[3], bm[0], bm[1], bm[2], bm[3]};
    void *ws = wsbuf(attn_mha_workspace_size(n, n, d, H, 0));
    expect_status(attn_mha(Y, NULL, NULL, X, X, n, n, d, H, &P, NULL, ws), ATTN_OK, "attn_mha");
    double *Xd = ref_to_double(X, (size_t)n * d);
    double *Qd = dbuf((size_t)n * d), *Kd = dbuf((size_t)n * d), *Vd = dbuf((size_t)n * d),
           *Zd = dbuf((size_t)n * d), *Yd = dbuf((size_t)n * d), *e = dbuf((size_t)n * d),
           *e2 = dbuf((size_t)n * d), *w = dbuf((size_t)n * n), *ew = dbuf((size_t)n * n);
    ref_project(Qd, e, Xd, NULL, P.Wq, P.bq, n, d);
    ref_project(Kd, e, Xd, NULL, P.Wk, P.bk, n, d);
    ref_project(Vd, e, Xd, NULL, P.Wv, P.bv, n, d);
    for (int h = 0; h < H; h++) {
      const size_t col = (size_t)h * (d / H);
      const ref_attn_args a = {Qd + col, Kd + col, Vd + col, NULL, NULL, NULL, (size_t)d,
                               (size_t)d, (size_t)d, n, n, d / H, d / H,
                               1.0 / sqrt(d / H), 0, NULL};
      ref_attention(Zd + col, e2 + col, (size_t)d, w, ew, NULL, NULL, &a);
    }
    ref_project(Yd, e, Zd, NULL, P.Wo, P.bo, n, d);
    double worst = 0;
    for (int i = 0; i < n; i++) {
      double mag = 0;
      for (int c = 0; c < d; c++) mag = fmax(mag, fabs(Yd[(size_t)i * d + c]));
      for (int c = 0; c < d; c++)
        worst = fmax(worst, fabs(Y[(size_t)i * d + c] - Yd[(size_t)i * d + c]) / mag);
    }
    CHECK(worst <= 1e-5, "worst error %.3g of the row magnitude (> 1e-5)", worst);
    free(X), free(Y), free(ws), free(Xd), free(Qd), free(Kd), free(Vd), free(Zd);
    free(Yd), free(e), free(e2), free(w), free(ew);
    for (int i = 0; i < 4; i++) free(Wm[i]), free(bm[i]);
  }
  end();

  begin("attn_mha: one head with identity weights equals attn_attention on X");
  {
    const int n = 7, d = 5;
    float X[35], I[25], Y[35], out[35], Wt[49], Wa[49];
    fill(&r, X, 35, 1);
    for (int i = 0; i < 25; i++) I[i] = i % 6 == 0;
    const attn_mha_params P = {I, I, I, I, NULL, NULL, NULL, NULL};
    const attn_masks mk = {.causal = 1};
    void *ws = wsbuf(attn_mha_workspace_size(n, n, d, 1, 1));
    expect_status(attn_mha(Y, Wt, NULL, X, X, n, n, d, 1, &P, &mk, ws), ATTN_OK, "attn_mha");
    expect_status(attn_attention(out, Wa, X, X, X, n, n, d, d, 1.0f / sqrtf(5.0f), &mk, NULL),
                  ATTN_OK, "attn_attention");
    for (int i = 0; i < 35; i++)
      CHECK(fabs(Y[i] - out[i]) <= 64 * REF_U, "Y[%d] = %.9g, attention %.9g", i,
            (double)Y[i], (double)out[i]);
    for (int i = 0; i < 49; i++)
      CHECK(fabs(Wt[i] - Wa[i]) <= 64 * REF_U, "W[%d] = %.9g, attention %.9g", i,
            (double)Wt[i], (double)Wa[i]);
    free(ws);
  }
  end();
}


/* attn_mha_backward against ref_mha_backward; self-attention both with dXkv
 * NULL (one gradient of X) and with the two parts apart. */
static void mha_backward_case(rng_t *r, mha_case_t c, int use_weights) {
  if (c.self) c.n_k = c.n_q;
  begin("attn_mha_backward n_q=%d n_k=%d d_model=%d heads=%d %s biases=%d masks=%s %s",
        c.n_q, c.n_k, c.d, c.heads, c.self ? "self" : "cross", c.biases, MK_NAMES[c.mode],
        use_weights ? "weights" : "fused");
  const int n_q = c.n_q, n_k = c.n_k, d = c.d, H = c.heads;
  const size_t dd = (size_t)d * d, nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d;
  float *Xq = fbuf(nq_d), *Xkv = c.self ? Xq : fbuf(nk_d), *dY = fbuf(nq_d);
  fill(r, Xq, nq_d, c.x_scale), fill(r, dY, nq_d, 1);
  if (!c.self) fill(r, Xkv, nk_d, c.x_scale);
  float *Wm[4], *bm[4];
  const attn_mha_params P = random_layer(r, d, 2.0f / sqrtf((float)d), c.biases, Wm, bm);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, c.mode, n_q, n_k);
  float *Xq0 = clone_bytes(Xq, nq_d * 4), *Xkv0 = clone_bytes(Xkv, nk_d * 4);
  void *ws = wsbuf(attn_mha_backward_workspace_size(n_q, n_k, d, H, use_weights));
  float *dXq = fbuf(nq_d), *dXkv = fbuf(nk_d), *gW[4], *gb[4];
  double *wX = dbuf(nq_d), *eX = dbuf(nq_d), *wXkv = dbuf(nk_d), *eXkv = dbuf(nk_d);
  double *rW[4], *erW[4], *rb[4], *erb[4];
  for (int t = 0; t < 4; t++) {
    gW[t] = fbuf(dd), gb[t] = fbuf((size_t)d);
    rW[t] = dbuf(dd), erW[t] = dbuf(dd), rb[t] = dbuf((size_t)d), erb[t] = dbuf((size_t)d);
  }
  const attn_mha_grads G = {gW[0], gW[1], gW[2], gW[3], gb[0], gb[1], gb[2], gb[3]};
  static const char *WN[4] = {"dWq", "dWk", "dWv", "dWo"}, *BN[4] = {"dbq", "dbk", "dbv", "dbo"};
  /* cross: dXkv apart; self: once summed (dXkv NULL), once apart */
  for (int apart = c.self ? 0 : 1; apart < 2; apart++) {
    poison(dXq, nq_d), poison(dXkv, nk_d);
    for (int t = 0; t < 4; t++) poison(gW[t], dd), poison(gb[t], (size_t)d);
    const int st = attn_mha_backward(dXq, apart ? dXkv : NULL, &G, Xq, Xkv, dY, n_q, n_k, d,
                                     H, &P, mk, use_weights, ws);
    expect_status(st, ATTN_OK, apart ? "attn_mha_backward" : "attn_mha_backward (dXkv NULL)");
    if (st != ATTN_OK) continue;
    check_finite("dXq", dXq, nq_d);
    for (int t = 0; t < 4; t++) check_finite(WN[t], gW[t], dd), check_finite(BN[t], gb[t], (size_t)d);
    if (c.loose) continue;
    ref_mha_backward(wX, eX, apart ? wXkv : NULL, eXkv, rW, erW, rb, erb, Xq, Xkv, dY, n_q, n_k,
                     d, H, &P, mk, !use_weights);
    compare(apart ? "dXq" : "dX (dXkv NULL)", dXq, wX, eX, nq_d, (size_t)d, 0);
    if (apart) compare("dXkv", dXkv, wXkv, eXkv, nk_d, (size_t)d, 0);
    for (int t = 0; t < 4; t++) {
      compare(WN[t], gW[t], rW[t], erW[t], dd, (size_t)d, 0);
      compare(BN[t], gb[t], rb[t], erb[t], (size_t)d, (size_t)d, 0);
    }
  }
  check_unchanged("Xq", Xq, Xq0, nq_d * 4);
  check_unchanged("Xkv", Xkv, Xkv0, nk_d * 4);
  free(Xq), free(dY), free(Xq0), free(Xkv0), free(add), free(pad), free(ws), free(dXq), free(dXkv);
  if (!c.self) free(Xkv);
  free(wX), free(eX), free(wXkv), free(eXkv);
  for (int t = 0; t < 4; t++) {
    free(Wm[t]), free(bm[t]), free(gW[t]), free(gb[t]);
    free(rW[t]), free(erW[t]), free(rb[t]), free(erb[t]);
  }
  end();
}

static void test_mha_backward(void) {
  rng_t r = rng_for("mha_backward");
  const int shapes[][2] = {{1, 1}, {4, 2}, {6, 3}, {8, 8}, {12, 3}, {16, 4}, {33, 11}, {64, 8}};
  const int ns[] = {1, 2, 3, 5, 8, 9, 17, 33};
  int k = 0;
  for (int s = 0; s < 8; s++)
    for (int a = 0; a < 8; a += 2, k++) {
      mha_case_t c = {ns[a], ns[(a + 3 * s + 1) % 8], shapes[s][0], shapes[s][1],
                      k % 3 == 0, (k / 2) % 2, k % MK_MODES, 1.0f, 0};
      mha_backward_case(&r, c, k % 2);
    }
  for (int mode = 0; mode < MK_MODES; mode++) {
    mha_case_t self = {17, 0, 64, 8, 1, 1, mode, 1.0f, 0};
    mha_backward_case(&r, self, mode % 2);
    mha_case_t cross = {5, 130, 16, 2, 0, 1, mode, 1.0f, 0};
    mha_backward_case(&r, cross, 1 - mode % 2);
    mha_case_t wide = {3, 4, 524, 4, mode % 2, 1, mode, 1.0f, 0};
    mha_backward_case(&r, wide, mode % 2);
    mha_case_t huge = {9, 12, 32, 4, mode % 2, 1, mode, 1e4f, 1};
    mha_backward_case(&r, huge, mode % 2);
  }
}

/* ==== attn_mha in pieces: attn_mha_heads, attn_project ================== */

/* attn_mha's Z and weights from blocks of heads (attn_mha_heads), then its Y
 * from blocks of rows (attn_project; blocks of more than 4 rows): the very
 * bits of the one call, what lets a pool of workers split it. */
static void pieces_case(rng_t *r, int n_q, int n_k, int d, int H, int self, int mode, int parts) {
  if (self) n_k = n_q;
  begin("attn_mha_heads + attn_project = attn_mha, bit for bit: n_q=%d n_k=%d d_model=%d heads=%d "
        "%s masks=%s parts=%d", n_q, n_k, d, H, self ? "self" : "cross", MK_NAMES[mode], parts);
  const size_t nq_d = (size_t)n_q * d, hw = (size_t)H * n_q * n_k;
  float *Xq = fbuf(nq_d), *Xkv = self ? Xq : fbuf((size_t)n_k * d);
  fill(r, Xq, nq_d, 1.0f);
  if (!self) fill(r, Xkv, (size_t)n_k * d, 1.0f);
  float *Wm[4], *bm[4];
  const attn_mha_params P = random_layer(r, d, 2.0f / sqrtf((float)d), mode % 2, Wm, bm);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, mode, n_q, n_k);
  for (int weights = 0; weights < 2; weights++) {
    float *Y = fbuf(nq_d), *Z = fbuf(nq_d), *Wt = weights ? fbuf(hw) : NULL;
    void *ws = wsbuf(attn_mha_workspace_size(n_q, n_k, d, H, weights));
    expect_status(attn_mha(Y, Wt, Z, Xq, Xkv, n_q, n_k, d, H, &P, mk, ws), ATTN_OK, "attn_mha");
    const int dh = d / H;
    for (int p = 0, h0 = 0; p < parts && h0 < H; p++) {
      int h1 = p == parts - 1 ? H : h0 + (H - h0 + (parts - p) - 1) / (parts - p);
      const size_t cols = (size_t)(h1 - h0) * dh;
      float *z = fbuf((size_t)n_q * cols), *w = weights ? fbuf((size_t)(h1 - h0) * n_q * n_k) : NULL;
      void *hws = wsbuf(attn_mha_heads_workspace_size(n_q, n_k, d, H, h0, h1, weights));
      expect_status(attn_mha_heads(z, w, Xq, Xkv, n_q, n_k, d, H, h0, h1, &P, mk, hws), ATTN_OK,
                    "attn_mha_heads");
      for (int i = 0; i < n_q; i++)
        CHECK(!memcmp(z + i * cols, Z + (size_t)i * d + (size_t)h0 * dh, cols * 4),
              "heads %d..%d, row %d of Z differs", h0, h1 - 1, i);
      if (w)
        CHECK(!memcmp(w, Wt + (size_t)h0 * n_q * n_k, (size_t)(h1 - h0) * n_q * n_k * 4),
              "heads %d..%d: weights differ", h0, h1 - 1);
      free(z), free(w), free(hws);
      h0 = h1;
    }
    /* Y's rows in blocks of 5 or more (the whole call when it has 4 or fewer) */
    const int block = n_q <= 4 ? n_q : 5 + n_q / parts;
    for (int a = 0, rows; a < n_q; a += rows) {
      rows = n_q - a < block ? n_q - a : block;
      if (n_q - a - rows > 0 && n_q - a - rows <= 4) rows = n_q - a; /* no short last block */
      float *y = fbuf((size_t)rows * d);
      expect_status(attn_project(y, Z + (size_t)a * d, P.Wo, P.bo, rows, d, d), ATTN_OK, "attn_project");
      CHECK(!memcmp(y, Y + (size_t)a * d, (size_t)rows * d * 4), "rows %d..%d of Y differ", a, a + rows - 1);
      free(y);
    }
    free(Y), free(Z), free(Wt), free(ws);
  }
  free(Xq);
  if (!self) free(Xkv);
  for (int i = 0; i < 4; i++) free(Wm[i]), free(bm[i]);
  free(add), free(pad);
  end();
}

static void test_pieces(void) {
  rng_t r = rng_for("mha_pieces");
  const int shapes[][2] = {{4, 1}, {8, 2}, {12, 3}, {16, 4}, {64, 8}, {40, 5}, {524, 4}};
  const int ns[] = {1, 3, 4, 5, 9, 17, 33, 130};
  int k = 0;
  for (int s = 0; s < 7; s++)
    for (int a = 0; a < 8; a += s == 6 ? 4 : 1, k++)
      pieces_case(&r, ns[a], ns[(a + 3 * s + 1) % 8], shapes[s][0], shapes[s][1], k % 3 == 0,
                  k % MK_MODES, 2 + k % 3);
}

const test_group TEST_GROUPS[] = {
    {"mha", test_mha, 1},
    {"mha_pieces", test_pieces, 1},
    {"mha_backward", test_mha_backward, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

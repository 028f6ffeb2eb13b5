/* test_backward.c: src/backward.c: the gradients of attention (stored
 * weights and fused), and the strided views the multi-head backward and the
 * trainer use. (The softmax's own, in softmax.c, is test_softmax.c's.) */
#include "harness.h"

/* ==== gradients ========================================================== */

typedef struct {
  int n_q, n_k, d_k, d_v, mode;
  float scale, q_scale;
  int loose; /* ill-conditioned: exact zeros and finiteness only */
} grad_case_t;

static grad_case_t gplain(int n_q, int n_k, int d_k, int d_v, int mode) {
  grad_case_t c = {n_q, n_k, d_k, d_v, mode, 1.0f / sqrtf((float)d_k), 1, 0};
  return c;
}

/* The forward both ways (weights; fused with the log-sum-exp), then the
 * backward from each, against ref_attention_backward. */
static void attention_backward_case(rng_t *r, grad_case_t c) {
  begin("attn_attention_backward n_q=%d n_k=%d d_k=%d d_v=%d scale=%g masks=%s |QK|=%g",
        c.n_q, c.n_k, c.d_k, c.d_v, (double)c.scale, MK_NAMES[c.mode], (double)c.q_scale);
  const int n_q = c.n_q, n_k = c.n_k, d_k = c.d_k, d_v = c.d_v;
  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k,
               nk_dv = (size_t)n_k * d_v, nq_dv = (size_t)n_q * d_v,
               nq_nk = (size_t)n_q * n_k;
  float *Q = fbuf(nq_dk), *K = fbuf(nk_dk), *V = fbuf(nk_dv), *dO = fbuf(nq_dv);
  fill(r, Q, nq_dk, c.q_scale), fill(r, K, nk_dk, c.q_scale), fill(r, V, nk_dv, 1);
  fill(r, dO, nq_dv, 1);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, c.mode, n_q, n_k);
  float *copies[4] = {clone_bytes(Q, nq_dk * 4), clone_bytes(K, nk_dk * 4),
                      clone_bytes(V, nk_dv * 4), clone_bytes(dO, nq_dv * 4)};

  float *out_w = fbuf(nq_dv), *W = fbuf(nq_nk), *out_f = fbuf(nq_dv), *lse = fbuf((size_t)n_q);
  poison(lse, (size_t)n_q);
  void *ws_f = wsbuf(attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0));
  expect_status(attn_attention(out_w, W, Q, K, V, n_q, n_k, d_k, d_v, c.scale, mk, NULL),
                ATTN_OK, "attn_attention with weights");
  expect_status(attn_attention_lse(out_f, lse, Q, K, V, n_q, n_k, d_k, d_v, c.scale, mk, ws_f),
                ATTN_OK, "attn_attention_lse");

  double *Qd = ref_to_double(Q, nq_dk), *Kd = ref_to_double(K, nk_dk),
         *Vd = ref_to_double(V, nk_dv), *dOd = ref_to_double(dO, nq_dv);
  const ref_attn_args args = {Qd, Kd, Vd, NULL, NULL, NULL, (size_t)d_k, (size_t)d_k,
                              (size_t)d_v, n_q, n_k, d_k, d_v, c.scale, 0, mk};
  /* lse against log sum exp of the reference scores: their error (largest
   * visible es), the normaliser's (3 n + 4) u + 2 E_EXP, and 3 u |lse| of its
   * own roundings (ref64.h, gradients) */
  {
    double *s = dbuf((size_t)n_k), *es = dbuf((size_t)n_k);
    for (int i = 0; i < n_q; i++) {
      ref_score_row(s, es, i, &args);
      double m = -INFINITY, e = 0;
      int vis = 0;
      for (int j = 0; j < n_k; j++)
        if (s[j] != -INFINITY) vis++, m = fmax(m, s[j]), e = fmax(e, es[j]);
      if (!vis) {
        CHECK(lse[i] == -INFINITY, "fully masked row %d: lse %g, want -inf", i, (double)lse[i]);
        continue;
      }
      double l = 0;
      for (int j = 0; j < n_k; j++) l += s[j] == -INFINITY ? 0 : exp(s[j] - m);
      const double want = m + log(l);
      const double tol = 2 * (e + (3.0 * vis + 4) * REF_U + 2 * REF_E_EXP + 3 * REF_U * fabs(want)) +
                         REF_FLOOR;
      CHECK(!c.loose || isfinite(lse[i]), "lse[%d] = %g", i, (double)lse[i]);
      if (!c.loose)
        CHECK(fabs(lse[i] - want) <= tol, "lse[%d] = %.9g, want %.9g (tol %.3g)", i,
              (double)lse[i], want, tol);
    }
    free(s), free(es);
  }

  const size_t ws_bytes = attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v);
  void *ws = wsbuf(ws_bytes); /* exactly what it asks for (ASan) */
  float *dQ = fbuf(nq_dk), *dK = fbuf(nk_dk), *dV = fbuf(nk_dv);
  double *gQ = dbuf(nq_dk), *eQ = dbuf(nq_dk), *gK = dbuf(nk_dk), *eK = dbuf(nk_dk),
         *gV = dbuf(nk_dv), *eV = dbuf(nk_dv);
  for (int fused = 0; fused < 2; fused++) {
    const char *path = fused ? "fused" : "weights";
    poison(dQ, nq_dk), poison(dK, nk_dk), poison(dV, nk_dv);
    const int st = attn_attention_backward(dQ, dK, dV, Q, K, V, fused ? out_f : out_w, dO,
                                           fused ? NULL : W, fused ? lse : NULL, n_q, n_k,
                                           d_k, d_v, c.scale, mk, ws);
    expect_status(st, ATTN_OK, fused ? "attn_attention_backward (fused)"
                                     : "attn_attention_backward (weights)");
    if (st != ATTN_OK) continue;
    char what[3][48];
    snprintf(what[0], 48, "dQ (%s)", path), snprintf(what[1], 48, "dK (%s)", path);
    snprintf(what[2], 48, "dV (%s)", path);
    check_finite(what[0], dQ, nq_dk), check_finite(what[1], dK, nk_dk);
    check_finite(what[2], dV, nk_dv);
    /* exact zeros: a fully masked query row, a key no query sees */
    for (int i = 0; i < n_q; i++) {
      int seen = 0;
      for (int j = 0; j < n_k; j++) seen |= ref_visible(mk, i, j, n_k);
      for (int p = 0; p < d_k && !seen; p++)
        CHECK(dQ[(size_t)i * d_k + p] == 0.0f, "fully masked row %d: %s[%d] = %g", i,
              what[0], p, (double)dQ[(size_t)i * d_k + p]);
    }
    for (int j = 0; j < n_k; j++) {
      int seen = 0;
      for (int i = 0; i < n_q; i++) seen |= ref_visible(mk, i, j, n_k);
      for (int p = 0; p < d_k && !seen; p++)
        CHECK(dK[(size_t)j * d_k + p] == 0.0f, "hidden key %d: %s[%d] = %g", j, what[1], p,
              (double)dK[(size_t)j * d_k + p]);
      for (int p = 0; p < d_v && !seen; p++)
        CHECK(dV[(size_t)j * d_v + p] == 0.0f, "hidden key %d: %s[%d] = %g", j, what[2], p,
              (double)dV[(size_t)j * d_v + p]);
    }
    if (c.loose) continue;
    ref_attention_backward(gQ, eQ, (size_t)d_k, gK, eK, (size_t)d_k, gV, eV, (size_t)d_v, dOd,
                           NULL, (size_t)d_v, fused, &args);
    compare(what[0], dQ, gQ, eQ, nq_dk, (size_t)d_k, 0);
    compare(what[1], dK, gK, eK, nk_dk, (size_t)d_k, 0);
    compare(what[2], dV, gV, eV, nk_dv, (size_t)d_v, 0);
  }
  check_unchanged("Q", Q, copies[0], nq_dk * 4), check_unchanged("K", K, copies[1], nk_dk * 4);
  check_unchanged("V", V, copies[2], nk_dv * 4), check_unchanged("dO", dO, copies[3], nq_dv * 4);

  for (int t = 0; t < 4; t++) free(copies[t]);
  free(Q), free(K), free(V), free(dO), free(add), free(pad), free(out_w), free(W), free(out_f);
  free(lse), free(ws_f), free(ws), free(dQ), free(dK), free(dV), free(Qd), free(Kd), free(Vd);
  free(dOd), free(gQ), free(eQ), free(gK), free(eK), free(gV), free(eV);
  end();
}

/* Heads as column blocks (the trainer's use): the strided backward of one
 * head writes exactly its columns, bit for bit what the contiguous call
 * gives, and leaves every other column alone. */
static void strided_backward_case(rng_t *r, int n_q, int n_k, int dh, int heads, int fused) {
  begin("attn__attention_backward_strided n_q=%d n_k=%d %d heads of %d, %s", n_q, n_k,
        heads, dh, fused ? "fused" : "weights");
  const int d = heads * dh;
  const size_t nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d;
  float *Q = fbuf(nq_d), *K = fbuf(nk_d), *V = fbuf(nk_d), *Z = fbuf(nq_d), *dZ = fbuf(nq_d);
  float *dQ = fbuf(nq_d), *dK = fbuf(nk_d), *dV = fbuf(nk_d);
  fill(r, Q, nq_d, 1), fill(r, K, nk_d, 1), fill(r, V, nk_d, 1), fill(r, dZ, nq_d, 1);
  for (size_t i = 0; i < nq_d; i++) dQ[i] = 12345.0f;
  for (size_t i = 0; i < nk_d; i++) dK[i] = dV[i] = 12345.0f;
  const attn_masks mk = {.causal = 1};
  const float scale = 1.0f / sqrtf((float)dh);
  float *W = fbuf((size_t)n_q * n_k), *lse = fbuf((size_t)n_q);
  const size_t ws_f = attn_attention_workspace_size(n_q, n_k, dh, dh, 0),
               ws_b = attn_attention_backward_workspace_size(n_q, n_k, dh, dh);
  void *ws = wsbuf(ws_f > ws_b ? ws_f : ws_b);
  /* contiguous copies of head 1 (or 0) for the plain call */
  const int h = heads > 1 ? 1 : 0;
  const size_t col = (size_t)h * dh;
  float *q = fbuf((size_t)n_q * dh), *k = fbuf((size_t)n_k * dh), *v = fbuf((size_t)n_k * dh),
        *z = fbuf((size_t)n_q * dh), *dz = fbuf((size_t)n_q * dh), *gq = fbuf((size_t)n_q * dh),
        *gk = fbuf((size_t)n_k * dh), *gv = fbuf((size_t)n_k * dh);
  for (int i = 0; i < n_q; i++)
    for (int c = 0; c < dh; c++)
      q[i * dh + c] = Q[(size_t)i * d + col + c], dz[i * dh + c] = dZ[(size_t)i * d + col + c];
  for (int j = 0; j < n_k; j++)
    for (int c = 0; c < dh; c++)
      k[j * dh + c] = K[(size_t)j * d + col + c], v[j * dh + c] = V[(size_t)j * d + col + c];
  /* the strided kernels take checked arguments and have no status */
  if (fused)
    attn__attention_lse_strided(Z + col, (size_t)d, lse, Q + col, (size_t)d, K + col,
                                (size_t)d, V + col, (size_t)d, n_q, n_k, dh, dh, scale, &mk, ws);
  else
    attn__attention_strided(Z + col, (size_t)d, W, Q + col, (size_t)d, K + col, (size_t)d,
                            V + col, (size_t)d, n_q, n_k, dh, dh, scale, &mk, ws);
  for (int i = 0; i < n_q; i++)
    for (int c = 0; c < dh; c++) z[i * dh + c] = Z[(size_t)i * d + col + c];
  attn__attention_backward_strided(
      dQ + col, (size_t)d, dK + col, (size_t)d, dV + col, (size_t)d, Q + col, (size_t)d,
      K + col, (size_t)d, V + col, (size_t)d, Z + col, (size_t)d, dZ + col, (size_t)d,
      fused ? NULL : W, fused ? lse : NULL, n_q, n_k, dh, dh, scale, &mk, ws);
  expect_status(attn_attention_backward(gq, gk, gv, q, k, v, z, dz, fused ? NULL : W,
                                        fused ? lse : NULL, n_q, n_k, dh, dh, scale, &mk, ws),
                ATTN_OK, "attn_attention_backward");
  for (int i = 0; i < n_q; i++)
    for (int c = 0; c < d; c++) {
      const float g = dQ[(size_t)i * d + c];
      if (c >= (int)col && c < (int)col + dh)
        CHECK(g == gq[i * dh + c - col], "dQ[%d][%d] = %.9g, contiguous %.9g", i, c,
              (double)g, (double)gq[i * dh + c - col]);
      else
        CHECK(g == 12345.0f, "dQ[%d][%d] outside the head was written", i, c);
    }
  for (int j = 0; j < n_k; j++)
    for (int c = 0; c < d; c++) {
      const float a = dK[(size_t)j * d + c], b = dV[(size_t)j * d + c];
      if (c >= (int)col && c < (int)col + dh) {
        CHECK(a == gk[j * dh + c - col], "dK[%d][%d] = %.9g, contiguous %.9g", j, c,
              (double)a, (double)gk[j * dh + c - col]);
        CHECK(b == gv[j * dh + c - col], "dV[%d][%d] = %.9g, contiguous %.9g", j, c,
              (double)b, (double)gv[j * dh + c - col]);
      } else {
        CHECK(a == 12345.0f && b == 12345.0f, "dK/dV[%d][%d] outside the head was written", j, c);
      }
    }
  free(Q), free(K), free(V), free(Z), free(dZ), free(dQ), free(dK), free(dV), free(W);
  free(lse), free(ws), free(q), free(k), free(v), free(z), free(dz), free(gq), free(gk), free(gv);
  end();
}

/* The backward's gradients under either register tile (test_gemm.c checks
 * the products themselves): the same bits. */
static void tiles_backward_case(rng_t *r) {
  begin("attn_attention_backward: the same bits under 2 x 16 and 6 x 8 tiles");
  enum { NQ_ = 130, NK_ = 300, D = 64 };
  float *Q = fbuf(NQ_ * D), *K = fbuf(NK_ * D), *V = fbuf(NK_ * D), *dO = fbuf(NQ_ * D);
  fill(r, Q, NQ_ * D, 1), fill(r, K, NK_ * D, 1), fill(r, V, NK_ * D, 1), fill(r, dO, NQ_ * D, 1);
  const size_t wf = attn_attention_workspace_size(NQ_, NK_, D, D, 0),
               wb = attn_attention_backward_workspace_size(NQ_, NK_, D, D);
  void *ws = wsbuf(wf > wb ? wf : wb);
  float *out = fbuf(NQ_ * D + NQ_), *g[2];
  expect_status(attn_attention_lse(out, out + NQ_ * D, Q, K, V, NQ_, NK_, D, D, 0.125f, NULL, ws),
                ATTN_OK, "attn_attention_lse");
  for (int t = 0; t < 2; t++) {
    expect_status(attn_set_gemm_tiles(t), ATTN_OK, "attn_set_gemm_tiles");
    g[t] = fbuf((size_t)(NQ_ + 2 * NK_) * D);
    expect_status(attn_attention_backward(g[t], g[t] + NQ_ * D, g[t] + (NQ_ + NK_) * D, Q, K, V, out,
                                          dO, NULL, out + NQ_ * D, NQ_, NK_, D, D, 0.125f, NULL, ws),
                  ATTN_OK, "attn_attention_backward");
  }
  CHECK(memcmp(g[0], g[1], (size_t)(NQ_ + 2 * NK_) * D * 4) == 0, "gradients differ");
  expect_status(attn_set_gemm_tiles(ATTN_TILES_2X16), ATTN_OK, "attn_set_gemm_tiles");
  free(Q), free(K), free(V), free(dO), free(ws), free(out), free(g[0]), free(g[1]);
  end();
}

static void test_attention_backward(void) {
  rng_t r = rng_for("attention_backward");
  /* (n_q, n_k) pairs of the sweep, every mask; d_k and d_v rotate */
  for (int a = 0; a < N_SIZES; a += 2)
    for (int b = 1; b < N_SIZES; b += 2)
      for (int mode = 0; mode < MK_MODES; mode++) {
        grad_case_t c = gplain(SIZES[a], SIZES[b], SIZES[(a + b + mode) % 14],
                               SIZES[(2 * a + b + 3 * mode) % 12], mode);
        if (mode == MK_EMPTY) c.scale = 0.7f;
        attention_backward_case(&r, c);
      }
  /* several key tiles and query blocks (128 each): causal skips, partial tiles */
  const int big[][2] = {{129, 300}, {300, 129}, {257, 257}, {3, 1000}, {600, 40}};
  for (int i = 0; i < 5; i++)
    for (int mode = 0; mode < MK_MODES; mode++)
      attention_backward_case(&r, gplain(big[i][0], big[i][1], 8 + i, 5 + 2 * i, mode));
  /* wide heads: past a GEMM panel and a packed block */
  attention_backward_case(&r, gplain(9, 17, 513, 7, MK_ALL));
  attention_backward_case(&r, gplain(9, 17, 16, 520, MK_CAUSAL));
  /* large logits (scores up to ~25 and ~250), a custom scale, a tiny one */
  for (int mode = 0; mode < MK_MODES; mode++) {
    grad_case_t c = gplain(17, 33, 8, 8, mode);
    c.q_scale = 3.0f;
    attention_backward_case(&r, c);
    c.q_scale = 10.0f;
    attention_backward_case(&r, c);
    c = gplain(17, 33, 8, 8, mode);
    c.scale = 2.5f;
    attention_backward_case(&r, c);
    c.scale = 1e-6f;
    attention_backward_case(&r, c);
    c.scale = 1e-40f; /* subnormal: lse / scale overflows (recompute_weights' scaled path) */
    attention_backward_case(&r, c);
    /* inputs at 1e4 (scores ~1e8) and a scale near FLT_MAX: finite, exact zeros */
    c = gplain(33, 65, 64, 16, mode);
    c.q_scale = 1e4f, c.loose = 1;
    attention_backward_case(&r, c);
    c = gplain(9, 40, 8, 4, mode);
    c.scale = 1e38f, c.loose = 1;
    attention_backward_case(&r, c);
  }
  tiles_backward_case(&r);
  for (int fused = 0; fused < 2; fused++) {
    strided_backward_case(&r, 7, 7, 4, 3, fused);
    strided_backward_case(&r, 130, 200, 8, 2, fused);
    strided_backward_case(&r, 5, 9, 3, 1, fused);
  }

  begin("attn_attention_backward_workspace_size: O(N d) memory, not O(N^2)");
  {
    const size_t big_ws = attn_attention_backward_workspace_size(65536, 65536, 64, 64);
    CHECK(big_ws > 0 && big_ws <= (size_t)65536 * 64 * sizeof(float),
          "backward workspace for N=65536, d=64 is %zu bytes (> N d floats)", big_ws);
  }
  end();
}

/* ==== the backward in pieces: rows of dQ, key tiles of dK and dV ======== */

/* mk for rows a .. b-1 run alone (as test_attention.c's rows_masks). */
static attn_masks rows_masks(const attn_masks *mk, int a, int b, int n_k, int32_t *g) {
  attn_masks out = *mk;
  out.first_query = a;
  if (mk->add) out.add = mk->add + (size_t)a * n_k;
  out.n_global = 0;
  for (int i = 0; i < mk->n_global; i++)
    if (mk->global[i] < (b > n_k ? b : n_k)) g[out.n_global++] = mk->global[i];
  out.global = out.n_global ? g : NULL;
  return out;
}

/* attn_attention_backward's dQ, dK, dV, both paths, against dQ from blocks
 * of rows (attn_attention_backward_dq with first_query) and dK, dV from
 * blocks of key tiles (attn_attention_backward_dkv): the same bits. */
static void pieces_case(rng_t *r, int n_q, int n_k, int d_k, int d_v, int mode, int parts) {
  begin("attn_attention_backward_dq + _dkv = attn_attention_backward, bit for bit: n_q=%d n_k=%d "
        "d_k=%d d_v=%d masks=%s parts=%d", n_q, n_k, d_k, d_v, MK_NAMES[mode], parts);
  float *Q = fbuf((size_t)n_q * d_k), *K = fbuf((size_t)n_k * d_k), *V = fbuf((size_t)n_k * d_v),
        *dO = fbuf((size_t)n_q * d_v);
  fill(r, Q, (size_t)n_q * d_k, 1), fill(r, K, (size_t)n_k * d_k, 1), fill(r, V, (size_t)n_k * d_v, 1);
  fill(r, dO, (size_t)n_q * d_v, 1);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, mode, n_q, n_k);
  const attn_masks none = {0};
  if (!mk) mk = &none;
  const float s = 1.0f / sqrtf((float)d_k);
  float *out = fbuf((size_t)n_q * d_v), *W = fbuf((size_t)n_q * n_k), *lse = fbuf((size_t)n_q);
  float *dQ = fbuf((size_t)n_q * d_k), *dK = fbuf((size_t)n_k * d_k), *dV = fbuf((size_t)n_k * d_v);
  void *fws = wsbuf(attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0));
  int32_t g[8];
  for (int fused = 0; fused < 2; fused++) {
    if (fused) expect_status(attn_attention_lse(out, lse, Q, K, V, n_q, n_k, d_k, d_v, s, mk, fws), ATTN_OK, "lse");
    else expect_status(attn_attention(out, W, Q, K, V, n_q, n_k, d_k, d_v, s, mk, NULL), ATTN_OK, "weights");
    const float *w = fused ? NULL : W, *l = fused ? lse : NULL;
    void *ws = wsbuf(attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v));
    expect_status(attn_attention_backward(dQ, dK, dV, Q, K, V, out, dO, w, l, n_q, n_k, d_k, d_v, s, mk, ws),
                  ATTN_OK, "attn_attention_backward");
    free(ws);
    /* dQ by blocks of rows, uneven */
    for (int p = 0, a = 0; p < parts && a < n_q; p++) {
      int b = p == parts - 1 ? n_q : (int)((int64_t)n_q * (p + 1) * (p + 1) / ((int64_t)parts * parts));
      if (b <= a) b = a + 1;
      const int rows = b - a;
      const attn_masks bm = rows_masks(mk, a, b, n_k, g);
      float *dq = fbuf((size_t)rows * d_k);
      void *bws = wsbuf(attn_attention_backward_workspace_size(rows, n_k, d_k, d_v));
      expect_status(attn_attention_backward_dq(dq, Q + (size_t)a * d_k, K, V, out + (size_t)a * d_v,
                                               dO + (size_t)a * d_v, w ? w + (size_t)a * n_k : NULL,
                                               l ? l + a : NULL, rows, n_k, d_k, d_v, s, &bm, bws),
                    ATTN_OK, "attn_attention_backward_dq");
      CHECK(!memcmp(dq, dQ + (size_t)a * d_k, (size_t)rows * d_k * 4), "%s: rows %d..%d of dQ differ",
            fused ? "fused" : "weights", a, b - 1);
      free(dq), free(bws);
      a = b;
    }
    /* dK, dV by blocks of key tiles */
    const int tiles = (n_k + ATTN_BACKWARD_KEY_TILE - 1) / ATTN_BACKWARD_KEY_TILE;
    for (int p = 0, t0 = 0; p < parts && t0 < tiles; p++) {
      const int t1 = p == parts - 1 ? tiles : t0 + (tiles - t0 + (parts - p) - 1) / (parts - p);
      const int j0 = t0 * ATTN_BACKWARD_KEY_TILE, j1 = t1 * ATTN_BACKWARD_KEY_TILE < n_k ? t1 * ATTN_BACKWARD_KEY_TILE : n_k;
      float *dk = fbuf((size_t)(j1 - j0) * d_k), *dv = fbuf((size_t)(j1 - j0) * d_v);
      void *bws = wsbuf(attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v));
      expect_status(attn_attention_backward_dkv(dk, dv, Q, K, V, out, dO, w, l, n_q, n_k, d_k, d_v, s, mk, j0, j1, bws),
                    ATTN_OK, "attn_attention_backward_dkv");
      CHECK(!memcmp(dk, dK + (size_t)j0 * d_k, (size_t)(j1 - j0) * d_k * 4) &&
                !memcmp(dv, dV + (size_t)j0 * d_v, (size_t)(j1 - j0) * d_v * 4),
            "%s: keys %d..%d of dK or dV differ", fused ? "fused" : "weights", j0, j1 - 1);
      free(dk), free(dv), free(bws);
      t0 = t1;
    }
  }
  free(Q), free(K), free(V), free(dO), free(out), free(W), free(lse), free(dQ), free(dK), free(dV);
  free(fws), free(add), free(pad);
  end();
}

static void test_backward_pieces(void) {
  rng_t r = rng_for("attention_backward_pieces");
  /* around the blocks of 128 queries and the key tiles of 128 */
  const int nq[] = {1, 3, 200}, nk[] = {1, 128, 300};
  int k = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++)
      for (int mode = 0; mode < MK_MODES; mode++, k++)
        pieces_case(&r, nq[a], nk[b], 4 + k % 5, 3 + k % 4, mode, 2 + k % 3);
}

const test_group TEST_GROUPS[] = {
    {"attention_backward", test_attention_backward, 1},
    {"attention_backward_pieces", test_backward_pieces, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

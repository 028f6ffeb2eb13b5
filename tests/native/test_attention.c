/* test_attention.c: src/attention.c and src/mask.c: scaled dot-product
 * attention, both paths, every kind of mask, against the float64 reference. */
#include "harness.h"

/* ==== attn_attention ===================================================== */


typedef struct {
  int n_q, n_k, d_k, d_v, mode;
  float scale, q_scale, v_scale; /* scale; magnitudes of Q and K, of V */
  int loose;                     /* ill-conditioned: only properties */
} attn_case_t;

static void attention_case(rng_t *r, attn_case_t c) {
  begin("attn_attention n_q=%d n_k=%d d_k=%d d_v=%d scale=%g masks=%s |QK|=%g |V|=%g",
        c.n_q, c.n_k, c.d_k, c.d_v, (double)c.scale, MK_NAMES[c.mode],
        (double)c.q_scale, (double)c.v_scale);
  const int n_q = c.n_q, n_k = c.n_k, d_k = c.d_k, d_v = c.d_v;
  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k,
               nk_dv = (size_t)n_k * d_v, nq_dv = (size_t)n_q * d_v,
               nq_nk = (size_t)n_q * n_k;
  float *Q = fbuf(nq_dk), *K = fbuf(nk_dk), *V = fbuf(nk_dv);
  fill(r, Q, nq_dk, c.q_scale), fill(r, K, nk_dk, c.q_scale), fill(r, V, nk_dv, c.v_scale);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, c.mode, n_q, n_k);
  float *Q0 = clone_bytes(Q, nq_dk * 4), *K0 = clone_bytes(K, nk_dk * 4), *V0 = clone_bytes(V, nk_dv * 4);
  float *add0 = add ? clone_bytes(add, nq_nk * 4) : NULL;
  uint8_t *pad0 = pad ? clone_bytes(pad, (size_t)n_k) : NULL;

  /* with weights: the documented workspace is 0 bytes */
  float *out_w = fbuf(nq_dv), *W = fbuf(nq_nk), *out_f = fbuf(nq_dv);
  poison(out_w, nq_dv), poison(W, nq_nk), poison(out_f, nq_dv);
  CHECK(attn_attention_workspace_size(n_q, n_k, d_k, d_v, 1) == 0,
        "workspace size with weights is %zu, documented 0",
        attn_attention_workspace_size(n_q, n_k, d_k, d_v, 1));
  const int st_w = attn_attention(out_w, W, Q, K, V, n_q, n_k, d_k, d_v, c.scale, mk, NULL);
  expect_status(st_w, ATTN_OK, "attn_attention with weights");
  /* fused: exactly the workspace it asks for */
  const size_t ws_bytes = attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0);
  void *ws = wsbuf(ws_bytes);
  const int st_f = attn_attention(out_f, NULL, Q, K, V, n_q, n_k, d_k, d_v, c.scale, mk, ws);
  expect_status(st_f, ATTN_OK, "attn_attention fused (weights NULL)");

  double *want = dbuf(nq_dv), *eo = dbuf(nq_dv), *ww = dbuf(nq_nk), *ew = dbuf(nq_nk);
  int *vis = xmalloc(sizeof(int) * (size_t)n_q);
  double *Qd = ref_to_double(Q, nq_dk), *Kd = ref_to_double(K, nk_dk),
         *Vd = ref_to_double(V, nk_dv);
  const ref_attn_args args = {Qd, Kd, Vd, NULL, NULL, NULL, (size_t)d_k, (size_t)d_k,
                              (size_t)d_v, n_q, n_k, d_k, d_v, c.scale, 0, mk};
  ref_attention(want, eo, (size_t)d_v, ww, ew, vis, NULL, &args);

  if (st_w == ATTN_OK) {
    check_finite("out (weights path)", out_w, nq_dv);
    check_finite("weights", W, nq_nk);
    for (int i = 0; i < n_q; i++) {
      double sum = 0;
      for (int j = 0; j < n_k; j++) {
        const float w = W[(size_t)i * n_k + j];
        sum += w;
        if (!ref_visible(mk, i, j, n_k))
          CHECK(w == 0.0f, "masked weight [%d][%d] = %g, want exactly 0", i, j, (double)w);
        else
          CHECK(w >= 0.0f && w <= 1.0f, "weight [%d][%d] = %g outside [0, 1]", i, j, (double)w);
      }
      if (vis[i])
        CHECK(fabs(sum - 1) <= 2 * (vis[i] + 4) * REF_U,
              "weights row %d sums to 1 %+.3g (tol %.3g)", i, sum - 1,
              2 * (vis[i] + 4) * REF_U);
      else {
        CHECK(sum == 0, "fully masked row %d: weights not all zero", i);
        for (int cc = 0; cc < d_v; cc++)
          CHECK(out_w[(size_t)i * d_v + cc] == 0.0f,
                "fully masked row %d: out (weights path) [%d] = %g, want 0", i,
                cc, (double)out_w[(size_t)i * d_v + cc]);
      }
    }
    if (!c.loose) {
      compare("weights", W, ww, ew, nq_nk, (size_t)n_k, 0);
      compare("out (weights path)", out_w, want, eo, nq_dv, (size_t)d_v, 0);
    }
  }
  if (st_f == ATTN_OK) {
    check_finite("out (fused path)", out_f, nq_dv);
    for (int i = 0; i < n_q; i++)
      if (!vis[i])
        for (int cc = 0; cc < d_v; cc++)
          CHECK(out_f[(size_t)i * d_v + cc] == 0.0f,
                "fully masked row %d: out (fused path) [%d] = %g, want 0", i,
                cc, (double)out_f[(size_t)i * d_v + cc]);
    if (!c.loose) compare("out (fused path)", out_f, want, eo, nq_dv, (size_t)d_v, 0);
  }
  if (st_w == ATTN_OK && st_f == ATTN_OK && !c.loose)
    for (size_t i = 0; i < nq_dv; i++) {
      const double tol = 4 * eo[i];
      CHECK(fabs((double)out_w[i] - out_f[i]) <= tol,
            "paths disagree at out[%zu][%zu]: weights %.9g, fused %.9g (tol %.3g)",
            i / d_v, i % d_v, (double)out_w[i], (double)out_f[i], tol);
    }
  if (c.loose) {
    /* Whatever the conditioning, each output is a convex combination of the
     * visible V rows: inside their range, up to the summation's rounding. */
    for (int i = 0; i < n_q; i++)
      for (int cc = 0; cc < d_v && vis[i]; cc++) {
        double lo = INFINITY, hi = -INFINITY, mag = 0;
        for (int j = 0; j < n_k; j++)
          if (ref_visible(mk, i, j, n_k)) {
            const double v = V[(size_t)j * d_v + cc];
            lo = fmin(lo, v), hi = fmax(hi, v), mag = fmax(mag, fabs(v));
          }
        const double slack = 2 * (3.0 * n_k + 8) * REF_U * mag;
        const float got[2] = {out_w[(size_t)i * d_v + cc], out_f[(size_t)i * d_v + cc]};
        for (int p = 0; p < 2; p++)
          CHECK(got[p] >= lo - slack && got[p] <= hi + slack,
                "out (%s path) [%d][%d] = %.9g outside the visible values [%g, %g]",
                p ? "fused" : "weights", i, cc, (double)got[p], lo, hi);
      }
  }
  check_unchanged("Q", Q, Q0, nq_dk * 4);
  check_unchanged("K", K, K0, nk_dk * 4);
  check_unchanged("V", V, V0, nk_dv * 4);
  if (add) check_unchanged("mask", add, add0, nq_nk * 4);
  if (pad) check_unchanged("key_padding", pad, pad0, (size_t)n_k);

  free(Q), free(K), free(V), free(Q0), free(K0), free(V0), free(add), free(pad);
  free(add0), free(pad0), free(out_w), free(W), free(out_f), free(ws);
  free(want), free(eo), free(ww), free(ew), free(vis), free(Qd), free(Kd), free(Vd);
  end();
}

static attn_case_t plain(int n_q, int n_k, int d_k, int d_v, int mode) {
  attn_case_t c = {n_q, n_k, d_k, d_v, mode, 1.0f / sqrtf((float)d_k), 1, 1, 0};
  return c;
}

/* The same masked attention (d_k = d_v = d, scale 0.5) through both paths:
 * with weights into out and W, fused into out_f. */
static void both_paths(float *out, float *W, float *out_f, const float *Q,
                       const float *K, const float *V, int n_q, int n_k, int d,
                       const attn_masks *mk) {
  void *ws = wsbuf(attn_attention_workspace_size(n_q, n_k, d, d, 0));
  expect_status(attn_attention(out, W, Q, K, V, n_q, n_k, d, d, 0.5f, mk, NULL),
                ATTN_OK, "attn_attention");
  expect_status(attn_attention(out_f, NULL, Q, K, V, n_q, n_k, d, d, 0.5f, mk, ws),
                ATTN_OK, "attn_attention fused");
  free(ws);
}

static void test_attention(void) {
  rng_t r = rng_for("attention");
  /* every (n_q, n_k) of the sweep with every mask; d_k and d_v rotate */
  for (int a = 0; a < N_SIZES; a++)
    for (int b = 0; b < N_SIZES; b++)
      for (int mode = 0; mode < MK_MODES; mode++) {
        attn_case_t c = plain(SIZES[a], SIZES[b], SIZES[(a + b + mode) % 14],
                              SIZES[(2 * a + b + 3 * mode) % 12], mode);
        if (mode == MK_EMPTY) c.scale = 0.7f; /* scale is not fixed */
        attention_case(&r, c);
      }
  /* long key sequences: several key tiles for the fused path */
  const int long_k[] = {255, 256, 257, 1000, 4099, 20000};
  for (int i = 0; i < 6; i++)
    for (int mode = 0; mode < MK_MODES; mode++) {
      const int n_q = i == 5 ? 2 : (mode % 3 == 0 ? 130 : 3);
      attention_case(&r, plain(n_q, long_k[i], 8, 5, mode));
    }
  /* several passes of the fused path's queries (SQ = 1024) over the keys:
   * causal skips differ per pass and per block */
  for (int mode = 0; mode < MK_MODES; mode++) {
    attention_case(&r, plain(2100, 300, 4, 3, mode));
    attention_case(&r, plain(1025, 1100, 5, 9, mode));
  }
  /* wide heads: depth past a packed panel; d up to 1024 (issue 5) */
  const int wide_d[] = {255, 256, 257, 513, 1024};
  for (int i = 0; i < 5; i++) {
    attention_case(&r, plain(5, 33, wide_d[i], 7, MK_ALL));
    attention_case(&r, plain(9, 17, 16, wide_d[i], MK_CAUSAL));
    attention_case(&r, plain(3, 9, wide_d[i], wide_d[i], MK_NONE));
  }
  /* sharp and flat scores */
  for (int mode = 0; mode < MK_MODES; mode++) {
    attn_case_t c = plain(17, 33, 8, 8, mode);
    c.q_scale = 3.0f; /* scores up to ~25: nearly one-hot, still checkable */
    attention_case(&r, c);
    c = plain(17, 33, 8, 8, mode);
    c.scale = 1e-6f; /* nearly uniform */
    attention_case(&r, c);
  }
  /* issue 5: inputs at +-1e4 (scores ~1e8), subnormals; finite results,
   * weight rows summing to 1 and outputs inside the visible values */
  for (int mode = 0; mode < MK_MODES; mode++) {
    attn_case_t c = plain(33, 65, 64, 16, mode);
    c.q_scale = 1e4f, c.v_scale = 1e4f, c.loose = 1;
    attention_case(&r, c);
    c = plain(9, 17, 4, 4, mode);
    c.q_scale = 1e-39f; /* subnormal Q and K: scores underflow to 0 */
    attention_case(&r, c);
    c.v_scale = 1e-39f; /* and subnormal V */
    attention_case(&r, c);
    /* several key tiles with scores far apart: an early tile's max can be
     * ~1e3 above a later one's, so a running max that ever goes down would
     * overflow exp when rescaling */
    c = plain(mode % 2 ? 3 : 70, mode % 2 ? 1000 : 300, 16, 8, mode);
    c.q_scale = mode < 3 ? 30.0f : 1e4f, c.loose = 1;
    attention_case(&r, c);
    /* a scale near FLT_MAX: had the fused path folded it into Q, the
     * queries would overflow, and inf - inf in the dot products is NaN */
    c = plain(9, 40, 8, 4, mode);
    c.scale = 1e38f, c.loose = 1;
    attention_case(&r, c);
    /* s log2(e) overflows: the weights path scales first; scaled scores
     * overflow and count as +-FLT_MAX: not NaN beside an additive mask's
     * -inf, and a row whose visible scores all overflow below still has
     * weights (row 2 under the window, whose one key's score is negative) */
    c.scale = 3e38f;
    attention_case(&r, c);
  }

  /* fully masked rows, built on purpose */
  begin("attn_attention: every key padded -> zero weights and zero output");
  {
    const int n_q = 3, n_k = 5, d = 4;
    float Q[12], K[20], V[20], out[12], W[15], out_f[12];
    fill(&r, Q, 12, 1), fill(&r, K, 20, 1), fill(&r, V, 20, 1);
    uint8_t pad[5] = {1, 1, 1, 1, 1};
    const attn_masks mk = {.key_padding = pad};
    both_paths(out, W, out_f, Q, K, V, n_q, n_k, d, &mk);
    for (int i = 0; i < 15; i++) CHECK(W[i] == 0.0f, "W[%d] = %g", i, (double)W[i]);
    for (int i = 0; i < 12; i++)
      CHECK(out[i] == 0.0f && out_f[i] == 0.0f, "out[%d] = %g / %g", i,
            (double)out[i], (double)out_f[i]);
  }
  end();

  begin("attn_attention: causal + key 0 padded -> row 0 fully masked, others fine");
  {
    const int n = 6, d = 3;
    float Q[18], K[18], V[18], out[18], W[36], out_f[18];
    fill(&r, Q, 18, 1), fill(&r, K, 18, 1), fill(&r, V, 18, 1);
    uint8_t pad[6] = {1, 0, 0, 0, 0, 0};
    const attn_masks mk = {.key_padding = pad, .causal = 1};
    both_paths(out, W, out_f, Q, K, V, n, n, d, &mk);
    for (int c = 0; c < d; c++)
      CHECK(out[c] == 0.0f && out_f[c] == 0.0f, "row 0 out[%d] = %g / %g", c,
            (double)out[c], (double)out_f[c]);
    /* row 1 sees key 1 only: weight exactly 1 up to rounding, out = V row 1 */
    CHECK(fabs(W[n + 1] - 1.0) <= 4 * REF_U, "row 1 weight on key 1 = %.9g", (double)W[n + 1]);
    for (int c = 0; c < d; c++)
      CHECK(fabs(out_f[d + c] - V[d + c]) <= 8 * REF_U * fabs(V[d + c]),
            "row 1 out[%d] = %.9g, want V[1][%d] = %.9g", c, (double)out_f[d + c],
            c, (double)V[d + c]);
  }
  end();

  begin("attn_attention: adding a constant to a score row (via the mask) changes nothing");
  {
    const int n_q = 4, n_k = 9, d = 5;
    float Q[20], K[45], V[45], add[36], out1[20], out2[20], W1[36], W2[36];
    fill(&r, Q, 20, 1), fill(&r, K, 45, 1), fill(&r, V, 45, 1);
    for (int i = 0; i < 36; i++) add[i] = 0;
    const attn_masks none = {.add = add};
    expect_status(attn_attention(out1, W1, Q, K, V, n_q, n_k, d, d, 0.4f, &none, NULL),
                  ATTN_OK, "attn_attention");
    for (int i = 0; i < n_q; i++)
      for (int j = 0; j < n_k; j++) add[i * n_k + j] = (float)(8 * i - 12);
    expect_status(attn_attention(out2, W2, Q, K, V, n_q, n_k, d, d, 0.4f, &none, NULL),
                  ATTN_OK, "attn_attention");
    /* scores ~1 plus a constant up to 12: rounding of the sum, 2^-20 abs */
    for (int i = 0; i < 36; i++)
      CHECK(fabs(W1[i] - W2[i]) <= 0x1p-19 * W1[i] + 64 * REF_U * W1[i] + REF_FLOOR,
            "W[%d]: %.9g vs %.9g", i, (double)W1[i], (double)W2[i]);
  }
  end();

  begin("attn_attention: permuting keys and values together changes nothing");
  {
    const int n_q = 5, n_k = 7, d = 6;
    float Q[30], K[42], V[42], K2[42], V2[42], out1[30], out2[30];
    fill(&r, Q, 30, 1), fill(&r, K, 42, 1), fill(&r, V, 42, 1);
    const int perm[7] = {3, 6, 0, 5, 1, 4, 2};
    for (int j = 0; j < n_k; j++)
      for (int c = 0; c < d; c++)
        K2[perm[j] * d + c] = K[j * d + c], V2[perm[j] * d + c] = V[j * d + c];
    void *ws = wsbuf(attn_attention_workspace_size(n_q, n_k, d, d, 0));
    expect_status(attn_attention(out1, NULL, Q, K, V, n_q, n_k, d, d, 0.4f, NULL, ws),
                  ATTN_OK, "attn_attention");
    expect_status(attn_attention(out2, NULL, Q, K2, V2, n_q, n_k, d, d, 0.4f, NULL, ws),
                  ATTN_OK, "attn_attention");
    for (int i = 0; i < 30; i++)
      CHECK(fabs(out1[i] - out2[i]) <= 64 * REF_U, "out[%d]: %.9g vs %.9g", i,
            (double)out1[i], (double)out2[i]);
    free(ws);
  }
  end();

  begin("attn_attention_workspace_size: the fused path's memory is O(N d), not O(N^2)");
  {
    const size_t big = attn_attention_workspace_size(65536, 65536, 64, 64, 0);
    const size_t nd = (size_t)65536 * 64 * sizeof(float);
    CHECK(big <= 4 * nd, "fused workspace for N=65536, d=64 is %zu bytes (> 4 N d floats)", big);
    CHECK(attn_attention_workspace_size(65536, 65536, 64, 64, 1) == 0,
          "workspace with weights is not 0");
  }
  end();
}

/* ==== rows alone: first_query ============================================ */

/* mk for rows a .. b-1 of an n_q x n_k call run alone: first_query a, the
 * additive mask's rows from a, the global positions that are keys or
 * queries of these rows (the others change nothing; the checker takes
 * positions < max(b, n_k)), kept in g (n_global of them at most). */
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

/* Rows a .. b-1 of a call, run alone with rows_masks, give the whole call's
 * bits for those rows (out, weights, log-sum-exp): what lets a pool of
 * workers split a call by rows and return the single call's result. */
static void rows_case(rng_t *r, int n_q, int n_k, int d_k, int d_v, int mode, int parts) {
  begin("attn_attention rows alone (first_query) n_q=%d n_k=%d d_k=%d d_v=%d masks=%s parts=%d",
        n_q, n_k, d_k, d_v, MK_NAMES[mode], parts);
  float *Q = fbuf((size_t)n_q * d_k), *K = fbuf((size_t)n_k * d_k), *V = fbuf((size_t)n_k * d_v);
  fill(r, Q, (size_t)n_q * d_k, 1), fill(r, K, (size_t)n_k * d_k, 1), fill(r, V, (size_t)n_k * d_v, 1);
  float *add;
  uint8_t *pad;
  attn_masks mk_store;
  const attn_masks *mk = make_masks(&mk_store, &add, &pad, r, mode, n_q, n_k);
  const attn_masks none = {0};
  if (!mk) mk = &none;
  /* the whole call: weights, fused, fused with the log-sum-exp */
  float *out = fbuf((size_t)n_q * d_v), *W = fbuf((size_t)n_q * n_k),
        *out_f = fbuf((size_t)n_q * d_v), *out_l = fbuf((size_t)n_q * d_v), *lse = fbuf((size_t)n_q);
  void *ws = wsbuf(attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0));
  const float s = 1.0f / sqrtf((float)d_k);
  expect_status(attn_attention(out, W, Q, K, V, n_q, n_k, d_k, d_v, s, mk, NULL), ATTN_OK, "whole, weights");
  expect_status(attn_attention(out_f, NULL, Q, K, V, n_q, n_k, d_k, d_v, s, mk, ws), ATTN_OK, "whole, fused");
  expect_status(attn_attention_lse(out_l, lse, Q, K, V, n_q, n_k, d_k, d_v, s, mk, ws), ATTN_OK, "whole, lse");
  free(ws);
  /* parts blocks of rows, uneven: block p ends at about n_q (p + 1)^2 / parts^2 */
  int32_t g[8];
  for (int p = 0, a = 0; p < parts && a < n_q; p++) {
    int b = p == parts - 1 ? n_q : (int)((int64_t)n_q * (p + 1) * (p + 1) / ((int64_t)parts * parts));
    if (b <= a) b = a + 1;
    const int rows = b - a;
    const attn_masks bm = rows_masks(mk, a, b, n_k, g);
    float *o = fbuf((size_t)rows * d_v), *w = fbuf((size_t)rows * n_k), *of = fbuf((size_t)rows * d_v),
          *ol = fbuf((size_t)rows * d_v), *l = fbuf((size_t)rows);
    void *bws = wsbuf(attn_attention_workspace_size(rows, n_k, d_k, d_v, 0));
    const float *q = Q + (size_t)a * d_k;
    expect_status(attn_attention(o, w, q, K, V, rows, n_k, d_k, d_v, s, &bm, NULL), ATTN_OK, "rows, weights");
    expect_status(attn_attention(of, NULL, q, K, V, rows, n_k, d_k, d_v, s, &bm, bws), ATTN_OK, "rows, fused");
    expect_status(attn_attention_lse(ol, l, q, K, V, rows, n_k, d_k, d_v, s, &bm, bws), ATTN_OK, "rows, lse");
    const size_t ov = (size_t)rows * d_v * 4;
    CHECK(!memcmp(o, out + (size_t)a * d_v, ov), "rows %d..%d: outputs (weights path) differ", a, b - 1);
    CHECK(!memcmp(w, W + (size_t)a * n_k, (size_t)rows * n_k * 4), "rows %d..%d: weights differ", a, b - 1);
    CHECK(!memcmp(of, out_f + (size_t)a * d_v, ov), "rows %d..%d: outputs (fused) differ", a, b - 1);
    CHECK(!memcmp(ol, out_l + (size_t)a * d_v, ov) && !memcmp(l, lse + a, (size_t)rows * 4),
          "rows %d..%d: outputs or log-sum-exp (lse) differ", a, b - 1);
    free(o), free(w), free(of), free(ol), free(l), free(bws);
    a = b;
  }
  free(Q), free(K), free(V), free(out), free(W), free(out_f), free(out_l), free(lse), free(add), free(pad);
  end();
}

static void test_rows(void) {
  rng_t r = rng_for("attention_rows");
  /* around the query blocks (128) and key tiles (128, 256) */
  const int nq[] = {1, 2, 7, 130, 300}, nk[] = {1, 5, 129, 300};
  const int parts[] = {2, 3, 7};
  int k = 0;
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 4; b++)
      for (int mode = 0; mode < MK_MODES; mode++, k++)
        rows_case(&r, nq[a], nk[b], 4 + k % 5, 3 + k % 4, mode, parts[k % 3]);
  /* every row alone */
  for (int mode = 0; mode < MK_MODES; mode++) rows_case(&r, 9, 17, 8, 4, mode, 9);
  /* the query passes of 1024 (a block across a pass's end) */
  const int structural[] = {MK_CAUSAL, MK_WINDOW_ALL};
  for (int i = 0; i < 2; i++) rows_case(&r, 2100, 260, 4, 3, structural[i], 3);
}

const test_group TEST_GROUPS[] = {
    {"attention", test_attention, 1},
    {"attention_rows", test_rows, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

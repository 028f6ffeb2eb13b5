/* fuzz_attention_backward.c: libFuzzer harness for attn_attention_lse,
 * attn_attention_backward and attn_attention_backward_workspace_size, from
 * stored weights and fused, with masks, on the SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-3 which pointer is NULL (1 dQ, 2 dK, 3 dV, 4 Q, 5 K,
 *       6 V, 7 out, 8 dout, 9 weights and lse both, else none), bit 4
 *       workspace NULL, bit 5 fused (lse) rather than stored weights, bit 6
 *       extreme data (+-FLT_MAX, +-1e30, inf, NaN)
 *   [1] masks (fuzz_common.h's fz_masks): bit 0 causal, bit 1 key padding,
 *       bit 2 additive, bit 3 none, bit 5 sliding window with global
 *       positions, bit 6 a malformed value
 *   [2..5] n_q, n_k, d_k, d_v    [6] scale
 *   then Q, K, V, dout, key padding, additive mask, window
 * The forward (attn_attention with weights, or attn_attention_lse) runs
 * first on the same path. Checked: the statuses; no allocation; inputs
 * unchanged; with finite inputs, a fully masked query row has lse = -inf
 * and a zero dQ row, a key no query sees zero dK and dV rows, exactly; with
 * inputs whose
 * gradients cannot overflow, finite gradients, and, where every query row
 * is well conditioned (fuzz_common.h), values within 4x the error-model
 * bound of ref_attention_backward (dQ row by row where only some are).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sizes rejected: dummies everywhere, nothing may be touched. The
 * workspace size must be 0 too unless only the weights (n_q x n_k, which
 * the fused path does not have) made the sizes impossible. */
static void call_rejected(fz_expect *e, int null, int fused, float scale, int n_q, int n_k,
                          int d_k, int d_v, uint8_t mflags, int only_weights_too_big) {
  static uint8_t pad[16];
  const attn_masks mk = {.add = fz_dummy[3], .key_padding = pad, .causal = mflags & 1};
  if (!only_weights_too_big)
    FZ_CHECK(attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) == 0,
             "backward workspace size for rejected sizes %d %d %d %d is %zu", n_q, n_k, d_k, d_v,
             attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v));
  static _Alignas(16) unsigned char ws[64];
  static float g[3][4], lse[4];
  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    int st;
    FZ_CALL(st, attn_attention_backward(
                    null == 1 ? NULL : g[0], null == 2 ? NULL : g[1], null == 3 ? NULL : g[2],
                    null == 4 ? NULL : fz_dummy[0], null == 5 ? NULL : fz_dummy[1],
                    null == 6 ? NULL : fz_dummy[2], null == 7 ? NULL : fz_dummy[3],
                    null == 8 ? NULL : fz_dummy[0], fused || null == 9 ? NULL : fz_dummy[3],
                    fused && null != 9 ? lse : NULL, n_q, n_k, d_k, d_v, scale,
                    (mflags & 8) ? NULL : &mk, ws));
    fz_check_status(e, st, "attn_attention_backward");
  }
}

/* Finite gradients are promised when the forward is sane (as in
 * fuzz_attention.c) and these magnitude bounds stay below 1e37:
 * |dP - D| <= 2 d_v max|dO| max|V| = G, |dQ| <= n_k scale G max|K|,
 * |dK| <= n_q scale G max|Q|, |dV| <= n_q max|dO|. */
static int sane_inputs(const float *Q, const float *K, const float *V, const float *dO,
                       const float *add, int n_q, int n_k, int d_k, int d_v, float scale) {
  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k,
               nk_dv = (size_t)n_k * d_v, nq_dv = (size_t)n_q * d_v;
  if (!fz_all_finite(Q, nq_dk) || !fz_all_finite(K, nk_dk) || !fz_all_finite(V, nk_dv) ||
      !fz_all_finite(dO, nq_dv) || !fz_scale_ok(scale))
    return 0;
  if (add)
    for (size_t i = 0; i < (size_t)n_q * n_k; i++)
      if (!(isfinite(add[i]) || add[i] == -INFINITY)) return 0;
  const double q = fz_max_abs(Q, nq_dk), k = fz_max_abs(K, nk_dk), v = fz_max_abs(V, nk_dv),
               o = fz_max_abs(dO, nq_dv);
  const double G = 2.0 * d_v * o * v;
  if (n_k * v > 1e37 || G > 1e37 || n_k * scale * G * k > 1e37 || n_q * scale * G * q > 1e37 ||
      n_q * o > 1e37)
    return 0;
  for (int i = 0; i < n_q; i++)
    for (int j = 0; j < n_k; j++) {
      double abs_dot = 0;
      for (int p = 0; p < d_k; p++) abs_dot += fabs((double)Q[(size_t)i * d_k + p] * K[(size_t)j * d_k + p]);
      const double a = add && isfinite(add[(size_t)i * n_k + j]) ? add[(size_t)i * n_k + j] : 0;
      if (abs_dot > 1e37 || scale * abs_dot + fabs(a) > 1e37) return 0;
    }
  return 1;
}

/* lse of the well-conditioned rows against log sum exp of the reference
 * scores: their error, the normaliser's (3 n + 4) u + 2 E_EXP and 3 u |lse|
 * of lse's own roundings (tests/native/ref64.h, gradients). */
static void check_lse(const float *lse, const int *cond, const ref_attn_args *a) {
  double *s = ref_dbuf((size_t)a->n_k), *es = ref_dbuf((size_t)a->n_k);
  for (int i = 0; i < a->n_q; i++) {
    if (!cond[i]) continue;
    ref_score_row(s, es, i, a);
    double m = -INFINITY, err = 0, l = 0;
    int vis = 0;
    for (int j = 0; j < a->n_k; j++)
      if (s[j] != -INFINITY) vis++, m = fmax(m, s[j]), err = fmax(err, es[j]);
    if (!vis) continue;
    for (int j = 0; j < a->n_k; j++) l += s[j] == -INFINITY ? 0 : exp(s[j] - m);
    const double want = m + log(l);
    err += (3.0 * vis + 4) * REF_U + 2 * REF_E_EXP + 3 * REF_U * fabs(want) + REF_FLOOR;
    fz_compare("lse", lse + i, &want, &err, 1);
  }
  free(s), free(es);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f), mflags = fz_u8(&f);
  const int n_q = fz_size(&f), n_k = fz_size(&f), d_k = fz_size(&f), d_v = fz_size(&f);
  const float scale = fz_scale(&f, d_k);
  const int null = flags & 15, ws_null = flags & 16, fused = (flags & 32) != 0,
            extreme = (flags & 64) != 0;

  fz_expect e = {0};
  if (null >= 1 && null <= 9) fz_may(&e, ATTN_E_NULL);
  if (!fz_scale_ok(scale)) fz_may(&e, ATTN_E_TEMP);
  const int sizes[4] = {n_q, n_k, d_k, d_v};
  const double largest = fmax(fmax(fz_bytes(n_q, d_k, 1), fz_bytes(n_k, d_k, 1)),
                              fmax(fz_bytes(n_k, d_v, 1), fz_bytes(n_q, d_v, 1)));
  int cls = fz_classify_sizes(&e, sizes, 4, largest);
  const int weights_too_big = cls == -1 && !fused && fz_bytes(n_q, n_k, 1) > (double)PTRDIFF_MAX;
  if (weights_too_big) fz_may(&e, ATTN_E_SIZE), cls = 1;
  if (cls < 0) return 0;
  if (cls == 1) {
    call_rejected(&e, null, fused, scale, n_q, n_k, d_k, d_v, mflags, weights_too_big);
    return 0;
  }
  if ((double)n_q * n_k * (d_k + d_v + 2) > 4e6) return 0; /* keep runs fast */

  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k,
               nk_dv = (size_t)n_k * d_v, nq_dv = (size_t)n_q * d_v,
               nq_nk = (size_t)n_q * n_k;
  float *Q = fz_floats(nq_dk), *K = fz_floats(nk_dk), *V = fz_floats(nk_dv), *dO = fz_floats(nq_dv);
  fz_fill(&f, Q, nq_dk, extreme), fz_fill(&f, K, nk_dk, extreme), fz_fill(&f, V, nk_dv, extreme);
  fz_fill(&f, dO, nq_dv, extreme);
  /* The masks' faults are the forward's too: m_e holds them alone. */
  fz_expect m_e = {0};
  fz_masks_t masks;
  const attn_masks *mk = fz_masks(&f, &masks, mflags, n_q, n_k, extreme, &m_e);
  const float *add = masks.add;
  e.set |= m_e.set;
  const float *inputs[4] = {Q, K, V, dO};
  const size_t counts[4] = {nq_dk, nk_dk, nk_dv, nq_dv};
  float *copies[4];
  for (int t = 0; t < 4; t++) copies[t] = fz_floats(counts[t]), memcpy(copies[t], inputs[t], counts[t] * 4);

  /* The forward, then its outputs are inputs of the backward. */
  const size_t ws_f = attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0);
  const size_t ws_b = attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v);
  FZ_CHECK(ws_b > 0, "backward workspace size 0 for valid sizes %d %d %d %d", n_q, n_k, d_k, d_v);
  if (ws_null) fz_may(&e, ATTN_E_WORKSPACE);
  void *wsf = fz_workspace(ws_f), *ws = ws_null ? NULL : fz_workspace(ws_b);
  float *out = fz_floats(nq_dv), *W = fused ? NULL : fz_floats(nq_nk), *lse = fz_floats((size_t)n_q);
  float *dQ = fz_floats(nq_dk), *dK = fz_floats(nk_dk), *dV = fz_floats(nk_dv);

  const int sane = sane_inputs(Q, K, V, dO, add, n_q, n_k, d_k, d_v, scale);
  double *gQ = NULL, *eQ = NULL, *gK = NULL, *eK = NULL, *gV = NULL, *eV = NULL;
  double *Qd = NULL, *Kd = NULL, *Vd = NULL, *dOd = NULL, *o = NULL, *eo = NULL, *w = NULL, *ew = NULL;
  int *cond = NULL, all_cond = 1;
  ref_attn_args a;
  memset(&a, 0, sizeof a);
  if (sane && !e.set) {
    Qd = ref_to_double(Q, nq_dk), Kd = ref_to_double(K, nk_dk), Vd = ref_to_double(V, nk_dv);
    dOd = ref_to_double(dO, nq_dv);
    gQ = ref_dbuf(nq_dk), eQ = ref_dbuf(nq_dk), gK = ref_dbuf(nk_dk), eK = ref_dbuf(nk_dk);
    gV = ref_dbuf(nk_dv), eV = ref_dbuf(nk_dv), o = ref_dbuf(nq_dv), eo = ref_dbuf(nq_dv);
    w = ref_dbuf(nq_nk), ew = ref_dbuf(nq_nk);
    cond = calloc((size_t)n_q, sizeof(int));
    if (!cond) abort();
    const ref_attn_args args = {Qd, Kd, Vd, NULL, NULL, NULL, (size_t)d_k, (size_t)d_k,
                                (size_t)d_v, n_q, n_k, d_k, d_v, scale, 0, mk};
    a = args;
    ref_attention(o, eo, (size_t)d_v, w, ew, NULL, cond, &a);
    for (int i = 0; i < n_q; i++) all_cond &= cond[i];
    ref_attention_backward(gQ, eQ, (size_t)d_k, gK, eK, (size_t)d_k, gV, eV, (size_t)d_v, dOd,
                           NULL, (size_t)d_v, fused, &a);
  }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    int st = ATTN_OK;
    if (fz_scale_ok(scale)) {
      FZ_CALL(st, fused ? attn_attention_lse(out, lse, Q, K, V, n_q, n_k, d_k, d_v, scale, mk, wsf)
                        : attn_attention(out, W, Q, K, V, n_q, n_k, d_k, d_v, scale, mk, NULL));
      fz_check_status(&m_e, st, fused ? "the forward (attn_attention_lse)" : "the forward");
    }
    if (st != ATTN_OK || !fz_scale_ok(scale)) { /* rejected: what the backward is given */
      fz_poison(out, nq_dv), fz_poison(lse, (size_t)n_q);
      if (W) fz_poison(W, nq_nk);
    }
    float *out0 = fz_floats(nq_dv), *lse0 = fz_floats((size_t)n_q);
    memcpy(out0, out, nq_dv * 4), memcpy(lse0, lse, (size_t)n_q * 4);
    fz_poison(dQ, nq_dk), fz_poison(dK, nk_dk), fz_poison(dV, nk_dv);
    FZ_CALL(st, attn_attention_backward(
                    null == 1 ? NULL : dQ, null == 2 ? NULL : dK, null == 3 ? NULL : dV,
                    null == 4 ? NULL : Q, null == 5 ? NULL : K, null == 6 ? NULL : V,
                    null == 7 ? NULL : out, null == 8 ? NULL : dO, null == 9 ? NULL : W,
                    null == 9 || !fused ? NULL : lse, n_q, n_k, d_k, d_v, scale, mk, ws));
    fz_check_status(&e, st, "attn_attention_backward");
    for (int t = 0; t < 4; t++)
      FZ_CHECK(!memcmp(inputs[t], copies[t], counts[t] * 4), "an input (%d) was modified", t);
    FZ_CHECK(!memcmp(out, out0, nq_dv * 4) && !memcmp(lse, lse0, (size_t)n_q * 4),
             "out or lse was modified");
    free(out0), free(lse0);
    /* 0 x NaN is NaN: exact zeros need sane inputs (a score that overflows
     * to +inf, plus a mask's -inf, is NaN in the forward already) */
    if (st != ATTN_OK || !sane) continue;
    for (int i = 0; i < n_q; i++) {
      int seen = 0;
      for (int j = 0; j < n_k; j++) seen |= ref_visible(mk, i, j, n_k);
      if (seen) continue;
      if (fused) FZ_CHECK(lse[i] == -INFINITY, "fully masked row %d: lse %g", i, (double)lse[i]);
      for (int p = 0; p < d_k; p++)
        FZ_CHECK(dQ[(size_t)i * d_k + p] == 0.0f, "fully masked row %d: dQ %g", i,
                 (double)dQ[(size_t)i * d_k + p]);
    }
    for (int j = 0; j < n_k; j++) {
      int seen = 0;
      for (int i = 0; i < n_q; i++) seen |= ref_visible(mk, i, j, n_k);
      for (int p = 0; p < d_k && !seen; p++)
        FZ_CHECK(dK[(size_t)j * d_k + p] == 0.0f, "hidden key %d: dK %g", j, (double)dK[(size_t)j * d_k + p]);
      for (int p = 0; p < d_v && !seen; p++)
        FZ_CHECK(dV[(size_t)j * d_v + p] == 0.0f, "hidden key %d: dV %g", j, (double)dV[(size_t)j * d_v + p]);
    }
    if (!gQ) continue;
    if (fused) check_lse(lse, cond, &a);
    fz_check_finite("dQ", dQ, nq_dk), fz_check_finite("dK", dK, nk_dk), fz_check_finite("dV", dV, nk_dv);
    for (int i = 0; i < n_q; i++)
      if (cond[i]) fz_compare("dQ", dQ + (size_t)i * d_k, gQ + (size_t)i * d_k, eQ + (size_t)i * d_k, (size_t)d_k);
    if (all_cond) fz_compare("dK", dK, gK, eK, nk_dk), fz_compare("dV", dV, gV, eV, nk_dv);
  }
  attn__set_simd(1);

  for (int t = 0; t < 4; t++) free(copies[t]);
  fz_free_masks(&masks);
  free(Q), free(K), free(V), free(dO), free(wsf), free(ws), free(out), free(W);
  free(lse), free(dQ), free(dK), free(dV), free(gQ), free(eQ), free(gK), free(eK), free(gV), free(eV);
  free(Qd), free(Kd), free(Vd), free(dOd), free(o), free(eo), free(w), free(ew), free(cond);
  return 0;
}

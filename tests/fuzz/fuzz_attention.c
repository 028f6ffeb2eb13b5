/* fuzz_attention.c: libFuzzer harness for attn_attention and
 * attn_attention_workspace_size, with and without weights and masks, on the
 * SIMD and the scalar path.
 *
 * Input layout (bytes; see fuzz_common.h for how each is decoded):
 *   [0] flags: bits 0-2 which pointer is NULL (1 out, 2 Q, 3 K, 4 V, else
 *       none), bit 3 workspace NULL, bit 4 weights wanted, bit 5 extreme data
 *       (+-FLT_MAX, +-1e30, inf, NaN)
 *   [1] masks (fuzz_common.h's fz_masks): bit 0 causal, bit 1 key padding,
 *       bit 2 additive, bit 3 none, bit 5 sliding window with global
 *       positions, bit 6 a malformed value
 *   [2..5] n_q, n_k, d_k, d_v    [6] scale
 *   then Q, K, V, key padding, additive mask data
 * Build: clang -fsanitize=fuzzer,address,undefined -Isrc
 *        tests/fuzz/fuzz_attention.c <every src .c file>
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void call_rejected(fz_expect *e, int null, int want_w, float scale,
                          int n_q, int n_k, int d_k, int d_v, uint8_t mflags) {
  /* sizes are invalid: small dummies everywhere, nothing may be touched */
  static uint8_t pad[16];
  const attn_masks mk = {.add = fz_dummy[3], .key_padding = pad, .causal = mflags & 1};
  FZ_CHECK(attn_attention_workspace_size(n_q, n_k, d_k, d_v, want_w) == 0,
           "workspace size for rejected sizes %d %d %d %d is %zu", n_q, n_k, d_k, d_v,
           attn_attention_workspace_size(n_q, n_k, d_k, d_v, want_w));
  static _Alignas(16) unsigned char ws[64];
  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    int st;
    FZ_CALL(st, attn_attention(null == 1 ? NULL : fz_dummy[0], want_w ? fz_dummy[3] : NULL,
                               null == 2 ? NULL : fz_dummy[1], null == 3 ? NULL : fz_dummy[2],
                               null == 4 ? NULL : fz_dummy[2], n_q, n_k, d_k, d_v, scale,
                               (mflags & 8) ? NULL : &mk, ws));
    fz_check_status(e, st, "attn_attention");
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f), mflags = fz_u8(&f);
  const int n_q = fz_size(&f), n_k = fz_size(&f), d_k = fz_size(&f), d_v = fz_size(&f);
  const float scale = fz_scale(&f, d_k);
  const int null = flags & 7, ws_null = flags & 8, want_w = (flags & 16) != 0,
            extreme = (flags & 32) != 0;

  fz_expect e = {0};
  if (null >= 1 && null <= 4) fz_may(&e, ATTN_E_NULL);
  if (!fz_scale_ok(scale)) fz_may(&e, ATTN_E_TEMP);
  const int sizes[4] = {n_q, n_k, d_k, d_v};
  double largest = fmax(fmax(fz_bytes(n_q, d_k, 1), fz_bytes(n_k, d_k, 1)),
                        fmax(fz_bytes(n_k, d_v, 1), fz_bytes(n_q, d_v, 1)));
  if (want_w) largest = fmax(largest, fz_bytes(n_q, n_k, 1));
  const int cls = fz_classify_sizes(&e, sizes, 4, largest);
  if (cls < 0) return 0;
  if (cls == 1) {
    call_rejected(&e, null, want_w, scale, n_q, n_k, d_k, d_v, mflags);
    return 0;
  }
  if ((double)n_q * n_k * (d_k + d_v + 2) > 4e6) return 0; /* keep runs fast */

  const size_t nq_dk = (size_t)n_q * d_k, nk_dk = (size_t)n_k * d_k,
               nk_dv = (size_t)n_k * d_v, nq_dv = (size_t)n_q * d_v,
               nq_nk = (size_t)n_q * n_k;
  float *Q = fz_floats(nq_dk), *K = fz_floats(nk_dk), *V = fz_floats(nk_dv);
  fz_fill(&f, Q, nq_dk, extreme), fz_fill(&f, K, nk_dk, extreme), fz_fill(&f, V, nk_dv, extreme);
  fz_masks_t masks;
  const attn_masks *mk = fz_masks(&f, &masks, mflags, n_q, n_k, extreme, &e);
  const float *add = masks.add;
  float *Q0 = fz_floats(nq_dk), *K0 = fz_floats(nk_dk), *V0 = fz_floats(nk_dv);
  memcpy(Q0, Q, nq_dk * 4), memcpy(K0, K, nk_dk * 4), memcpy(V0, V, nk_dv * 4);

  const size_t ws_bytes = attn_attention_workspace_size(n_q, n_k, d_k, d_v, want_w);
  if (want_w) FZ_CHECK(ws_bytes == 0, "workspace with weights is %zu, documented 0", ws_bytes);
  if (ws_null && ws_bytes > 0) fz_may(&e, ATTN_E_WORKSPACE);
  void *ws = ws_null ? NULL : fz_workspace(ws_bytes);
  float *out = fz_floats(nq_dv), *W = want_w ? fz_floats(nq_nk) : NULL;

  /* Finite results are promised when every input is finite (-inf allowed in
   * the additive mask) and no intermediate can overflow: each |score| and
   * dot product below 1e37, and n_k max|V| below 1e37 (the fused path sums
   * up to one unnormalised weight per key). */
  int sane = fz_all_finite(Q, nq_dk) && fz_all_finite(K, nk_dk) && fz_all_finite(V, nk_dv);
  if (add)
    for (size_t i = 0; i < nq_nk && sane; i++)
      if (!(isfinite(add[i]) || add[i] == -INFINITY)) sane = 0;
  if (sane && fz_scale_ok(scale)) {
    if ((double)n_k * fz_max_abs(V, nk_dv) > 1e37) sane = 0;
    for (int i = 0; i < n_q && sane; i++)
      for (int j = 0; j < n_k && sane; j++) {
        double abs_dot = 0;
        for (int p = 0; p < d_k; p++)
          abs_dot += fabs((double)Q[(size_t)i * d_k + p] * K[(size_t)j * d_k + p]);
        const double a = add && isfinite(add[(size_t)i * n_k + j]) ? add[(size_t)i * n_k + j] : 0;
        if (abs_dot > 1e37 || scale * abs_dot + fabs(a) > 1e37) sane = 0;
      }
  }
  double *want = NULL, *eo = NULL, *ww = NULL, *ew = NULL, *Qd = NULL, *Kd = NULL, *Vd = NULL;
  int *cond = NULL, *vis = NULL;
  if (sane && !e.set) {
    want = calloc(nq_dv, 8), eo = calloc(nq_dv, 8), ww = calloc(nq_nk, 8), ew = calloc(nq_nk, 8);
    Qd = calloc(nq_dk, 8), Kd = calloc(nk_dk, 8), Vd = calloc(nk_dv, 8);
    cond = calloc((size_t)n_q, sizeof(int)), vis = calloc((size_t)n_q, sizeof(int));
    if (!want || !eo || !ww || !ew || !Qd || !Kd || !Vd || !cond || !vis) abort();
    for (size_t i = 0; i < nq_dk; i++) Qd[i] = Q[i];
    for (size_t i = 0; i < nk_dk; i++) Kd[i] = K[i];
    for (size_t i = 0; i < nk_dv; i++) Vd[i] = V[i];
    const ref_attn_args a = {Qd, Kd, Vd, NULL, NULL, NULL, (size_t)d_k, (size_t)d_k,
                             (size_t)d_v, n_q, n_k, d_k, d_v, scale, 0, mk};
    ref_attention(want, eo, (size_t)d_v, ww, ew, vis, cond, &a);
  }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(out, nq_dv);
    if (W) fz_poison(W, nq_nk);
    int st;
    FZ_CALL(st, attn_attention(null == 1 ? NULL : out, W, null == 2 ? NULL : Q,
                               null == 3 ? NULL : K, null == 4 ? NULL : V, n_q, n_k,
                               d_k, d_v, scale, mk, ws));
    fz_check_status(&e, st, "attn_attention");
    FZ_CHECK(!memcmp(Q, Q0, nq_dk * 4) && !memcmp(K, K0, nk_dk * 4) && !memcmp(V, V0, nk_dv * 4),
             "attn_attention modified an input");
    if (st != ATTN_OK || !want) continue;
    fz_check_finite("out", out, nq_dv);
    if (W) {
      fz_check_finite("weights", W, nq_nk);
      fz_check_weight_rows(W, n_q, n_k, mk, vis);
    }
    for (int i = 0; i < n_q; i++) {
      if (!vis[i]) {
        for (int c = 0; c < d_v; c++)
          FZ_CHECK(out[(size_t)i * d_v + c] == 0.0f, "fully masked row %d: out %g", i,
                   (double)out[(size_t)i * d_v + c]);
        continue;
      }
      if (!cond[i]) continue;
      fz_compare("out", out + (size_t)i * d_v, want + (size_t)i * d_v, eo + (size_t)i * d_v,
                 (size_t)d_v);
      if (W)
        fz_compare("weights", W + (size_t)i * n_k, ww + (size_t)i * n_k, ew + (size_t)i * n_k,
                   (size_t)n_k);
    }
  }
  attn__set_simd(1);

  free(Q), free(K), free(V), free(Q0), free(K0), free(V0);
  fz_free_masks(&masks);
  free(ws), free(out), free(W), free(want), free(eo), free(ww), free(ew);
  free(Qd), free(Kd), free(Vd), free(cond), free(vis);
  return 0;
}

/* fuzz_mha.c: libFuzzer harness for attn_mha and attn_mha_workspace_size:
 * self and cross attention, optional biases, weights, Z and masks, on the
 * SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-3 which pointer is NULL (1 Y, 2 Xq, 3 Xkv, 4 params,
 *       5 Wq, 6 Wk, 7 Wv, 8 Wo, else none), bit 4 workspace NULL, bit 5
 *       weights wanted, bit 6 Z wanted, bit 7 extreme data
 *   [1] masks: bits 0-3, 5 and 6 as fuzz_common.h's fz_masks (causal, key
 *       padding, additive, none, window with global positions, a malformed
 *       value); bit 4 self-attention (one X passed as both Xq and Xkv,
 *       n_k = n_q)
 *   [2] biases: bits 0-3 bq, bk, bv, bo present
 *   [3..5] n_q, n_k, d_model   [6] heads (fz_heads: < 192 a divisor of
 *       d_model, < 240 any 1..48, else a bad value)
 *   then Xq, Xkv, Wq, Wk, Wv, Wo, biases, masks
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f), mflags = fz_u8(&f), bflags = fz_u8(&f);
  const int self = (mflags & 16) != 0;
  const int n_q = fz_size(&f), n_k_raw = fz_size(&f), d = fz_size(&f);
  const int n_k = self ? n_q : n_k_raw;
  const int H = fz_heads(&f, d);
  const int null = flags & 15, ws_null = flags & 16, want_w = (flags & 32) != 0,
            want_z = (flags & 64) != 0, extreme = (flags & 128) != 0;

  fz_expect e = {0};
  if (null >= 1 && null <= 8) fz_may(&e, ATTN_E_NULL);
  if (H <= 0 || (d > 0 && d % H != 0)) fz_may(&e, ATTN_E_HEADS);
  const int sizes[3] = {n_q, n_k, d};
  double largest = fmax(fmax(fz_bytes(n_q, d, 1), fz_bytes(n_k, d, 1)), fz_bytes(d, d, 1));
  if (want_w && H > 0) largest = fmax(largest, fz_bytes(H, n_q, n_k));
  const int cls = fz_classify_sizes(&e, sizes, 3, largest);
  if (cls < 0) return 0;
  if (d <= 0) fz_may(&e, ATTN_E_HEADS); /* no heads can divide d <= 0 */
  if (cls == 1 || (e.set & (1u << -ATTN_E_HEADS))) {
    /* rejected: dummies everywhere, nothing may be touched */
    FZ_CHECK(attn_mha_workspace_size(n_q, n_k, d, H, want_w) == 0,
             "mha workspace for a rejected call is %zu",
             attn_mha_workspace_size(n_q, n_k, d, H, want_w));
    const attn_mha_params P = {null == 5 ? NULL : fz_dummy[0], null == 6 ? NULL : fz_dummy[1],
                               null == 7 ? NULL : fz_dummy[2], null == 8 ? NULL : fz_dummy[3],
                               NULL, NULL, NULL, NULL};
    static _Alignas(16) unsigned char ws[64];
    static float Y[4], W[4], Z[4], X[4];
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_mha(null == 1 ? NULL : Y, want_w ? W : NULL, want_z ? Z : NULL,
                           null == 2 ? NULL : X, null == 3 ? NULL : X, n_q, n_k, d, H,
                           null == 4 ? NULL : &P, NULL, ws_null ? NULL : ws));
      fz_check_status(&e, st, "attn_mha");
    }
    return 0;
  }
  const int dh = d / H;
  if ((double)(n_q + 2.0 * n_k) * d * d + (double)n_q * d * d +
          2.0 * H * n_q * n_k * dh > 4e6)
    return 0; /* keep runs fast */

  const size_t dd = (size_t)d * d, nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d,
               hw = (size_t)H * n_q * n_k;
  float *Xq = fz_floats(nq_d), *Xkv = self ? Xq : fz_floats(nk_d);
  fz_fill(&f, Xq, nq_d, extreme);
  if (!self) fz_fill(&f, Xkv, nk_d, extreme);
  float *Wm[4], *bm[4];
  for (int i = 0; i < 4; i++) {
    Wm[i] = fz_floats(dd);
    fz_fill(&f, Wm[i], dd, extreme);
  }
  for (int i = 0; i < 4; i++) {
    bm[i] = (bflags >> i) & 1 ? fz_floats((size_t)d) : NULL;
    if (bm[i]) fz_fill(&f, bm[i], (size_t)d, extreme);
  }
  fz_masks_t masks;
  const attn_masks *mk = fz_masks(&f, &masks, mflags, n_q, n_k, extreme, &e);
  const float *add = masks.add;
  const attn_mha_params P = {null == 5 ? NULL : Wm[0], null == 6 ? NULL : Wm[1],
                             null == 7 ? NULL : Wm[2], null == 8 ? NULL : Wm[3],
                             bm[0], bm[1], bm[2], bm[3]};
  float *Xq0 = fz_floats(nq_d), *Xkv0 = fz_floats(nk_d);
  memcpy(Xq0, Xq, nq_d * 4), memcpy(Xkv0, Xkv, nk_d * 4);

  const size_t ws_bytes = attn_mha_workspace_size(n_q, n_k, d, H, want_w);
  if (ws_null && ws_bytes > 0) fz_may(&e, ATTN_E_WORKSPACE);
  void *ws = ws_null ? NULL : fz_workspace(ws_bytes);
  float *Y = fz_floats(nq_d), *W = want_w ? fz_floats(hw) : NULL, *Z = want_z ? fz_floats(nq_d) : NULL;

  /* With data within +-1e4 (the ordinary decoder) nothing can overflow for
   * these sizes (d <= 300: projections < 1e11, scores < 1e25, Y < 1e19). */
  int sane = fz_max_abs(Xq, nq_d) <= 1e4 && fz_max_abs(Xkv, nk_d) <= 1e4 &&
             fz_all_finite(Xq, nq_d) && fz_all_finite(Xkv, nk_d);
  for (int i = 0; i < 4; i++) {
    sane = sane && fz_all_finite(Wm[i], dd) && fz_max_abs(Wm[i], dd) <= 1e4;
    if (bm[i]) sane = sane && fz_all_finite(bm[i], (size_t)d) && fz_max_abs(bm[i], (size_t)d) <= 1e4;
  }
  if (add)
    for (size_t i = 0; i < (size_t)n_q * n_k && sane; i++)
      if (!(add[i] == -INFINITY || fabs(add[i]) <= 1e30)) sane = 0;

  double *Yd = NULL, *eY = NULL, *Zd = NULL, *eZ = NULL, *wd = NULL, *ewd = NULL;
  int *row_ok = NULL, *vis = NULL;
  if (sane && !e.set) {
    Zd = calloc(nq_d, 8), eZ = calloc(nq_d, 8), Yd = calloc(nq_d, 8), eY = calloc(nq_d, 8);
    wd = calloc(hw, 8), ewd = calloc(hw, 8);
    row_ok = calloc((size_t)n_q * H, sizeof(int)), vis = calloc((size_t)n_q * H, sizeof(int));
    if (!Zd || !eZ || !Yd || !eY || !wd || !ewd || !row_ok || !vis) abort();
    ref_mha(Yd, eY, Zd, eZ, wd, ewd, vis, row_ok, Xq, Xkv, n_q, n_k, d, H, &P, mk);
  }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(Y, nq_d);
    if (W) fz_poison(W, hw);
    if (Z) fz_poison(Z, nq_d);
    int st;
    FZ_CALL(st, attn_mha(null == 1 ? NULL : Y, W, Z, null == 2 ? NULL : Xq,
                         null == 3 ? NULL : Xkv, n_q, n_k, d, H, null == 4 ? NULL : &P, mk, ws));
    fz_check_status(&e, st, "attn_mha");
    FZ_CHECK(!memcmp(Xq, Xq0, nq_d * 4) && !memcmp(Xkv, Xkv0, nk_d * 4),
             "attn_mha modified an input");
    if (st != ATTN_OK || !Yd) continue;
    fz_check_finite("Y", Y, nq_d);
    if (Z) fz_check_finite("Z", Z, nq_d);
    if (W) {
      fz_check_finite("weights", W, hw);
      for (int h = 0; h < H; h++)
        fz_check_weight_rows(W + (size_t)h * n_q * n_k, n_q, n_k, mk, vis + (size_t)h * n_q);
    }
    for (int i = 0; i < n_q; i++) {
      int all_heads_ok = 1;
      for (int h = 0; h < H; h++) {
        if (!row_ok[(size_t)h * n_q + i]) {
          all_heads_ok = 0;
          continue;
        }
        const size_t zi = (size_t)i * d + (size_t)h * dh;
        if (Z) fz_compare("Z", Z + zi, Zd + zi, eZ + zi, (size_t)dh);
        if (W) {
          const size_t wi = ((size_t)h * n_q + i) * n_k;
          fz_compare("weights", W + wi, wd + wi, ewd + wi, (size_t)n_k);
        }
      }
      if (all_heads_ok)
        fz_compare("Y", Y + (size_t)i * d, Yd + (size_t)i * d, eY + (size_t)i * d, (size_t)d);
    }
  }
  attn__set_simd(1);

  free(Xq), free(Xq0), free(Xkv0);
  if (!self) free(Xkv);
  for (int i = 0; i < 4; i++) free(Wm[i]), free(bm[i]);
  fz_free_masks(&masks);
  free(ws), free(Y), free(W), free(Z);
  free(Yd), free(eY), free(Zd), free(eZ), free(wd), free(ewd), free(row_ok), free(vis);
  return 0;
}

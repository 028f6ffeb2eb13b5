/* fuzz_mha_backward.c: libFuzzer harness for attn_mha_backward and
 * attn_mha_backward_workspace_size: self and cross attention, dXkv apart or
 * summed into dXq, optional biases and bias gradients, both paths, masks, on
 * the SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-3 which pointer is NULL (1 dXq, 2 grads, 3 Xq, 4 Xkv,
 *       5 dY, 6 params, 7 Wo, 8 dWq, 9 dWo, else none), bit 4 workspace
 *       NULL, bit 5 use_weights, bit 6 dXkv NULL, bit 7 extreme data
 *   [1] masks: bits 0-3, 5 and 6 as fuzz_common.h's fz_masks (causal, key
 *       padding, additive, none, window with global positions, a malformed
 *       value); bit 4 self-attention (one X as both Xq and Xkv, n_k = n_q)
 *   [2] bits 0-3 biases bq, bk, bv, bo present; bits 4-7 their gradients
 *       dbq .. dbo wanted
 *   [3..5] n_q, n_k, d_model   [6] heads (fz_heads)
 *   then Xq, Xkv, dY, Wq, Wk, Wv, Wo, biases, masks
 * Checked: the status (dXkv NULL is an error unless self-attention); no
 * allocation; inputs unchanged; with data within +-128 (no gradient can
 * overflow for these sizes: d <= 300 keeps projections and dZ < 5e6, dP <
 * 1e16, dQ < 3e25, dW and dX < 1e31) finite gradients, and where every query
 * row of every head is well conditioned, each gradient within 4x the
 * error-model bound of ref_mha_backward.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const NAMES[10] = {"dWq", "dWk", "dWv", "dWo", "dbq", "dbk", "dbv", "dbo"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f), mflags = fz_u8(&f), bflags = fz_u8(&f);
  const int self = (mflags & 16) != 0;
  const int n_q = fz_size(&f), n_k_raw = fz_size(&f), d = fz_size(&f);
  const int n_k = self ? n_q : n_k_raw;
  const int H = fz_heads(&f, d);
  const int null = flags & 15, ws_null = flags & 16, use_w = (flags & 32) != 0,
            summed = (flags & 64) != 0, extreme = (flags & 128) != 0;

  fz_expect e = {0};
  if ((null >= 1 && null <= 9) || (summed && !self)) fz_may(&e, ATTN_E_NULL);
  if (H <= 0 || (d > 0 && d % H != 0)) fz_may(&e, ATTN_E_HEADS);
  const int sizes[3] = {n_q, n_k, d};
  double largest = fmax(fmax(fz_bytes(n_q, d, 1), fz_bytes(n_k, d, 1)), fz_bytes(d, d, 1));
  if (use_w) largest = fmax(largest, fz_bytes(n_q, n_k, 1));
  const int cls = fz_classify_sizes(&e, sizes, 3, largest);
  if (cls < 0) return 0;
  if (d <= 0) fz_may(&e, ATTN_E_HEADS);
  static float dW[4][4];
  attn_mha_grads G = {dW[0], dW[1], dW[2], dW[3], NULL, NULL, NULL, NULL};
  if (cls == 1 || (e.set & (1u << -ATTN_E_HEADS))) {
    FZ_CHECK(attn_mha_backward_workspace_size(n_q, n_k, d, H, use_w) == 0,
             "mha backward workspace for a rejected call is %zu",
             attn_mha_backward_workspace_size(n_q, n_k, d, H, use_w));
    if (null == 8) G.dWq = NULL;
    if (null == 9) G.dWo = NULL;
    const attn_mha_params P = {fz_dummy[0], fz_dummy[1], fz_dummy[2], null == 7 ? NULL : fz_dummy[3],
                               NULL, NULL, NULL, NULL};
    static _Alignas(16) unsigned char ws[64];
    static float X[4], dY[4], dX[2][4];
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_mha_backward(null == 1 ? NULL : dX[0], summed ? NULL : dX[1],
                                    null == 2 ? NULL : &G, null == 3 ? NULL : X,
                                    null == 4 ? NULL : (self ? X : dX[1]), null == 5 ? NULL : dY,
                                    n_q, n_k, d, H, null == 6 ? NULL : &P, NULL, use_w,
                                    ws_null ? NULL : ws));
      fz_check_status(&e, st, "attn_mha_backward");
    }
    return 0;
  }
  const int dh = d / H;
  if ((double)(n_q + 2.0 * n_k) * d * d * 3 + 4.0 * H * n_q * n_k * dh > 4e6)
    return 0; /* keep runs fast */

  const size_t dd = (size_t)d * d, nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d;
  float *Xq = fz_floats(nq_d), *Xkv = self ? Xq : fz_floats(nk_d), *dY = fz_floats(nq_d);
  fz_fill(&f, Xq, nq_d, extreme);
  if (!self) fz_fill(&f, Xkv, nk_d, extreme);
  fz_fill(&f, dY, nq_d, extreme);
  float *Wm[4], *bm[4];
  for (int i = 0; i < 4; i++) Wm[i] = fz_floats(dd), fz_fill(&f, Wm[i], dd, extreme);
  for (int i = 0; i < 4; i++) {
    bm[i] = (bflags >> i) & 1 ? fz_floats((size_t)d) : NULL;
    if (bm[i]) fz_fill(&f, bm[i], (size_t)d, extreme);
  }
  fz_masks_t masks;
  const attn_masks *mk = fz_masks(&f, &masks, mflags, n_q, n_k, extreme, &e);
  const float *add = masks.add;
  const attn_mha_params P = {Wm[0], Wm[1], Wm[2], null == 7 ? NULL : Wm[3],
                             bm[0], bm[1], bm[2], bm[3]};
  float *Xq0 = fz_floats(nq_d), *Xkv0 = fz_floats(nk_d), *dY0 = fz_floats(nq_d);
  memcpy(Xq0, Xq, nq_d * 4), memcpy(Xkv0, Xkv, nk_d * 4), memcpy(dY0, dY, nq_d * 4);

  const size_t ws_bytes = attn_mha_backward_workspace_size(n_q, n_k, d, H, use_w);
  FZ_CHECK(ws_bytes > 0, "mha backward workspace 0 for a valid call");
  if (ws_null) fz_may(&e, ATTN_E_WORKSPACE);
  void *ws = ws_null ? NULL : fz_workspace(ws_bytes);
  float *dXq = fz_floats(nq_d), *dXkv = fz_floats(nk_d), *gW[4], *gb[4];
  for (int t = 0; t < 4; t++) {
    gW[t] = fz_floats(dd);
    gb[t] = (bflags >> (4 + t)) & 1 ? fz_floats((size_t)d) : NULL;
  }
  const attn_mha_grads grads = {null == 8 ? NULL : gW[0], gW[1], gW[2], null == 9 ? NULL : gW[3],
                                gb[0], gb[1], gb[2], gb[3]};

  int sane = fz_max_abs(Xq, nq_d) <= 128 && fz_max_abs(Xkv, nk_d) <= 128 &&
             fz_max_abs(dY, nq_d) <= 128 && fz_all_finite(Xq, nq_d) &&
             fz_all_finite(Xkv, nk_d) && fz_all_finite(dY, nq_d);
  for (int i = 0; i < 4; i++) {
    sane = sane && fz_all_finite(Wm[i], dd) && fz_max_abs(Wm[i], dd) <= 128;
    if (bm[i]) sane = sane && fz_all_finite(bm[i], (size_t)d) && fz_max_abs(bm[i], (size_t)d) <= 128;
  }
  if (add)
    for (size_t i = 0; i < (size_t)n_q * n_k && sane; i++)
      if (!(add[i] == -INFINITY || fabs(add[i]) <= 1e30)) sane = 0;

  double *want[10] = {0}, *err[10] = {0}; /* dW[4], db[4], dXq, dXkv */
  int all_cond = 1;
  if (sane && !e.set) {
    const size_t hw = (size_t)H * n_q * n_k, nqh = (size_t)n_q * H;
    double *Yd = ref_dbuf(nq_d), *eY = ref_dbuf(nq_d), *Zd = ref_dbuf(nq_d), *eZ = ref_dbuf(nq_d),
           *wd = ref_dbuf(hw), *ewd = ref_dbuf(hw);
    int *cond = calloc(nqh, sizeof(int));
    if (!cond) abort();
    ref_mha(Yd, eY, Zd, eZ, wd, ewd, NULL, cond, Xq, Xkv, n_q, n_k, d, H, &P, mk);
    for (size_t i = 0; i < nqh; i++) all_cond &= cond[i];
    free(Yd), free(eY), free(Zd), free(eZ), free(wd), free(ewd), free(cond);
    for (int t = 0; t < 10; t++) {
      const size_t count = t < 4 ? dd : t < 8 ? (size_t)d : t == 8 ? nq_d : nk_d;
      want[t] = ref_dbuf(count), err[t] = ref_dbuf(count);
    }
    ref_mha_backward(want[8], err[8], summed ? NULL : want[9], err[9], want, err, want + 4,
                     err + 4, Xq, Xkv, dY, n_q, n_k, d, H, &P, mk, !use_w);
  }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(dXq, nq_d), fz_poison(dXkv, nk_d);
    for (int t = 0; t < 4; t++) {
      fz_poison(gW[t], dd);
      if (gb[t]) fz_poison(gb[t], (size_t)d);
    }
    int st;
    FZ_CALL(st, attn_mha_backward(null == 1 ? NULL : dXq, summed ? NULL : dXkv,
                                  null == 2 ? NULL : &grads, null == 3 ? NULL : Xq,
                                  null == 4 ? NULL : Xkv, null == 5 ? NULL : dY, n_q, n_k, d, H,
                                  null == 6 ? NULL : &P, mk, use_w, ws));
    fz_check_status(&e, st, "attn_mha_backward");
    FZ_CHECK(!memcmp(Xq, Xq0, nq_d * 4) && !memcmp(Xkv, Xkv0, nk_d * 4) && !memcmp(dY, dY0, nq_d * 4),
             "attn_mha_backward modified an input");
    if (st != ATTN_OK || !want[0]) continue;
    fz_check_finite("dXq", dXq, nq_d);
    if (!summed) fz_check_finite("dXkv", dXkv, nk_d);
    for (int t = 0; t < 4; t++) {
      fz_check_finite(NAMES[t], gW[t], dd);
      if (gb[t]) fz_check_finite(NAMES[4 + t], gb[t], (size_t)d);
    }
    if (!all_cond) continue;
    fz_compare("dXq", dXq, want[8], err[8], nq_d);
    if (!summed) fz_compare("dXkv", dXkv, want[9], err[9], nk_d);
    for (int t = 0; t < 4; t++) {
      fz_compare(NAMES[t], gW[t], want[t], err[t], dd);
      if (gb[t]) fz_compare(NAMES[4 + t], gb[t], want[4 + t], err[4 + t], (size_t)d);
    }
  }
  attn__set_simd(1);

  free(Xq), free(Xq0), free(Xkv0), free(dY), free(dY0), free(dXq), free(dXkv);
  if (!self) free(Xkv);
  for (int i = 0; i < 4; i++) free(Wm[i]), free(bm[i]), free(gW[i]), free(gb[i]);
  for (int t = 0; t < 10; t++) free(want[t]), free(err[t]);
  fz_free_masks(&masks);
  free(ws);
  return 0;
}

/* fuzz_matmul.c: libFuzzer harness for attn_matmul (plain and B^T), on the
 * SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-1 which pointer is NULL (1 C, 2 A, 3 B), bit 2
 *       transpose_b, bit 3 extreme data (+-FLT_MAX, +-1e30, inf, NaN)
 *   [1..3] m, k, n    then A and B data
 * Checked: the status; then, when no product sum can overflow, finite output
 * within 4x the error bound (k + 1) u sum_p |a_ip b_pj| of the float64 value;
 * inputs unchanged; no allocation.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  const int m = fz_size(&f), k = fz_size(&f), n = fz_size(&f);
  const int null = flags & 3, tb = (flags >> 2) & 1, extreme = (flags & 8) != 0;

  fz_expect e = {0};
  if (null) fz_may(&e, ATTN_E_NULL);
  const int sizes[3] = {m, k, n};
  const double largest = fmax(fz_bytes(m, k, 1), fmax(fz_bytes(k, n, 1), fz_bytes(m, n, 1)));
  const int cls = fz_classify_sizes(&e, sizes, 3, largest);
  if (cls < 0) return 0;
  if (cls == 1) {
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_matmul(null == 1 ? NULL : fz_dummy[0], null == 2 ? NULL : fz_dummy[1],
                              null == 3 ? NULL : fz_dummy[2], m, k, n, tb));
      fz_check_status(&e, st, "attn_matmul");
    }
    return 0;
  }
  if ((double)m * k * n > 4e6) return 0;

  const size_t mk = (size_t)m * k, kn = (size_t)k * n, mn = (size_t)m * n;
  float *A = fz_floats(mk), *B = fz_floats(kn), *C = fz_floats(mn);
  float *A0 = fz_floats(mk), *B0 = fz_floats(kn);
  fz_fill(&f, A, mk, extreme), fz_fill(&f, B, kn, extreme);
  memcpy(A0, A, mk * 4), memcpy(B0, B, kn * 4);

  double *want = calloc(mn ? mn : 1, 8), *err = calloc(mn ? mn : 1, 8);
  if (!want || !err) abort();
  int sane = fz_all_finite(A, mk) && fz_all_finite(B, kn);
  /* no product sum may exceed 1e37 (float32 would overflow on the way) */
  if (sane) sane = ref_matmul(want, err, A, B, m, k, n, tb) <= 1e37;

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    fz_poison(C, mn);
    int st;
    FZ_CALL(st, attn_matmul(null == 1 ? NULL : C, null == 2 ? NULL : A, null == 3 ? NULL : B,
                            m, k, n, tb));
    fz_check_status(&e, st, "attn_matmul");
    FZ_CHECK(!memcmp(A, A0, mk * 4) && !memcmp(B, B0, kn * 4), "attn_matmul modified an input");
    if (st != ATTN_OK || !sane) continue;
    fz_check_finite("C", C, mn);
    fz_compare("C", C, want, err, mn);
  }
  attn__set_simd(1);
  free(A), free(B), free(C), free(A0), free(B0), free(want), free(err);
  return 0;
}

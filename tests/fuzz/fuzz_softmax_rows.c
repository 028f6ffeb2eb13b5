/* fuzz_softmax_rows.c: libFuzzer harness for attn_softmax_rows, out of place
 * and in place, on the SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bits 0-1 which pointer is NULL (1 out, 2 in), bit 2 in place,
 *       bit 3 extreme data (+-FLT_MAX, +-1e30, inf, NaN)
 *   [1..2] rows, cols   [3] temperature
 *   then one byte per entry: < 48 is -inf (blocked), else a float
 * Checked: the status; with finite or -inf inputs the output is finite for
 * every valid temperature (the kernel divides x - max, which cannot overflow
 * to a NaN), blocked entries are exactly 0, rows sum to 1 or are all 0 when
 * fully blocked, and each weight is within 4x the error-model bound of the
 * float64 softmax; the input is unchanged (out of place); no allocation.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  const int rows = fz_size(&f), cols = fz_size(&f);
  const float T = fz_scale(&f, 0);
  const int null = flags & 3, in_place = (flags >> 2) & 1, extreme = (flags & 8) != 0;

  fz_expect e = {0};
  if (null == 1 || null == 2) fz_may(&e, ATTN_E_NULL);
  if (!fz_scale_ok(T)) fz_may(&e, ATTN_E_TEMP);
  const int sizes[2] = {rows, cols};
  const int cls = fz_classify_sizes(&e, sizes, 2, fz_bytes(rows, cols, 1));
  if (cls < 0) return 0;
  if (cls == 1) {
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      int st;
      FZ_CALL(st, attn_softmax_rows(null == 1 ? NULL : fz_dummy[0],
                                    null == 2 ? NULL : fz_dummy[1], rows, cols, T));
      fz_check_status(&e, st, "attn_softmax_rows");
    }
    return 0;
  }
  if ((double)rows * cols > 2e5) return 0;

  const size_t count = (size_t)rows * cols;
  float *in = fz_floats(count), *in0 = fz_floats(count), *out = fz_floats(count);
  for (size_t i = 0; i < count; i++) {
    const uint8_t b = fz_u8(&f);
    in0[i] = b < 48 ? -INFINITY : fz_float(&f, extreme);
  }
  int sane = 1;
  for (size_t i = 0; i < count; i++)
    if (!(isfinite(in0[i]) || in0[i] == -INFINITY)) sane = 0;

  /* reference: a_j = x_j / T with error 2u |(x_j - max) / T| */
  double *want = calloc(count, 8), *err = calloc(count, 8);
  int *vis = calloc((size_t)rows, sizeof(int));
  if (!want || !err || !vis) abort();
  if (sane && !e.set)
    for (int r = 0; r < rows; r++) {
      const float *x = in0 + (size_t)r * cols;
      double m = -INFINITY, S = 0, avg = 0;
      for (int j = 0; j < cols; j++)
        if (x[j] != -INFINITY) vis[r]++, m = fmax(m, (double)x[j] / T);
      if (!vis[r]) continue;
      for (int j = 0; j < cols; j++)
        if (x[j] != -INFINITY) S += exp((double)x[j] / T - m);
      for (int j = 0; j < cols; j++) {
        if (x[j] == -INFINITY) continue;
        const double a = (double)x[j] / T - m;
        want[(size_t)r * cols + j] = exp(a) / S;
        avg += want[(size_t)r * cols + j] * 2 * REF_U * fabs(a);
      }
      for (int j = 0; j < cols; j++) {
        if (x[j] == -INFINITY) continue;
        const double a = (double)x[j] / T - m;
        err[(size_t)r * cols + j] =
            (2 * REF_U * fabs(a) + avg + 2 * REF_E_EXP + (3.0 * vis[r] + 4) * REF_U) *
                want[(size_t)r * cols + j] + REF_FLOOR;
      }
    }

  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    memcpy(in, in0, count * 4);
    float *o = in_place ? in : out;
    if (!in_place) fz_poison(out, count);
    int st;
    FZ_CALL(st, attn_softmax_rows(null == 1 ? NULL : o, null == 2 ? NULL : in, rows, cols, T));
    fz_check_status(&e, st, "attn_softmax_rows");
    if (!in_place) FZ_CHECK(!memcmp(in, in0, count * 4), "attn_softmax_rows modified its input");
    if (st != ATTN_OK || !sane) continue;
    fz_check_finite("out", o, count);
    for (int r = 0; r < rows; r++) {
      double sum = 0;
      for (int j = 0; j < cols; j++) {
        const size_t i = (size_t)r * cols + j;
        if (in0[i] == -INFINITY) FZ_CHECK(o[i] == 0.0f, "blocked [%d][%d] = %g", r, j, (double)o[i]);
        FZ_CHECK(o[i] >= 0.0f && o[i] <= 1.0f, "weight [%d][%d] = %g", r, j, (double)o[i]);
        sum += o[i];
      }
      if (vis[r])
        FZ_CHECK(fabs(sum - 1) <= 2 * (vis[r] + 4) * REF_U, "row %d sums to 1%+g", r, sum - 1);
      else
        FZ_CHECK(sum == 0, "fully blocked row %d is not all zeros", r);
    }
    fz_compare("out", o, want, err, count);
  }
  attn__set_simd(1);
  free(in), free(in0), free(out), free(want), free(err), free(vis);
  return 0;
}

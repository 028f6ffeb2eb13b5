/* fuzz_positional_encoding.c: libFuzzer harness for attn_positional_encoding.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bit 0 out is NULL, bit 1 n from two more bytes (1..65535)
 *   [1] n (or [1..2])   then d
 * Checked: the status; values within [-1, 1] and within 4x the bound
 * 16 u |angle| + 4 u of sin/cos(p / 10000^(2i/d)) in float64 (the angle, a
 * float computation, loses precision as p grows); row 0 is exactly 0, 1, 0,
 * 1, ...; no allocation.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  int n;
  if (flags & 2) {
    n = (fz_u8(&f) << 8) | fz_u8(&f);
    if (n == 0) n = -1 - (int)fz_u8(&f); /* still a bad size now and then */
  } else {
    n = fz_size(&f);
  }
  const int d = fz_size(&f), null = flags & 1;

  fz_expect e = {0};
  if (null) fz_may(&e, ATTN_E_NULL);
  const int sizes[2] = {n, d};
  const int cls = fz_classify_sizes(&e, sizes, 2, fz_bytes(n, d, 1));
  if (cls < 0) return 0;
  if (cls == 1) {
    int st;
    FZ_CALL(st, attn_positional_encoding(null ? NULL : fz_dummy[0], n, d));
    fz_check_status(&e, st, "attn_positional_encoding");
    return 0;
  }
  if ((double)n * d > 1e5) return 0;
  const size_t count = (size_t)n * d;
  float *out = fz_floats(count);
  fz_poison(out, count);
  int st;
  FZ_CALL(st, attn_positional_encoding(null ? NULL : out, n, d));
  fz_check_status(&e, st, "attn_positional_encoding");
  if (st == ATTN_OK) {
    for (int c = 0; c < d; c++)
      FZ_CHECK(out[c] == (c % 2 ? 1.0f : 0.0f), "row 0 column %d = %g", c, (double)out[c]);
    /* spot-check a few rows in full: the first, the last, some in between */
    for (int k = 0; k < 6; k++) {
      const int p = k == 0 ? 0 : k == 1 ? n - 1 : (int)(fz_u8(&f) * (double)n / 256);
      for (int c = 0; c < d; c++) {
        double err;
        const double want = ref_posenc(p, c, d, &err);
        const double tol = 4 * err;
        const float got = out[(size_t)p * d + c];
        FZ_CHECK(got >= -1.0f && got <= 1.0f && fabs(got - want) <= tol,
                 "out[%d][%d] = %.9g, want %.9g (tol %.3g)", p, c, (double)got, want, tol);
      }
    }
  }
  free(out);
  return 0;
}

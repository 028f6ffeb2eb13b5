/* fuzz_first_nonfinite.c: libFuzzer harness for attn_first_nonfinite (the
 * scan the JS side runs over every input), on the SIMD and the scalar path.
 *
 * Input layout (see fuzz_common.h for the decoders):
 *   [0] flags: bit 0 allow -inf, bit 1 pass NULL with n = 0
 *   [1..2] n (little endian, modulo 1200: across several 64-float blocks)
 *   then one byte per element: < 24 a special value (NaN, +-inf, +-FLT_MAX,
 *   -0, subnormals), else a float as fz_float decodes it
 * Checked: the index equals that of the obvious loop; the buffer is exactly
 * n floats (reads past it are ASan reports); no allocation; input unchanged.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const float special[8] = {NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, -0.0f, 1e-45f};
  fz_t f = fz_init(data, size);
  const uint8_t flags = fz_u8(&f);
  const int allow = flags & 1;
  size_t n = (size_t)fz_u8(&f);
  n = (n | (size_t)fz_u8(&f) << 8) % 1200;
  if ((flags & 2) != 0) {
    for (int simd = 1; simd >= 0; simd--) {
      attn__set_simd(simd);
      size_t got;
      FZ_CALL(got, attn_first_nonfinite(NULL, 0, allow));
      FZ_CHECK(got == 0, "attn_first_nonfinite(NULL, 0) = %zu", got);
    }
    return 0;
  }
  float *x = fz_floats(n), *x0 = fz_floats(n);
  for (size_t i = 0; i < n; i++) {
    const uint8_t b = fz_u8(&f);
    x[i] = b < 24 ? special[b % 8] : fz_float(&f, 0);
  }
  memcpy(x0, x, n * 4);
  const size_t want = ref_first_nonfinite(x, n, allow);
  for (int simd = 1; simd >= 0; simd--) {
    attn__set_simd(simd);
    size_t got;
    FZ_CALL(got, attn_first_nonfinite(x, n, allow));
    FZ_CHECK(got == want, "attn_first_nonfinite (n %zu, allow -inf %d, %s) = %zu, want %zu", n,
             allow, simd ? "simd" : "scalar", got, want);
    FZ_CHECK(!memcmp(x, x0, n * 4), "attn_first_nonfinite modified its input");
  }
  attn__set_simd(1);
  free(x), free(x0);
  return 0;
}

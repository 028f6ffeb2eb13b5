/* test_posenc.c: src/posenc.c: the sinusoidal positional encoding. */
#include "harness.h"

/* ==== attn_positional_encoding =========================================== */

static void posenc_case(int n, int d) {
  begin("attn_positional_encoding n=%d d=%d", n, d);
  const size_t count = (size_t)n * d;
  float *out = fbuf(count);
  poison(out, count);
  const int st = attn_positional_encoding(out, n, d);
  expect_status(st, ATTN_OK, "attn_positional_encoding");
  if (st == ATTN_OK) {
    double *want = dbuf(count), *err = dbuf(count);
    for (int p = 0; p < n; p++)
      for (int c = 0; c < d; c++)
        want[(size_t)p * d + c] = ref_posenc(p, c, d, &err[(size_t)p * d + c]);
    compare("out", out, want, err, count, (size_t)d, 0);
    for (int c = 0; c < d; c++)
      CHECK(out[c] == (c % 2 ? 1.0f : 0.0f), "row 0 column %d = %g, want %d",
            c, (double)out[c], c % 2);
    free(want), free(err);
  }
  free(out);
  end();
}

static void test_posenc(void) {
  const int ds[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 64, 65, 512, 1024};
  for (int a = 0; a < N_SIZES; a++)
    for (int b = 0; b < 14; b++)
      if ((size_t)SIZES[a] * ds[b] <= 200000) posenc_case(SIZES[a], ds[b]);
  posenc_case(1000, 9);
  posenc_case(4097, 64);
  posenc_case(20000, 2);
}

const test_group TEST_GROUPS[] = {
    {"posenc", test_posenc, 0},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

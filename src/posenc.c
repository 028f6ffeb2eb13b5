/* posenc.c: the sinusoidal positional encoding of the original Transformer.
 *
 * Column 2i holds sin(p * f_i) and column 2i+1 holds cos(p * f_i), with
 * f_i = 10000^(-2i/d): each pair of columns is one frequency, from one turn
 * per 2*pi positions down to one per 10000 * 2*pi.
 *
 * Computed in double with the short series below instead of libm's pow,
 * sin and cos, which would triple the size of the .wasm a reader downloads;
 * optimized for size (ATTN_SMALL) too: its loops unrolled were a sixth of
 * the attention part's gzip bytes, for a table computed once per shape.
 * Series error is below 1e-15, far under float32's 6e-8.
 */
#include "internal.h"

static const double PI = 3.14159265358979323846;
static const double LN2 = 0.69314718055994530942;
static const double LN_10000 = 9.21034037197618273607;

/* e^x for x <= 0: add ln 2 until x is in (-0.5, 0], sum the Taylor series
 * there, then halve once per ln 2 added (exact in binary). */
ATTN_SMALL static double exp_nonpositive(double x) {
  int halvings = 0;
  for (; x <= -0.5; x += LN2) halvings++;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k <= 18; k++) sum += term *= x / k;
  for (; halvings > 0; halvings--) sum *= 0.5;
  return sum;
}

/* sin x: fold x into [-pi/2, pi/2], where the Taylor series is short. */
ATTN_SMALL static double sine(double x) {
  x -= 2.0 * PI * __builtin_floor(x / (2.0 * PI) + 0.5); /* [-pi, pi] */
  if (x > PI / 2) x = PI - x;
  if (x < -PI / 2) x = -PI - x;
  const double x2 = x * x;
  double term = x, sum = x;
  for (int k = 1; k <= 12; k++) sum += term *= -x2 / ((2 * k) * (2 * k + 1));
  return sum;
}

ATTN_SMALL int attn_positional_encoding(float *out, int n, int d) {
  if (!out) return ATTN_E_NULL;
  const int dims[1][2] = {{n, d}};
  const int status = attn__check_matrices(1, dims);
  if (status != ATTN_OK) return status;
  for (int c = 0; c < d; c++) {
    const double freq = exp_nonpositive(-LN_10000 * (double)(c - c % 2) / d);
    const double phase = c % 2 ? PI / 2 : 0.0; /* cos x = sin(x + pi/2) */
    for (int p = 0; p < n; p++) out[(size_t)p * d + c] = (float)sine(p * freq + phase);
  }
  return ATTN_OK;
}

/* posenc.c: the sinusoidal positional encoding of the original Transformer.
 * Even columns hold sin, odd columns cos, of position / 10000^(2i/d): each
 * pair of columns is one frequency, from one turn per 2*pi positions down to
 * one per 10000*2*pi. Computed in double so large positions keep their
 * precision. */
#include <math.h>

#include "internal.h"

int attn_positional_encoding(float *out, int n, int d) {
  if (!out) return ATTN_E_NULL;
  if (n <= 0 || d <= 0 || !attn__fits((uint64_t)n * d, 4)) return ATTN_E_SIZE;
  for (int c = 0; c < d; c++) {
    const double freq = pow(10000.0, -(double)(c - c % 2) / d);
    for (int p = 0; p < n; p++) {
      const double angle = p * freq;
      out[(size_t)p * d + c] = (float)(c % 2 ? cos(angle) : sin(angle));
    }
  }
  return ATTN_OK;
}

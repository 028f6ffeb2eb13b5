/* check.c: the one checker of the C contract (attention.h).
 *
 * Every exported entry checks its arguments before it touches any buffer, in
 * one order: its own NULL pointers (ATTN_E_NULL), then sizes (ATTN_E_SIZE,
 * ATTN_E_HEADS), the scale or temperature (ATTN_E_TEMP), the masks
 * (ATTN_E_MASK), the workspace (ATTN_E_WORKSPACE), and returns the first
 * status that is not ATTN_OK. The kinds of argument that several entries
 * share are checked here, once; the kernels behind an entry take checked
 * arguments and have no status of their own.
 *
 * Also attn_first_nonfinite, the NaN and infinity scan of the JS validation:
 * in wasm an order of magnitude faster than a JavaScript loop, and it runs
 * over every input of every call.
 */
#include <float.h>
#include <math.h>

#include "internal.h"
#include "simd.h"

/* ---- sizes ---------------------------------------------------------------- */

int attn__fits(uint64_t n, size_t elem) {
  /* Stay below half the address space: offsets are also used as int loops
   * bounds in places and wasm32 memory tops out at 4 GiB anyway. */
  return n <= (uint64_t)(SIZE_MAX / 2) / elem && n <= (uint64_t)INT32_MAX * 8;
}

uint64_t attn__mul(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

int attn__check_matrices(int count, const int dims[][2]) {
  for (int i = 0; i < count; i++)
    if (dims[i][0] <= 0 || dims[i][1] <= 0) return ATTN_E_SIZE;
  for (int i = 0; i < count; i++)
    if (!attn__fits((uint64_t)dims[i][0] * (uint64_t)dims[i][1], sizeof(float)))
      return ATTN_E_SIZE;
  return ATTN_OK;
}

int attn__check_scale(float scale) {
  return scale > 0.0f && !isinf(scale) ? ATTN_OK : ATTN_E_TEMP;
}

/* ---- masks ---------------------------------------------------------------- */

ATTN_SMALL ATTN_NOINLINE int attn__check_masks(const attn_masks *mk, int n_q, int n_k) {
  if (!mk) return ATTN_OK;
  if ((mk->causal != 0 && mk->causal != 1) || (mk->has_window != 0 && mk->has_window != 1) ||
      mk->first_query < 0)
    return ATTN_E_MASK;
  if (mk->key_padding)
    for (int j = 0; j < n_k; j++)
      if (mk->key_padding[j] > 1) return ATTN_E_MASK;
  if (mk->add) {
    /* An (n_q x n_k) mask that no buffer can hold is a size the call cannot have. */
    const uint64_t n = (uint64_t)n_q * (uint64_t)n_k;
    if (!attn__fits(n, sizeof(float))) return ATTN_E_SIZE;
    if (attn_first_nonfinite(mk->add, (size_t)n, 1) != n) return ATTN_E_MASK;
  }
  if (!mk->has_window) return ATTN_OK; /* window and global positions are not read */
  if (mk->window < 0 || mk->n_global < 0) return ATTN_E_MASK;
  if (mk->n_global > 0 && !mk->global) return ATTN_E_NULL;
  const int64_t last_q = (int64_t)mk->first_query + n_q, n = last_q > n_k ? last_q : n_k;
  for (int g = 0; g < mk->n_global; g++) {
    const int32_t p = mk->global[g];
    if (p < 0 || p >= n || (g > 0 && p <= mk->global[g - 1])) return ATTN_E_MASK;
  }
  return ATTN_OK;
}

/* ---- scaled dot-product attention ---------------------------------------- */

int attn__check_attention_sizes(int n_q, int n_k, int d_k, int d_v, int want_weights) {
  /* Q, K, V, out, and the weights when they are wanted */
  const int dims[5][2] = {{n_q, d_k}, {n_k, d_k}, {n_k, d_v}, {n_q, d_v},
                          {n_q, want_weights ? n_k : 1}};
  return attn__check_matrices(5, dims);
}

int attn__check_attention(int n_q, int n_k, int d_k, int d_v, int want_weights, float scale,
                          const attn_masks *mk) {
  int status = attn__check_attention_sizes(n_q, n_k, d_k, d_v, want_weights);
  if (status == ATTN_OK) status = attn__check_scale(scale);
  if (status == ATTN_OK) status = attn__check_masks(mk, n_q, n_k);
  return status;
}

/* ---- NaN and infinities -------------------------------------------------- */

/* 0 for a finite v; NaN for NaN or +-INFINITY (x * 0 is NaN exactly then).
 * With allow_minus_inf, -INFINITY is first raised to -FLT_MAX. */
static inline float poison(float v, int allow_minus_inf) {
  if (allow_minus_inf && v < -FLT_MAX) v = -FLT_MAX;
  return v * 0.0f;
}

size_t attn_first_nonfinite(const float *x, size_t n, int allow_minus_inf) {
  if (!x) return 0;
  size_t i = 0;
#if ATTN_HAVE_SIMD
  if (attn__use_simd()) {
    /* Sum poison over blocks of 256 in four chains (so the adds' latency
     * does not set the pace); a NaN sum sends the block to the scalar scan
     * below, which finds the exact index. */
    const vf4 zero = vf4_splat(0.0f), lowest = vf4_splat(-FLT_MAX);
    for (; i + 256 <= n; i += 256) {
      vf4 part[4] = {zero, zero, zero, zero};
      for (size_t j = i; j < i + 256; j += 16)
        for (int k = 0; k < 4; k++) {
          vf4 v = vf4_load(x + j + 4 * k);
          if (allow_minus_inf) v = vf4_max(v, lowest); /* NaN stays NaN */
          part[k] = vf4_add(part[k], vf4_mul(v, zero));
        }
      const vf4 sum = vf4_add(vf4_add(part[0], part[1]), vf4_add(part[2], part[3]));
      if (vf4_hsum(sum) != 0.0f) break;
    }
  }
#endif
  for (; i < n; i++)
    if (poison(x[i], allow_minus_inf) != 0.0f) return i;
  return n;
}

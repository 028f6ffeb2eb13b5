/* gemm.c: register-tiled matrix multiply, the engine under every kernel.
 *
 * C (m x n) = A (m x k) * B (k x n), computed in MR x NR tiles of C held in
 * registers. B is first copied into a packed panel (KC rows x NR columns,
 * zero-padded past n) so the micro-kernel always reads NR contiguous floats
 * per step, whatever B's layout (plain or transposed) and whatever n is.
 * A is read in place, one broadcast per row and step.
 */
#include "internal.h"
#include "simd.h"

enum {
  MR = 4,   /* rows of C per tile */
  NR = 8,   /* columns of C per tile: two vectors */
  KC = 256, /* depth of one packed panel: KC * NR floats = 8 KiB, stays in L1 */
};

/* dst (kc x NR) <- B[p0 .. p0+kc) x [j0 .. j0+nr), zero columns past nr. */
static void pack_panel(float *dst, const float *B, size_t ldb, int trans_b,
                       int p0, int kc, int j0, int nr) {
  if (trans_b) {
    /* B is n x k: column j of the panel is a contiguous run of row j0+j. */
    for (int j = 0; j < NR; j++) {
      const float *src = B + (size_t)(j0 + j) * ldb + p0;
      for (int p = 0; p < kc; p++) dst[p * NR + j] = j < nr ? src[p] : 0.0f;
    }
  } else {
    for (int p = 0; p < kc; p++) {
      const float *src = B + (size_t)(p0 + p) * ldb + j0;
      for (int j = 0; j < NR; j++) dst[p * NR + j] = j < nr ? src[j] : 0.0f;
    }
  }
}

/* Write an MR x NR tile (held in t) into C, only its mr x nr valid part. */
static void store_tile(float *C, size_t ldc, const float t[MR][NR], int mr,
                       int nr, int accumulate) {
  for (int i = 0; i < mr; i++) {
    float *c = C + (size_t)i * ldc;
    for (int j = 0; j < nr; j++) c[j] = accumulate ? c[j] + t[i][j] : t[i][j];
  }
}

/* Rows of A past mr repeat row 0: valid memory, results discarded. */
static void tile_rows(const float *a[MR], const float *A, size_t lda, int mr) {
  for (int i = 0; i < MR; i++) a[i] = A + (i < mr ? (size_t)i * lda : 0);
}

static void tile_scalar(float *C, size_t ldc, const float *A, size_t lda,
                        const float *panel, int kc, int mr, int nr,
                        int accumulate) {
  const float *a[MR];
  tile_rows(a, A, lda, mr);
  float t[MR][NR] = {{0}};
  for (int p = 0; p < kc; p++) {
    const float *b = panel + p * NR;
    for (int i = 0; i < MR; i++) {
      const float ai = a[i][p];
      for (int j = 0; j < NR; j++) t[i][j] += ai * b[j];
    }
  }
  store_tile(C, ldc, t, mr, nr, accumulate);
}

#if ATTN_HAVE_SIMD
static void tile_simd(float *C, size_t ldc, const float *A, size_t lda,
                      const float *panel, int kc, int mr, int nr,
                      int accumulate) {
  const float *a[MR];
  tile_rows(a, A, lda, mr);
  vf4 c00 = vf4_splat(0), c01 = c00, c10 = c00, c11 = c00;
  vf4 c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (int p = 0; p < kc; p++) {
    const vf4 b0 = vf4_load(panel + p * NR), b1 = vf4_load(panel + p * NR + 4);
    vf4 ai = vf4_splat(a[0][p]);
    c00 = vf4_add(c00, vf4_mul(ai, b0)), c01 = vf4_add(c01, vf4_mul(ai, b1));
    ai = vf4_splat(a[1][p]);
    c10 = vf4_add(c10, vf4_mul(ai, b0)), c11 = vf4_add(c11, vf4_mul(ai, b1));
    ai = vf4_splat(a[2][p]);
    c20 = vf4_add(c20, vf4_mul(ai, b0)), c21 = vf4_add(c21, vf4_mul(ai, b1));
    ai = vf4_splat(a[3][p]);
    c30 = vf4_add(c30, vf4_mul(ai, b0)), c31 = vf4_add(c31, vf4_mul(ai, b1));
  }
  if (mr == MR && nr == NR) {
    const vf4 acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
    for (int i = 0; i < MR; i++) {
      float *c = C + (size_t)i * ldc;
      vf4 lo = acc[i][0], hi = acc[i][1];
      if (accumulate) lo = vf4_add(lo, vf4_load(c)), hi = vf4_add(hi, vf4_load(c + 4));
      vf4_store(c, lo), vf4_store(c + 4, hi);
    }
    return;
  }
  float t[MR][NR];
  vf4_store(t[0], c00), vf4_store(t[0] + 4, c01), vf4_store(t[1], c10);
  vf4_store(t[1] + 4, c11), vf4_store(t[2], c20), vf4_store(t[2] + 4, c21);
  vf4_store(t[3], c30), vf4_store(t[3] + 4, c31);
  store_tile(C, ldc, (const float(*)[NR])t, mr, nr, accumulate);
}
#endif

void attn__gemm(float *C, size_t ldc, const float *A, size_t lda,
                const float *B, size_t ldb, int m, int k, int n, int trans_b,
                int accumulate) {
  _Alignas(16) float panel[KC * NR];
#if ATTN_HAVE_SIMD
  const int simd = attn__use_simd();
#endif
  for (int j0 = 0; j0 < n; j0 += NR) {
    const int nr = n - j0 < NR ? n - j0 : NR;
    for (int p0 = 0; p0 < k; p0 += KC) {
      const int kc = k - p0 < KC ? k - p0 : KC;
      const int acc = accumulate || p0 > 0;
      pack_panel(panel, B, ldb, trans_b, p0, kc, j0, nr);
      for (int i0 = 0; i0 < m; i0 += MR) {
        const int mr = m - i0 < MR ? m - i0 : MR;
        float *c = C + (size_t)i0 * ldc + j0;
        const float *a = A + (size_t)i0 * lda + p0;
#if ATTN_HAVE_SIMD
        if (simd) {
          tile_simd(c, ldc, a, lda, panel, kc, mr, nr, acc);
          continue;
        }
#endif
        tile_scalar(c, ldc, a, lda, panel, kc, mr, nr, acc);
      }
    }
  }
}

int attn_matmul(float *C, const float *A, const float *B, int m, int k, int n,
                int transpose_b) {
  if (!C || !A || !B) return ATTN_E_NULL;
  if (m <= 0 || k <= 0 || n <= 0) return ATTN_E_SIZE;
  if (!attn__fits((uint64_t)m * n, 4) || !attn__fits((uint64_t)m * k, 4) ||
      !attn__fits((uint64_t)k * n, 4))
    return ATTN_E_SIZE;
  attn__gemm(C, (size_t)n, A, (size_t)k, B, transpose_b ? (size_t)k : (size_t)n,
             m, k, n, transpose_b, 0);
  return ATTN_OK;
}

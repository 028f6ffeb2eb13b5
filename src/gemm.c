/* gemm.c: register-tiled matrix multiply, the engine under every kernel.
 *
 * C (m x n) = A (m x k) * B (k x n), computed in MR x NR tiles of C held in
 * registers. A block of B (KC rows x NC columns) is first copied into packed
 * panels of NR columns, zero-padded past n, so the micro-kernel always reads
 * NR contiguous floats per step whatever B's layout (plain or transposed).
 * Each MR-row strip of A is then swept across every panel of the block while
 * it is hot in L1; the block itself (128 KiB) stays in L2.
 */
#include "internal.h"
#include "simd.h"

/* Tile shapes, measured under V8.
 * SIMD: 2 x 16, eight vector accumulators. V8 keeps 15 xmm registers for
 * wasm; up to V8 12 (Node 20 and 22) it schedules each step's products ahead
 * of their adds, so larger tiles spill, and 2 x 16 spills least (~3% faster
 * in the fused kernel than 4 x 8). Newer V8 (Node 24, Chromium 156) keeps the
 * 12 accumulators of a 6 x 8 tile in registers, which with relaxed SIMD's
 * one-instruction multiply-add runs 5-10% faster; with plain SIMD's multiply
 * then add it spills there too. So the relaxed build carries both, and the
 * loader times them (attn_set_gemm_tiles). Scalar: 4 x 8 ran ~10% faster
 * than 2 x 16. */
enum {
#if ATTN_HAVE_SIMD
  MR = 2,   /* rows of C per tile */
  NR = 16,  /* columns of C per tile: NV vectors; also the panels' width */
#else
  MR = 4,
  NR = 8,
#endif
  NV = NR / 4,
  TALL_MR = 6, /* the tall tile: 6 rows ... */
  TALL_NV = 2, /* ... by 8 columns, half a panel */
  KC = 512, /* depth of a packed block */
  NC = 64,  /* width of a packed block: NC / NR panels */
};

/* The relaxed build has the tall tile (not its attention part alone, built
 * for size: ATTN_ONE_TILE), and so do native builds, where the tests check
 * it gives the very same bits (each element of C sums its products in the
 * same order in either shape). */
#if ATTN_HAVE_SIMD && !defined(ATTN_ONE_TILE) && (defined(__wasm_relaxed_simd__) || !defined(__wasm__))
#define ATTN_TALL_TILES 1
#else
#define ATTN_TALL_TILES 0
#endif
#if ATTN_TALL_TILES
static int tall_tiles = 0;

int attn_set_gemm_tiles(int which) {
  if (which != ATTN_TILES_2X16 && which != ATTN_TILES_6X8) return ATTN_E_CONFIG;
  tall_tiles = which == ATTN_TILES_6X8;
  return ATTN_OK;
}
#else
int attn_set_gemm_tiles(int which) { return which == ATTN_TILES_2X16 ? ATTN_OK : ATTN_E_CONFIG; }
#endif

#if ATTN_HAVE_SIMD
/* 4 x 4 block from 4 rows `ld` apart at src, stored transposed: row c of
 * dst (rows `ldd` apart) gets element c of each source row. */
static inline void transpose4(float *dst, size_t ldd, const float *src,
                              size_t ld) {
  const vf4 r0 = vf4_load(src), r1 = vf4_load(src + ld),
            r2 = vf4_load(src + 2 * ld), r3 = vf4_load(src + 3 * ld);
  const vf4 lo01 = vf4_zip_lo(r0, r1), hi01 = vf4_zip_hi(r0, r1),
            lo23 = vf4_zip_lo(r2, r3), hi23 = vf4_zip_hi(r2, r3);
  vf4_store(dst, vf4_cat_lo(lo01, lo23));
  vf4_store(dst + ldd, vf4_cat_hi(lo01, lo23));
  vf4_store(dst + 2 * ldd, vf4_cat_lo(hi01, hi23));
  vf4_store(dst + 3 * ldd, vf4_cat_hi(hi01, hi23));
}

/* The transposed case of pack_panel for a full panel: 4 x 4 blocks of B
 * (4 of its rows, 4 consecutive values each) become 4 rows of the panel,
 * transposed in registers; leaves the last k % 4 steps to the caller. */
static int pack_transposed_simd(float *dst, const float *B, size_t ldb, int k,
                                int j0) {
  int p = 0;
  for (; p + 4 <= k; p += 4)
    for (int j = 0; j < NR; j += 4)
      transpose4(dst + p * NR + j, NR, B + (size_t)(j0 + j) * ldb + p, ldb);
  return p;
}
#endif

/* dst (k x NR) <- columns [j0 .. j0+nr) of B (k x n), zero columns past nr. */
static void pack_panel(float *dst, const float *B, size_t ldb, int trans_b,
                       int k, int j0, int nr) {
  for (int j = nr; j < NR; j++)
    for (int p = 0; p < k; p++) dst[p * NR + j] = 0.0f;
#if ATTN_HAVE_SIMD
  if (trans_b && nr == NR && attn__use_simd()) {
    for (int p = pack_transposed_simd(dst, B, ldb, k, j0); p < k; p++)
      for (int j = 0; j < NR; j++) dst[p * NR + j] = B[(size_t)(j0 + j) * ldb + p];
    return;
  }
#endif
  if (trans_b) {
    /* B is n x k: column j of the panel is a contiguous run of row j0+j. */
    for (int j = 0; j < nr; j++) {
      const float *src = B + (size_t)(j0 + j) * ldb;
      for (int p = 0; p < k; p++) dst[p * NR + j] = src[p];
    }
  } else if (nr == NR) {
    /* A fixed-length copy: unrolled in place, where a copy of nr floats
     * would become a call to memcpy per row. */
    for (int p = 0; p < k; p++) {
      const float *src = B + (size_t)p * ldb + j0;
      for (int j = 0; j < NR; j++) dst[p * NR + j] = src[j];
    }
  } else {
    for (int p = 0; p < k; p++) {
      const float *src = B + (size_t)p * ldb + j0;
      for (int j = 0; j < nr; j++) dst[p * NR + j] = src[j];
    }
  }
}

uint64_t attn__packed_size(int k, int n) {
  return (uint64_t)k * (((uint64_t)n + NR - 1) / NR * NR);
}

void attn__pack_b(float *dst, const float *B, size_t ldb, int trans_b, int k,
                  int n) {
  for (int jp = 0; jp < n; jp += NR)
    pack_panel(dst + (size_t)jp * k, B, ldb, trans_b, k, jp,
               n - jp < NR ? n - jp : NR);
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
static inline void tile_rows(const float **a, const float *A, size_t lda, int mr, int rows) {
  for (int i = 0; i < rows; i++) a[i] = A + (i < mr ? (size_t)i * lda : 0);
}

static void tile_scalar(float *C, size_t ldc, const float *A, size_t lda,
                        const float *panel, int kc, int mr, int nr,
                        int accumulate) {
  const float *a[MR];
  tile_rows(a, A, lda, mr, MR);
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
/* The SIMD twin of tile_scalar, for a rows x 4 nv tile from the first 4 nv
 * columns at `panel` (a panel of NR columns, or its second half): the same
 * loops, with each row of the tile held as nv vectors. Inlined where rows
 * and nv are constants, so the compiler unrolls the loops and keeps all
 * rows x nv accumulators in registers. */
static inline __attribute__((always_inline)) void
tile_simd(float *C, size_t ldc, const float *A, size_t lda, const float *panel, int kc, int mr,
          int nr, int accumulate, const int rows, const int nv) {
  const float *a[TALL_MR];
  tile_rows(a, A, lda, mr, rows);
  vf4 t[TALL_MR][NV];
  for (int i = 0; i < rows; i++)
    for (int v = 0; v < nv; v++) t[i][v] = vf4_splat(0);
  /* b steps through the panel (rather than panel + p NR): clang-19 (the
   * relaxed build) then gives each of its loads a constant offset, which V8
   * folds into the load, and keeps the loop's counters in registers: 3-5%
   * on Zen 5. emcc's compiler (the SIMD build) emits the same loop either
   * way. */
  const float *b = panel;
  for (int p = 0; p < kc; p++, b += NR) {
    vf4 bv[NV];
    for (int v = 0; v < nv; v++) bv[v] = vf4_load(b + 4 * v);
    for (int i = 0; i < rows; i++) {
      const vf4 ai = vf4_load_splat(a[i] + p);
      for (int v = 0; v < nv; v++) t[i][v] = vf4_madd(ai, bv[v], t[i][v]);
    }
  }
  if (mr == rows && nr == 4 * nv) {
    for (int i = 0; i < rows; i++) {
      float *c = C + (size_t)i * ldc;
      for (int v = 0; v < nv; v++) {
        if (accumulate) t[i][v] = vf4_add(t[i][v], vf4_load(c + 4 * v));
        vf4_store(c + 4 * v, t[i][v]);
      }
    }
    return;
  }
  float part[TALL_MR][NR];
  for (int i = 0; i < rows; i++)
    for (int v = 0; v < nv; v++) vf4_store(part[i] + 4 * v, t[i][v]);
  store_tile(C, ldc, (const float(*)[NR])part, mr, nr, accumulate);
}

#if ATTN_TALL_TILES
/* As many of C's rows as make whole 6 x 8 tiles (two per panel), when n
 * is whole tiles too (so the tall tile has no edge case to compile: the
 * fused kernels' products are, but for a last short tile of keys); returns
 * the first row left over. */
static int rows_6x8(float *C, size_t ldc, const float *A, size_t lda, const float *packed, int m,
                    int k, int n, int accumulate) {
  enum { W = 4 * TALL_NV };
  int i0 = 0;
  if (n % W) return 0;
  for (; m - i0 >= TALL_MR; i0 += TALL_MR)
    for (int j = 0; j < n; j += W)
      tile_simd(C + (size_t)i0 * ldc + j, ldc, A + (size_t)i0 * lda, lda,
                packed + (size_t)(j / NR * NR) * k + j % NR, k, TALL_MR, W, accumulate, TALL_MR,
                TALL_NV);
  return i0;
}
#endif
#endif

void attn__gemm_packed(float *C, size_t ldc, const float *A, size_t lda,
                       const float *packed, int m, int k, int n,
                       int accumulate) {
  int i0 = 0;
#if ATTN_HAVE_SIMD
  const int simd = attn__use_simd();
#if ATTN_TALL_TILES
  if (simd && tall_tiles) i0 = rows_6x8(C, ldc, A, lda, packed, m, k, n, accumulate);
#endif
#endif
  for (; i0 < m; i0 += MR) {
    const int mr = m - i0 < MR ? m - i0 : MR;
    const float *a = A + (size_t)i0 * lda;
    for (int jp = 0; jp < n; jp += NR) {
      const int nr = n - jp < NR ? n - jp : NR;
      float *c = C + (size_t)i0 * ldc + jp;
      const float *panel = packed + (size_t)jp * k;
#if ATTN_HAVE_SIMD
      if (simd) {
        tile_simd(c, ldc, a, lda, panel, k, mr, nr, accumulate, MR, NV);
        continue;
      }
#endif
      tile_scalar(c, ldc, a, lda, panel, k, mr, nr, accumulate);
    }
  }
}

ATTN_NOINLINE void attn__gemm_packed_at(float *C, size_t ldc, const float *A, size_t lda,
                          const float *packed, int m, int k, int n,
                          int accumulate) {
  /* Four columns of A at a time, transposed into four rows (once, then
   * swept across every panel from L1 like a plain strip of A). */
  enum { W = 4 };
  _Alignas(16) float strip[W * KC];
  for (int i0 = 0; i0 < m; i0 += W) {
    const int mr = m - i0 < W ? m - i0 : W;
    int p = 0;
#if ATTN_HAVE_SIMD
    if (mr == W && attn__use_simd())
      for (; p + 4 <= k; p += 4)
        transpose4(strip + p, (size_t)k, A + (size_t)p * lda + i0, lda);
#endif
    for (; p < k; p++) {
      const float *a = A + (size_t)p * lda + i0;
      for (int i = 0; i < mr; i++) strip[i * k + p] = a[i];
    }
    attn__gemm_packed(C + (size_t)i0 * ldc, ldc, strip, (size_t)k, packed, mr,
                      k, n, accumulate);
  }
}

/* Both blocked products: B packed one KC x NC block at a time (on the
 * stack), then the plain or the A^T micro-kernel loop over it. */
static void gemm_blocked(float *C, size_t ldc, const float *A, size_t lda,
                         const float *B, size_t ldb, int m, int k, int n,
                         int trans_a, int trans_b, int accumulate) {
  _Alignas(16) float block[KC * NC]; /* B's block, packed */
  for (int j0 = 0; j0 < n; j0 += NC) {
    const int nc = n - j0 < NC ? n - j0 : NC;
    for (int p0 = 0; p0 < k; p0 += KC) {
      const int kc = k - p0 < KC ? k - p0 : KC;
      const float *b = trans_b ? B + (size_t)j0 * ldb + p0 : B + (size_t)p0 * ldb + j0;
      attn__pack_b(block, b, ldb, trans_b, kc, nc);
      if (trans_a)
        attn__gemm_packed_at(C + j0, ldc, A + (size_t)p0 * lda, lda, block, m,
                             kc, nc, accumulate || p0 > 0);
      else
        attn__gemm_packed(C + j0, ldc, A + p0, lda, block, m, kc, nc,
                          accumulate || p0 > 0);
    }
  }
}

void attn__gemm(float *C, size_t ldc, const float *A, size_t lda,
                const float *B, size_t ldb, int m, int k, int n, int trans_b,
                int accumulate) {
  gemm_blocked(C, ldc, A, lda, B, ldb, m, k, n, 0, trans_b, accumulate);
}

void attn__gemm_at(float *C, size_t ldc, const float *A, size_t lda,
                   const float *B, size_t ldb, int m, int k, int n,
                   int accumulate) {
  gemm_blocked(C, ldc, A, lda, B, ldb, m, k, n, 1, 0, accumulate);
}

/* y (OC) += x (IC) W (IC, OC; rows ldw apart), a row of W at a time. */
static void row_times(float *y, const float *x, const float *W, size_t ldw, int IC, int OC) {
  for (int i = 0; i < IC; i++) {
    const float xi = x[i], *w = W + (size_t)i * ldw;
    int o = 0;
#if ATTN_HAVE_SIMD
    if (attn__use_simd()) {
      const vf4 vx = vf4_splat(xi);
      for (; o + 4 <= OC; o += 4) vf4_store(y + o, vf4_add(vf4_load(y + o), vf4_mul(vx, vf4_load(w + o))));
    }
#endif
    for (; o < OC; o++) y[o] += xi * w[o];
  }
}

/* A few rows (a decoding step's beams, say) go a row at a time: the GEMM
 * would pack all of W for them, which costs as much as the product. */
enum { LINEAR_ROWS = 4 };

void attn__linear(float *Y, const float *X, const float *W, const float *b, int n,
                  int IC, int OC, int accumulate) {
  attn__linear_cols(Y, X, W, (size_t)OC, b, n, IC, OC, accumulate);
}

void attn__linear_cols(float *Y, const float *X, const float *W, size_t ldw, const float *b,
                       int n, int IC, int OC, int accumulate) {
  if (n <= LINEAR_ROWS) {
    for (int r = 0; r < n; r++) {
      float *y = Y + (size_t)r * OC;
      if (!accumulate)
        for (int o = 0; o < OC; o++) y[o] = 0.0f;
      row_times(y, X + (size_t)r * IC, W, ldw, IC, OC);
    }
  } else {
    attn__gemm(Y, (size_t)OC, X, (size_t)IC, W, ldw, n, IC, OC, 0, accumulate);
  }
  if (b)
    for (int r = 0; r < n; r++)
      for (int o = 0; o < OC; o++) Y[(size_t)r * OC + o] += b[o];
}

int attn_matmul(float *C, const float *A, const float *B, int m, int k, int n,
                int transpose_b) {
  if (!C || !A || !B) return ATTN_E_NULL;
  const int dims[3][2] = {{m, n}, {m, k}, {k, n}}; /* C, A, B */
  const int status = attn__check_matrices(3, dims);
  if (status != ATTN_OK) return status;
  attn__gemm(C, (size_t)n, A, (size_t)k, B, transpose_b ? (size_t)k : (size_t)n,
             m, k, n, transpose_b, 0);
  return ATTN_OK;
}

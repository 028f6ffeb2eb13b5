/* internal.h: shared pieces of the kernels; not part of the public API. */
#ifndef ATTN_INTERNAL_H
#define ATTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "attention.h"

/* Compile a function for size, not speed, and keep it out of its callers:
 * for code off the hot loops (set-up, masks' edge cases), which keeps the
 * .wasm files small. Only clang (emcc) has minsize; elsewhere it means
 * nothing. */
#if defined(__clang__)
#define ATTN_SMALL __attribute__((minsize, noinline))
#else
#define ATTN_SMALL
#endif

/* log2(e) in float: scores times it are base-2 logits, for exp2. */
#define ATTN_LOG2E 0x1.715476p+0f

/* 1 = run the SIMD kernels (default where compiled in), 0 = the scalar twins.
 * Exists so that native tests can check both paths in one binary. */
void attn__set_simd(int on);
int attn__use_simd(void);

/* 1 when n elements of `elem` bytes can be addressed in this build. */
int attn__fits(uint64_t n, size_t elem);

/* C (m x n, row stride ldc) = A (m x k, lda) * B, or += with accumulate.
 * B is (k x n, ldb), or with trans_b (n x k, ldb) and the product uses B^T.
 * Register-tiled; never reads outside the given rows and columns. */
void attn__gemm(float *C, size_t ldc, const float *A, size_t lda,
                const float *B, size_t ldb, int m, int k, int n, int trans_b,
                int accumulate);

/* B packed for attn__gemm_packed: panels of a few columns, each k deep and
 * contiguous, zero past n; attn__packed_size floats. Packing once lets one
 * B (a tile of keys, say) serve many products. */
uint64_t attn__packed_size(int k, int n);
void attn__pack_b(float *dst, const float *B, size_t ldb, int trans_b, int k,
                  int n);
/* attn__gemm with B already packed (k x n). */
void attn__gemm_packed(float *C, size_t ldc, const float *A, size_t lda,
                       const float *packed, int m, int k, int n,
                       int accumulate);

/* x[i] = exp((x[i] - shift) * scale) for i < n; returns the sum of the new
 * x. Entries equal to -INFINITY become 0. Needs shift finite, >= max(x), and
 * scale > 0. Taking the scale here saves softmax a pass over the scores. */
float attn__exp_shifted(float *x, int n, float shift, float scale);

/* x[i] = 2^((x[i] - shift) * scale), the same in base 2, for scores
 * already multiplied by log2(e) (the fused path folds that into Q). */
float attn__exp2_shifted(float *x, int n, float shift, float scale);

/* Maximum of x[0..n), -INFINITY for an all -INFINITY row. */
float attn__row_max(const float *x, int n);

/* attn__row_max for scores: a +INFINITY (a dot product of finite inputs
 * that overflowed) is first clamped to FLT_MAX in place. */
float attn__score_max(float *x, int n);

/* x[i] *= s for i < n. */
void attn__scale_row(float *x, int n, float s);

/* exp(x) and 2^x for x <= 0 with the polynomials the SIMD path uses. */
float attn__expf(float x);
float attn__exp2f(float x);

/* ATTN_OK, or the status of a window or global list that attn_masks does
 * not allow (ATTN_E_MASK; ATTN_E_NULL for a missing list). NULL is fine. */
int attn__check_masks(const attn_masks *mk, int n_q, int n_k);

/* 1 when the structural masks (causal, the window with its global
 * positions) hide every key j0 .. j1-1 from every query i0 .. i1-1, so that
 * a tile of scores need not be computed at all. O(log n_global). */
int attn__tile_hidden(const attn_masks *mk, int i0, int i1, int j0, int j1);

/* Masks the scores of query i for keys j0 .. j0+n-1 (of n_k): hidden keys
 * become -INFINITY, and the additive mask is added times add_scale. A NULL
 * mk changes nothing. */
void attn__mask_row(float *row, int n, int i, int j0, int n_k,
                    const attn_masks *mk, float add_scale);

/* Scaled dot-product attention on strided views (rows of Q, K, V and out
 * are `ld*` floats apart), so that heads can be columns of one matrix. */
int attn__attention_strided(float *out, size_t ldo, float *weights,
                            const float *Q, size_t ldq, const float *K,
                            size_t ldk, const float *V, size_t ldv, int n_q,
                            int n_k, int d_k, int d_v, float scale,
                            const attn_masks *masks, void *workspace);

#endif

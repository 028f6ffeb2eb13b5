/* internal.h: shared pieces of the kernels; not part of the public API. */
#ifndef ATTN_INTERNAL_H
#define ATTN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "attention.h"

/* log2(e) in float: scores times it are base-2 logits, for exp2. */
#define ATTN_LOG2E 0x1.715476p+0f
/* ln(2) in float: base-2 logits times it are natural ones again. */
#define ATTN_LN2 0x1.62e430p-1f

/* ATTN_NOINLINE: row kernels called from several places stay out of line
 * (a call per row costs nothing measurable; a copy per caller costs payload).
 * ATTN_SMALL: code that only sequences calls to the kernels (loops over
 * tiles, heads, projections) is optimized for size: its time is spent in
 * what it calls. Code off the hot loops (set-up, the masks' edge cases) is
 * both: ATTN_SMALL ATTN_NOINLINE. Only clang has minsize. */
#define ATTN_NOINLINE __attribute__((noinline))
#if defined(__clang__)
#define ATTN_SMALL __attribute__((minsize))
#else
#define ATTN_SMALL
#endif

/* 1 = run the SIMD kernels (default where compiled in), 0 = the scalar twins.
 * Exists so that native tests can check both paths in one binary. */
void attn__set_simd(int on);
int attn__use_simd(void);

/* ---- the checker (check.c): what every exported entry calls first ---- */

/* 1 when n elements of `elem` bytes can be addressed in this build: the one
 * overflow rule behind every size check. */
int attn__fits(uint64_t n, size_t elem);

/* a * b, or UINT64_MAX when that overflows (so it never fits): for counts
 * of three or more factors. */
uint64_t attn__mul(uint64_t a, uint64_t b);

/* ATTN_E_SIZE unless every matrix dims[i] = {rows, cols} of the list has
 * rows > 0, cols > 0 and rows x cols floats addressable; else ATTN_OK. */
int attn__check_matrices(int count, const int dims[][2]);

/* ATTN_E_TEMP unless scale (or a temperature) is > 0 and finite. */
int attn__check_scale(float scale);

/* ATTN_OK for NULL or well-formed masks of an (n_q x n_k) attention (sizes
 * already checked): causal and has_window 0 or 1, key padding bytes 0 or 1,
 * an additive mask without NaN or +INFINITY; with has_window, window >= 0
 * and global positions ascending, distinct and below max(n_q, n_k).
 * ATTN_E_MASK otherwise; ATTN_E_NULL for global NULL with n_global > 0;
 * ATTN_E_SIZE for an additive mask too large to exist. */
int attn__check_masks(const attn_masks *mk, int n_q, int n_k);

/* The sizes of scaled dot-product attention: Q (n_q x d_k), K (n_k x d_k),
 * V (n_k x d_v), out (n_q x d_v), and with want_weights the weights (n_q x
 * n_k). ATTN_OK or ATTN_E_SIZE. */
int attn__check_attention_sizes(int n_q, int n_k, int d_k, int d_v, int want_weights);

/* Those sizes, then the scale, then the masks: the checks every attention
 * entry (forward, log-sum-exp, backward; each head of multi-head attention)
 * shares. */
int attn__check_attention(int n_q, int n_k, int d_k, int d_v, int want_weights, float scale,
                          const attn_masks *mk);

/* ---- shared pieces (core.c, gemm.c) ---- */

/* splitmix64: the next 64 random bits of *state (every build, same bits). */
uint64_t attn__splitmix64(uint64_t *state);

/* C (m x n, row stride ldc) = A (m x k, lda) * B, or += with accumulate.
 * B is (k x n, ldb), or with trans_b (n x k, ldb) and the product uses B^T.
 * Register-tiled; never reads outside the given rows and columns. */
void attn__gemm(float *C, size_t ldc, const float *A, size_t lda,
                const float *B, size_t ldb, int m, int k, int n, int trans_b,
                int accumulate);

/* C (m x n, ldc) = A^T B, or += with accumulate: A is (k x m, lda), B is
 * (k x n, ldb). The weight gradients' product (X^T dY), on the same packed
 * micro-kernels: MR columns of A are gathered into a strip at a time. */
void attn__gemm_at(float *C, size_t ldc, const float *A, size_t lda,
                   const float *B, size_t ldb, int m, int k, int n,
                   int accumulate);

/* B packed for attn__gemm_packed: panels of a few columns, each k deep and
 * contiguous, zero past n; attn__packed_size floats. Packing once lets one
 * B (a tile of keys, say) serve many products. */
uint64_t attn__packed_size(int k, int n);
void attn__pack_b(float *dst, const float *B, size_t ldb, int trans_b, int k,
                  int n);
/* The one linear layer: Y (n x OC) = X (n x IC) W (IC x OC) + b, b (OC)
 * broadcast over rows or NULL; Y += X W + b with accumulate. Multi-head
 * attention's projections, the trainer's layers and the decoder's. */
void attn__linear(float *Y, const float *X, const float *W, const float *b, int n,
                  int IC, int OC, int accumulate);
/* The same with W's rows ldw floats apart (a block of columns of a wider
 * W: a block of heads' projections), every element of Y the bits of the
 * whole product's. */
void attn__linear_cols(float *Y, const float *X, const float *W, size_t ldw, const float *b,
                       int n, int IC, int OC, int accumulate);

/* attn__gemm with B already packed (k x n). */
void attn__gemm_packed(float *C, size_t ldc, const float *A, size_t lda,
                       const float *packed, int m, int k, int n,
                       int accumulate);
/* attn__gemm_at with B already packed (k x n); k <= 512 (one packed block
 * deep, the gathered strip's depth). */
void attn__gemm_packed_at(float *C, size_t ldc, const float *A, size_t lda,
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

/* The same for scores: a product that overflows becomes the largest float of
 * its sign, as a dot product's +INFINITY does in attn__score_max (read as
 * -INFINITY it would be a blocked key, and NaN against a mask's -INFINITY). */
void attn__scale_scores(float *x, int n, float s);

/* The softmax backward of one row, in place allowed (ds may be dp):
 * ds[j] = s p[j] (dp[j] - D) for p[j] > 0, and exactly 0 where p[j] <= 0
 * (a blocked entry passes nothing, even when its dp overflowed). */
void attn__softmax_grad_row(float *ds, const float *p, const float *dp, int n,
                            float D, float s);

/* sum_i a[i] b[i]. */
float attn__dot(const float *a, const float *b, int n);

/* exp(x) and 2^x for x <= 0 with the polynomials the SIMD path uses. */
float attn__expf(float x);
float attn__exp2f(float x);

/* 1 when the structural masks (causal, the window with its global
 * positions) hide every key j0 .. j1-1 from every query row i0 .. i1-1 (at
 * positions first_query + i), so that a tile of scores need not be computed
 * at all. O(log n_global). */
int attn__tile_hidden(const attn_masks *mk, int i0, int i1, int j0, int j1);

/* Masks the scores of query row i (at position first_query + i) for keys
 * j0 .. j0+n-1 (of n_k): hidden keys
 * become -INFINITY, and the additive mask is added times add_scale. A NULL
 * mk changes nothing. */
void attn__mask_row(float *row, int n, int i, int j0, int n_k,
                    const attn_masks *mk, float add_scale);

/* Scaled dot-product attention on strided views (rows of Q, K, V and out
 * are `ld*` floats apart), so that heads can be columns of one matrix.
 * Arguments checked by the caller (attn__check_attention); the fused path
 * (weights NULL) needs the workspace attn_attention_workspace_size asks for.
 * These kernels have no status: every way to fail is the entry's to find. */
void attn__attention_strided(float *out, size_t ldo, float *weights,
                             const float *Q, size_t ldq, const float *K,
                             size_t ldk, const float *V, size_t ldv, int n_q,
                             int n_k, int d_k, int d_v, float scale,
                             const attn_masks *masks, void *workspace);

/* The fused path of attn__attention_strided that also writes each query
 * row's log-sum-exp, lse (n_q, contiguous): log sum_j exp(s_ij) over the
 * scaled, masked scores, -INFINITY for a fully masked row. What the fused
 * backward needs to recompute the weights. Workspace as for the fused
 * forward: attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0). */
void attn__attention_lse_strided(float *out, size_t ldo, float *lse,
                                 const float *Q, size_t ldq, const float *K,
                                 size_t ldk, const float *V, size_t ldv,
                                 int n_q, int n_k, int d_k, int d_v,
                                 float scale, const attn_masks *masks,
                                 void *workspace);

/* attn_attention_backward on strided views, for heads that are column
 * blocks of wider matrices (multi-head attention, the trainer): rows of each
 * matrix are its `ld*` floats apart, and each gradient is written into the
 * same columns of its matrix as its input (dQ like Q, ...); nothing outside
 * them is touched.
 *   dQ (n_q x d_k, lddq)  dK (n_k x d_k, lddk)  dV (n_k x d_v, lddv): written
 *   Q (n_q x d_k, ldq)    K (n_k x d_k, ldk)    V (n_k x d_v, ldv)
 *   out (n_q x d_v, ldo)  the forward's output O
 *   dout (n_q x d_v, lddo) dLoss/dO
 *   weights (n_q x n_k, contiguous) the forward's weights, or NULL: then
 *   lse (n_q, contiguous) from attn__attention_lse_strided (fused path)
 *   workspace attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v)
 *            bytes, 16-byte aligned (the same for both paths) */
void attn__attention_backward_strided(
    float *dQ, size_t lddq, float *dK, size_t lddk, float *dV, size_t lddv,
    const float *Q, size_t ldq, const float *K, size_t ldk, const float *V,
    size_t ldv, const float *out, size_t ldo, const float *dout, size_t lddo,
    const float *weights, const float *lse, int n_q, int n_k, int d_k, int d_v,
    float scale, const attn_masks *masks, void *workspace);

/* ---- the GPT block (gpt_block.c) ---- */

/* erf(x) to within 4.2e-7, by the rational function the SIMD GELU uses. */
float attn__erff(float x);

/* out[i] = GELU(x[i]) = x[i] Phi(x[i]) (exact: erf, not tanh), n values. */
void attn__gelu_forward(float *out, const float *x, int n);

/* dx[i] = dout[i] GELU'(x[i]); dx overlaps neither x nor dout. */
void attn__gelu_backward(float *dx, const float *x, const float *dout, int n);

/* LayerNorm of each row of x (N, C), eps 1e-5, biased variance:
 * out (N, C) = (x - mean) rstd g + b; mean, rstd (N) kept for the backward. */
void attn__layernorm_forward(float *out, float *mean, float *rstd,
                             const float *x, const float *g, const float *b,
                             int N, int C);

/* Its backward, all accumulated (+=): dx (N, C), dg (C), db (C), given
 * dout (N, C) and the forward's x, g, mean, rstd. */
void attn__layernorm_backward(float *dx, float *dg, float *db,
                              const float *dout, const float *x, const float *g,
                              const float *mean, const float *rstd, int N, int C);

/* ---- the transformer's parameters (tf_params.c) ---- */

/* One layer's tensors in a block (parameters, gradients or AdamW's moments:
 * one layout); NULL for those the config leaves out. */
typedef struct {
  float *ln1g, *ln1b;       /* (C) each: LN1's gain and bias, with layer_norm */
  float *Wq, *Wk, *Wv, *Wo; /* (C, C) each */
  float *bq, *bk, *bv, *bo; /* (C) each */
  float *ln2g, *ln2b;       /* (C) each: LN2's, with layer_norm and mlp */
  float *W1, *b1;           /* (C, 4C), (4C): the MLP's first layer, with mlp */
  float *W2, *b2;           /* (4C, C), (C): its second */
} attn__tf_layer;

/* Every tensor of a block, pointers into it (llm.c's ParameterTensors). The
 * layers share one layout, so layer l is layer 0 moved l layer_stride
 * floats on (attn__tf_layer_at). */
typedef struct {
  float *tok, *pos;     /* (V, C), (context, C): token and position embeddings */
  float *lnfg, *lnfb;   /* (C) each: the final LayerNorm, with layer_norm */
  float *Wu, *bu;       /* (C, V), (V): the unembedding */
  attn__tf_layer layer0;
  size_t layer_stride;  /* floats from one layer's tensors to the next's */
  size_t count;         /* floats in the block */
} attn__tf_params;

/* ATTN_OK for a config the model can have (flags 0 or 1, sizes > 0, heads
 * dividing d_model, four blocks addressable); its status otherwise. */
int attn__tf_check_config(const attn_tf_config *cfg);

/* Points p at the tensors of `block` for cfg (checked), which holds
 * p->count floats. */
void attn__tf_point(attn__tf_params *p, float *block, const attn_tf_config *cfg);

/* Layer l's tensors. */
attn__tf_layer attn__tf_layer_at(const attn__tf_params *p, int l);

#endif

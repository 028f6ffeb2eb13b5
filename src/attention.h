/* attention.h: the whole public C interface of attention-wasm.
 *
 * Conventions (every function):
 *   - Matrices are row-major float32; shapes are passed explicitly.
 *   - Outputs come first, then `const` inputs, then sizes, then options.
 *   - The caller owns every buffer. Nothing here allocates, except
 *     attn_alloc/attn_free, which exist so that the JavaScript side can
 *     borrow wasm memory and the tests can count it.
 *   - Return value: ATTN_OK (0) or a negative attn_status naming what was
 *     wrong. No function aborts, prints or exits.
 *   - Output buffers must not alias input buffers (except attn_softmax_rows,
 *     which may work in place).
 */
#ifndef ATTENTION_H
#define ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum attn_status {
  ATTN_OK = 0,
  ATTN_E_NULL = -1,      /* a required pointer is NULL */
  ATTN_E_SIZE = -2,      /* a size is <= 0, or too large to index */
  ATTN_E_HEADS = -3,     /* heads <= 0 or heads does not divide d_model */
  ATTN_E_TEMP = -4,      /* temperature or scale is not finite and > 0 */
  ATTN_E_WORKSPACE = -5, /* workspace is NULL but the call needs one */
} attn_status;

/* Short English name of a status code ("ok", "null pointer", ...). */
const char *attn_status_name(int status);

/* 1 when this build runs the SIMD kernels, 0 for the scalar build. */
int attn_simd_enabled(void);

/* ---- memory (for the JS loader and for leak tests) ------------------- */

/* malloc/free that keep a running count of the bytes handed out. */
void *attn_alloc(size_t bytes);
void attn_free(void *ptr);
/* Bytes currently handed out by attn_alloc and not yet freed. */
size_t attn_memory_in_use(void);

/* Index of the first of the n floats at x that is NaN or +-INFINITY
 * (-INFINITY passes with allow_minus_inf, for additive masks); n if none.
 * A NULL x returns 0: nothing there can be trusted. */
size_t attn_first_nonfinite(const float *x, size_t n, int allow_minus_inf);

/* ---- building blocks ---------------------------------------------- */

/* C (m x n) = A (m x k) * B, where B is k x n, or, with transpose_b,
 * B is n x k and the product uses B^T. */
int attn_matmul(float *C, const float *A, const float *B, int m, int k, int n,
                int transpose_b);

/* out (rows x cols) = row-wise softmax(in / temperature), numerically
 * stable (the row maximum is subtracted first). -INFINITY entries get
 * weight 0; a row that is entirely -INFINITY becomes all zeros (not NaN).
 * out may equal in. */
int attn_softmax_rows(float *out, const float *in, int rows, int cols,
                      float temperature);

/* Gradient of attn_softmax_rows: with Y = softmax(X / T) row-wise and dY the
 * gradient of a loss with respect to Y, dX (rows x cols) =
 * Y * (dY - rowsum(Y * dY)) / T (divided, so any valid T works). Y (rows
 * x cols) is the forward's output;
 * an entry with Y <= 0 (blocked) gets exactly 0. dX may equal Y or dY. */
int attn_softmax_backward(float *dX, const float *Y, const float *dY, int rows,
                          int cols, float temperature);

/* out (n x d): sinusoidal positional encoding of "Attention Is All You
 * Need": out[p][2i] = sin(p / 10000^(2i/d)), out[p][2i+1] = cos(same). */
int attn_positional_encoding(float *out, int n, int d);

/* ---- scaled dot-product attention ---------------------------------- */

/* Masks shared by attention and multi-head attention. All optional. */
typedef struct attn_masks {
  const float *add;           /* (n_q x n_k) added to the scaled scores;
                                 -INFINITY blocks a key; NULL = none */
  const uint8_t *key_padding; /* (n_k) 1 = padding, ignored; NULL = none */
  int causal;                 /* 1: query i sees keys j <= i only */
} attn_masks;

/* Bytes of workspace attn_attention needs (0 when weights are requested:
 * then the weights buffer itself holds the scores). Without weights it grows
 * with d_k and d_v, never with n_k, and with n_q only up to 1024 queries
 * (392 KiB at d = 64). Returns 0 for sizes attn_attention would reject. */
size_t attn_attention_workspace_size(int n_q, int n_k, int d_k, int d_v,
                                     int want_weights);

/* out (n_q x d_v) = softmax(scale * Q K^T + masks) V
 *   weights  (n_q x n_k) the softmax, or NULL to skip it; without weights
 *            the fused path runs: key tiles with a running max and sum,
 *            memory O(tile), never the n_q x n_k matrix
 *   Q (n_q x d_k), K (n_k x d_k), V (n_k x d_v)
 *   scale    > 0 and finite (usually 1/sqrt(d_k))
 *   masks    NULL = no masks
 *   workspace attn_attention_workspace_size(...) bytes, 16-byte aligned,
 *            may be NULL when that size is 0
 * A query row whose every key is masked gets zero weights and a zero
 * output row. */
int attn_attention(float *out, float *weights, const float *Q, const float *K,
                   const float *V, int n_q, int n_k, int d_k, int d_v,
                   float scale, const attn_masks *masks, void *workspace);

/* The fused path of attn_attention (no weights) that also saves what its
 * backward needs: lse (n_q), each query row's log-sum-exp
 * log sum_j exp(scale q_i.k_j + mask_ij) over its visible keys, -INFINITY for
 * a fully masked row. Workspace: attn_attention_workspace_size(..., 0). */
int attn_attention_lse(float *out, float *lse, const float *Q, const float *K,
                       const float *V, int n_q, int n_k, int d_k, int d_v,
                       float scale, const attn_masks *masks, void *workspace);

/* Bytes of workspace attn_attention_backward needs (both paths): a few
 * 128 x 128 tiles and one float per query (about 290 KiB + 4 n_q bytes at
 * d = 64). Returns 0 for sizes attn_attention_backward would reject. */
size_t attn_attention_backward_workspace_size(int n_q, int n_k, int d_k,
                                              int d_v);

/* Gradients of out = softmax(scale Q K^T + masks) V, given dout = dLoss/dout:
 *   dQ (n_q x d_k), dK (n_k x d_k), dV (n_k x d_v)   written, not added to
 *   Q, K, V, scale, masks      exactly as given to the forward call
 *   out (n_q x d_v)            the forward's output
 *   dout (n_q x d_v)
 *   weights (n_q x n_k)        the forward's weights, or NULL for the fused
 *                              path, which recomputes them tile by tile from
 *   lse (n_q)                  attn_attention_lse's log-sum-exp (unused when
 *                              weights are given)
 *   workspace attn_attention_backward_workspace_size(...) bytes, 16-byte
 *            aligned
 * The additive mask is a constant (no gradient). A masked key passes no
 * gradient; a fully masked query row gets a zero dQ row. Memory beyond the
 * arguments is the workspace: O(n_q + tiles), never n_q x n_k. */
int attn_attention_backward(float *dQ, float *dK, float *dV, const float *Q,
                            const float *K, const float *V, const float *out,
                            const float *dout, const float *weights,
                            const float *lse, int n_q, int n_k, int d_k, int d_v,
                            float scale, const attn_masks *masks,
                            void *workspace);

/* ---- multi-head attention ----------------------------------------- */

/* Parameters of one multi-head attention layer (d = d_model). */
typedef struct attn_mha_params {
  const float *Wq, *Wk, *Wv, *Wo; /* (d x d) each, required */
  const float *bq, *bk, *bv, *bo; /* (d) each, NULL = zero bias */
} attn_mha_params;

size_t attn_mha_workspace_size(int n_q, int n_k, int d_model, int heads,
                               int want_weights);

/* Y (n_q x d) = Concat(Z_1..Z_h) Wo + bo, with
 *   Q = Xq Wq + bq, K = Xkv Wk + bk, V = Xkv Wv + bv (each n x d),
 *   Z_i = attention(Q_i, K_i, V_i), Q_i the i-th block of d/h columns,
 *   scale 1/sqrt(d/h).
 *   weights (heads x n_q x n_k) or NULL
 *   Z       (n_q x d) the concatenated per-head outputs, or NULL
 *   Xq (n_q x d), Xkv (n_k x d): pass the same pointer for self-attention
 *   workspace attn_mha_workspace_size(...) bytes, 16-byte aligned */
int attn_mha(float *Y, float *weights, float *Z, const float *Xq,
             const float *Xkv, int n_q, int n_k, int d_model, int heads,
             const attn_mha_params *params, const attn_masks *masks,
             void *workspace);

/* Gradients of one multi-head attention layer's parameters. */
typedef struct attn_mha_grads {
  float *dWq, *dWk, *dWv, *dWo; /* (d x d) each, required */
  float *dbq, *dbk, *dbv, *dbo; /* (d) each, NULL = not wanted */
} attn_mha_grads;

/* Bytes of workspace attn_mha_backward needs: 4 (n_q + n_k) d floats of
 * projections and their gradients, one head's weights (n_q x n_k, with
 * use_weights) or log-sum-exp (n_q), and one head's attention scratch. 0 for
 * sizes attn_mha_backward would reject. */
size_t attn_mha_backward_workspace_size(int n_q, int n_k, int d_model,
                                        int heads, int use_weights);

/* Gradients of attn_mha's Y given dY (n_q x d) = dLoss/dY, the forward run
 * again inside (same arguments as attn_mha):
 *   dXq (n_q x d)   gradient of Xq
 *   dXkv (n_k x d)  gradient of Xkv; or NULL for self-attention (Xkv == Xq,
 *                   n_k == n_q): then dXq gets the whole gradient of X
 *   grads           dWq .. dWo (d x d), dbq .. dbo (d) or NULL; bias
 *                   gradients do not depend on whether the forward had biases
 *   use_weights     1: each head's backward reads its stored weights (n_q x
 *                   n_k in the workspace); 0: the fused path (log-sum-exp)
 *   workspace       attn_mha_backward_workspace_size(...) bytes, 16-byte
 *                   aligned */
int attn_mha_backward(float *dXq, float *dXkv, const attn_mha_grads *grads,
                      const float *Xq, const float *Xkv, const float *dY,
                      int n_q, int n_k, int d_model, int heads,
                      const attn_mha_params *params, const attn_masks *masks,
                      int use_weights, void *workspace);

#ifdef __cplusplus
}
#endif
#endif

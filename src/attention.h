/* attention.h: the whole public C interface of attention-wasm.
 *
 * Conventions (every function):
 *   - Matrices are row-major float32; shapes are passed explicitly.
 *   - Outputs come first, then `const` inputs, then sizes, then options.
 *   - The caller owns every buffer. Nothing here allocates, except
 *     attn_alloc/attn_free, which exist so that the JavaScript side can
 *     borrow wasm memory and the tests can count it.
 *   - Return value: ATTN_OK (0) or a negative attn_status naming what was
 *     wrong; each function's comment lists the statuses it can return
 *     ("Statuses:"). Every argument is checked before any buffer is
 *     touched: the attention entries in the order NULL pointers, sizes (and
 *     heads), scale, masks, workspace; the transformer entries check the
 *     config first (train_step its optimizer settings before that). A call with
 *     several faults reports one of them. No function aborts, prints or
 *     exits, and a rejected call writes nothing.
 *   - Output buffers must not alias input buffers (except attn_softmax_rows,
 *     which may work in place).
 *
 * Two parts (src/sources.txt and src/exports.txt list them; the training
 * part calls into the attention part, never the reverse):
 *   - attention: everything here except what the next item names, including
 *     attn_softmax_backward (the softmax's own derivative, a few hundred
 *     bytes, which a figure's gradient panel shows). It builds alone:
 *     build/attention-only*.wasm, what a page that only shows attention loads.
 *   - training: attn_attention_backward, attn_mha_backward (and their
 *     *_workspace_size), every attn_tf_* function. build/attention*.wasm
 *     holds both parts.
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
  ATTN_E_MASK = -6,      /* a malformed mask (attn_masks): causal,
                            has_window or a key padding byte not 0 or 1,
                            NaN or +INFINITY in the additive mask, window
                            < 0, first_query < 0, global positions not
                            ascending, repeated or out of range */
  ATTN_E_TOKEN = -7,     /* a token id is < 0 or >= vocab */
  ATTN_E_CONFIG = -8,    /* a model flag (mlp, layer_norm) is not 0 or 1,
                            or a GEMM tile this build does not have */
  ATTN_E_OPTIM = -9,     /* an optimizer setting out of range (lr <= 0, beta >= 1, ...) */
} attn_status;

/* Short English name of a status code ("ok", "null pointer", ...). */
const char *attn_status_name(int status);

/* 0 for the scalar build; 1 when this build runs the SIMD kernels, 2 when
 * they are relaxed SIMD's (f32x4.relaxed_madd: the relaxed wasm build). */
int attn_simd_enabled(void);

enum { ATTN_TILES_2X16 = 0, ATTN_TILES_6X8 = 1 };
/* The register tile every matrix product uses: ATTN_TILES_2X16 (the
 * default, every SIMD build) or ATTN_TILES_6X8 (the full relaxed engine and
 * native builds). The results are the same bits either way; the speed is not: 6 x 8
 * is faster where the engine keeps its 12 accumulators in registers (newer
 * V8) and half as fast where it does not, so the loader times both.
 * Statuses: ATTN_E_CONFIG (a tile this build does not have). */
int attn_set_gemm_tiles(int which);

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

/* The layouts of the structs below that the JavaScript side writes: entry i
 * is a struct's size ("attn_masks") or a field's offset ("attn_masks.add
 * ptr": name, then kind i32, f32, ptr, size or a struct's name), in bytes.
 * attn_layout_name returns NULL and attn_layout_value -1 past the last
 * entry (and for i < 0). */
const char *attn_layout_name(int i);
int attn_layout_value(int i);

/* ---- building blocks ---------------------------------------------- */

/* C (m x n) = A (m x k) * B, where B is k x n, or, with transpose_b,
 * B is n x k and the product uses B^T.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE. */
int attn_matmul(float *C, const float *A, const float *B, int m, int k, int n,
                int transpose_b);

/* out (rows x cols) = row-wise softmax(in / temperature), numerically
 * stable (the row maximum is subtracted first). -INFINITY entries get
 * weight 0; a row that is entirely -INFINITY becomes all zeros (not NaN).
 * out may equal in.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP. */
int attn_softmax_rows(float *out, const float *in, int rows, int cols,
                      float temperature);

/* Gradient of attn_softmax_rows: with Y = softmax(X / T) row-wise and dY the
 * gradient of a loss with respect to Y, dX (rows x cols) =
 * Y * (dY - rowsum(Y * dY)) / T (divided, so any valid T works). Y (rows
 * x cols) is the forward's output;
 * an entry with Y <= 0 (blocked) gets exactly 0. dX may equal Y or dY.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP. */
int attn_softmax_backward(float *dX, const float *Y, const float *dY, int rows,
                          int cols, float temperature);

/* out (n x d): sinusoidal positional encoding of "Attention Is All You
 * Need": out[p][2i] = sin(p / 10000^(2i/d)), out[p][2i+1] = cos(same).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE. */
int attn_positional_encoding(float *out, int n, int d);

/* ---- scaled dot-product attention ---------------------------------- */

/* Masks shared by attention and multi-head attention. All optional; a key
 * is visible to a query only when every rule given allows it. A zeroed
 * struct masks nothing. Every call that takes masks checks all of them
 * first (ATTN_E_MASK, attn_status_name says what is allowed).
 *
 * The sliding window (Longformer's local attention) with global positions:
 * with has_window, query i sees key j when |i - j| <= window, or when i or j
 * is global (a global query sees every key, a global key is seen by every
 * query). Causal, padding and the additive mask still apply on top. The
 * fused path skips the key tiles outside the band, so its time grows like
 * n_q (2 window + 1) d instead of n_q n_k d; each global query row or key
 * costs one tile row or column of the full product. */
typedef struct attn_masks {
  const float *add;           /* (n_q x n_k) added to the scaled scores;
                                 -INFINITY blocks a key; NULL = none */
  const uint8_t *key_padding; /* (n_k) 1 = padding, ignored; 0 = kept;
                                 NULL = none */
  int causal;                 /* 1: query i sees keys j <= i only; 0: not */
  int has_window;             /* 1: the window below applies; 0: window,
                                 global and n_global are not read */
  int window;                 /* >= 0: keys at most this far from i */
  const int32_t *global;      /* (n_global) global positions, ascending and
                                 distinct, each < max(n_q, n_k); may be NULL
                                 when n_global = 0 */
  int n_global;               /* >= 0 */
  int first_query;            /* >= 0: the position of query row 0 (0 for a
                                 whole call). Causal, the window and global
                                 positions compare positions, so rows a .. b-1
                                 of a call, run alone with first_query = a
                                 and their rows of the additive mask, give the
                                 very bits of the whole call's rows (how a pool
                                 of workers splits a call); global positions
                                 are then < max(first_query + n_q, n_k) */
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
 * output row.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP, ATTN_E_MASK,
 * ATTN_E_WORKSPACE. */
int attn_attention(float *out, float *weights, const float *Q, const float *K,
                   const float *V, int n_q, int n_k, int d_k, int d_v,
                   float scale, const attn_masks *masks, void *workspace);

/* The fused path of attn_attention (no weights) that also saves what its
 * backward needs: lse (n_q), each query row's log-sum-exp
 * log sum_j exp(scale q_i.k_j + mask_ij) over its visible keys, -INFINITY for
 * a fully masked row. Workspace: attn_attention_workspace_size(..., 0).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP, ATTN_E_MASK,
 * ATTN_E_WORKSPACE. */
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
 * arguments is the workspace: O(n_q + tiles), never n_q x n_k.
 * Statuses: ATTN_E_NULL (also for weights and lse both NULL), ATTN_E_SIZE,
 * ATTN_E_TEMP, ATTN_E_MASK, ATTN_E_WORKSPACE. */
int attn_attention_backward(float *dQ, float *dK, float *dV, const float *Q,
                            const float *K, const float *V, const float *out,
                            const float *dout, const float *weights,
                            const float *lse, int n_q, int n_k, int d_k, int d_v,
                            float scale, const attn_masks *masks,
                            void *workspace);

/* Keys per tile of the backward (attn_attention_backward_dkv's j0 is a
 * multiple of it). */
enum { ATTN_BACKWARD_KEY_TILE = 128 };

/* The backward in pieces, for a pool of workers: this and
 * attn_attention_backward_dkv give the very bits of attn_attention_backward's
 * dQ, dK and dV (same arguments). dQ (n_q x d_k) alone; its rows are
 * independent: rows a .. b-1 of a call (their Q, out, dout, weights or lse
 * rows) with masks.first_query = a and their additive mask rows give the
 * whole call's rows of dQ.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP, ATTN_E_MASK, ATTN_E_WORKSPACE. */
int attn_attention_backward_dq(float *dQ, const float *Q, const float *K, const float *V,
                               const float *out, const float *dout, const float *weights,
                               const float *lse, int n_q, int n_k, int d_k, int d_v, float scale,
                               const attn_masks *masks, void *workspace);

/* dK, dV of keys j0 .. j1-1 alone ((j1 - j0) x d_k and x d_v), the bits of
 * attn_attention_backward's rows, j0 a multiple of ATTN_BACKWARD_KEY_TILE
 * (the key tiles the whole call walks: recomputed weights are shifted per
 * tile).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE (also j0, j1 not 0 <= j0 < j1 <= n_k,
 * or j0 not a multiple of the tile), ATTN_E_TEMP, ATTN_E_MASK,
 * ATTN_E_WORKSPACE. */
int attn_attention_backward_dkv(float *dK, float *dV, const float *Q, const float *K,
                                const float *V, const float *out, const float *dout,
                                const float *weights, const float *lse, int n_q, int n_k, int d_k,
                                int d_v, float scale, const attn_masks *masks, int j0, int j1,
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
 *   workspace attn_mha_workspace_size(...) bytes, 16-byte aligned
 * The masks are checked once, for every head.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_MASK,
 * ATTN_E_WORKSPACE. */
int attn_mha(float *Y, float *weights, float *Z, const float *Xq,
             const float *Xkv, int n_q, int n_k, int d_model, int heads,
             const attn_mha_params *params, const attn_masks *masks,
             void *workspace);

/* Z (n_q x (h1 - h0) dh, dh = d_model / heads) = the outputs of attn_mha's
 * heads h0 .. h1-1 side by side: the very bits of those columns of
 * attn_mha's Z (and, with weights ((h1 - h0) x n_q x n_k), of those heads'
 * weights), from those heads' columns of the projections. params: Wq, Wk,
 * Wv (d x d each) required, bq, bk, bv or NULL; Wo and bo are not read.
 * attn_mha is attn_mha_heads over every head, then Y = attn_project(Z, Wo,
 * bo): a pool of workers runs blocks of heads, then blocks of Y's rows.
 *   workspace attn_mha_heads_workspace_size(...) bytes, 16-byte aligned
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS (also h0, h1 not 0 <= h0
 * < h1 <= heads), ATTN_E_MASK, ATTN_E_WORKSPACE. */
int attn_mha_heads(float *Z, float *weights, const float *Xq, const float *Xkv, int n_q,
                   int n_k, int d_model, int heads, int h0, int h1,
                   const attn_mha_params *params, const attn_masks *masks, void *workspace);

/* Bytes of workspace attn_mha_heads needs: (n_q + 2 n_k) (h1 - h0) dh
 * floats of projections and one head's attention scratch; 0 for arguments
 * it would reject. */
size_t attn_mha_heads_workspace_size(int n_q, int n_k, int d_model, int heads, int h0, int h1,
                                     int want_weights);

/* Y (n x d_out) = X (n x d_in) W (d_in x d_out) + b (d_out, or NULL): a
 * projection as the engine's layers compute it (attn_mha's four). Rows are
 * independent: rows a .. b-1 alone give the whole call's bits for them, as
 * long as both calls have more than 4 rows (4 or fewer go a row at a time,
 * which rounds differently: the GEMM would pack all of W for them).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE. */
int attn_project(float *Y, const float *X, const float *W, const float *b, int n, int d_in,
                 int d_out);

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
 *                   aligned
 * Every argument is checked as attn_mha checks it, before anything runs.
 * Statuses: ATTN_E_NULL (also for dXkv NULL outside self-attention),
 * ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_MASK, ATTN_E_WORKSPACE. */
int attn_mha_backward(float *dXq, float *dXkv, const attn_mha_grads *grads,
                      const float *Xq, const float *Xkv, const float *dY,
                      int n_q, int n_k, int d_model, int heads,
                      const attn_mha_params *params, const attn_masks *masks,
                      int use_weights, void *workspace);
/* ---- linear attention (Performer FAVOR+) ----------------------------- */

/* omega (m x d): orthogonal random features for attn_linear_attention, the
 * same bits for a seed in every build (wasm SIMD, wasm scalar, native).
 * Rows come in blocks of d that are mutually orthogonal; each row has the
 * length of an independent N(0, I_d) vector, so each row alone is N(0, I_d)
 * (Performer's "positive orthogonal random features"). The numbers are
 * splitmix64 from state = seed, uniforms in (-1, 1) from its top 53 bits,
 * normals by Marsaglia's polar method with a series logarithm, Gram-Schmidt
 * in double: only integer ops and correctly rounded float ops, no libm.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE. */
int attn_random_features(float *omega, int m, int d, uint32_t seed);

/* Bytes of workspace attn_linear_attention needs: about m (3 d_k + d_v + 200)
 * floats, never more with n_q or n_k (450 KiB for m = 256, d = 64). 0 for
 * sizes it would reject. */
size_t attn_linear_attention_workspace_size(int n_q, int n_k, int d_k, int d_v, int m);

/* out (n_q x d_v) ~ softmax(scale Q K^T) V, estimated with m random features
 * in O((n_q + n_k) m (d_k + d_v)) time (FAVOR+). The estimator: for x in
 * R^d_k let x' = sqrt(scale) x and
 *     phi(x)_r = exp(w_r . x' - |x'|^2 / 2) / sqrt(m),   r = 1 .. m,
 * w_r the rows of omega. For w_r ~ N(0, I), E[phi(q) . phi(k)] =
 * exp(scale q.k), every term positive, so
 *     out_i = sum_j phi(q_i).phi(k_j) v_j / sum_j phi(q_i).phi(k_j)
 *           = phi(q_i)^T S / phi(q_i)^T z,  S = sum_j phi(k_j) v_j^T, z = sum_j phi(k_j).
 * With causal, query i sums keys j <= i only (prefix sums, in chunks of 64
 * queries and keys: memory stays the workspace's).
 * Stabilised so that no feature exceeds 1 and no sum underflows: each
 * feature r keeps M_r, the largest w_r.k' - |k'|^2/2 over the keys so far,
 * and a key's feature r is exp(w_r.k' - |k'|^2/2 - M_r) (S and z rescaled
 * by exp(M_old - M_new) when M_r grows, per chunk of 64 keys); a query's
 * feature r is exp(w_r.q' + M_r - c) (with causal, against the keys of its
 * own chunk, exp(w_r.q' + Mc_r - c), Mc_r their maximum), c the largest
 * over r, so each product
 * is the estimator's own times a factor of the query alone (c, |q'|^2/2,
 * 1/sqrt(m)), which cancels in the ratio. Without causal every sum
 * phi(q)^T z is then >= 1. With causal, a query whose sum still falls below
 * 2^-60 (its best features meet only later keys of its chunk) has its
 * features scaled by 2^60, up to twice, before the products (a factor the
 * ratio cancels); a sum still 0 gives a zero row.
 * Finite inputs give finite outputs while every |w_r . x'| and |x'|^2 stays
 * below ~1e37.
 *   Q (n_q x d_k), K (n_k x d_k), V (n_k x d_v), omega (m x d_k)
 *   scale  > 0 and finite (usually 1/sqrt(d_k))
 *   causal 1: query i sees keys j <= i; 0: every key
 *   workspace attn_linear_attention_workspace_size(...) bytes, 16-byte aligned
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_TEMP, ATTN_E_MASK (causal not
 * 0 or 1), ATTN_E_WORKSPACE. */
int attn_linear_attention(float *out, const float *Q, const float *K, const float *V,
                          const float *omega, int n_q, int n_k, int d_k, int d_v, int m,
                          float scale, int causal, void *workspace);

/* ---- tiny transformers, trained in place -------------------------- */

/* A causal decoder (DESIGN.md, "Tiny transformers"):
 *   x = tok[token] + pos[position];  per layer x += MHA(h) (causal, heads
 *   heads, scale 1/sqrt(d_model/heads)), h = x or LN1(x) with layer_norm,
 *   and with mlp x += GELU(h2 W1 + b1) W2 + b2 (hidden width 4 d_model, exact
 *   erf GELU), h2 = x or LN2(x);  logits = f Wu + bu, f = x or LNf(x);
 *   LayerNorm eps 1e-5;  loss = mean next-token cross-entropy.
 * A sequence of n_tokens tokens (2 <= n_tokens <= context + 1) feeds its
 * first T = n_tokens - 1 tokens in and predicts each next one. */
typedef struct attn_tf_config {
  int vocab;      /* token ids are 0 .. vocab - 1 */
  int context;    /* positions the model has (rows of pos) */
  int d_model;
  int heads;      /* divides d_model */
  int layers;     /* >= 0 (0: embeddings straight into the unembedding) */
  int mlp;        /* 1: each block adds a GELU MLP; 0: attention-only */
  int layer_norm; /* 1: pre-norm LayerNorms (LN1, LN2, LNf); 0: none.
                     Anything but 0 or 1 is ATTN_E_CONFIG. */
} attn_tf_config;

/* A model: its config and four blocks of attn_tf_param_count floats with
 * one layout (attn_tf_param_info), owned by the caller. */
typedef struct attn_tf_model {
  attn_tf_config cfg;
  float *params; /* every parameter */
  float *grads;  /* d loss / d params of the last attn_tf_gradients */
  float *m, *v;  /* AdamW's first and second moments */
  uint8_t *off;  /* (layers x heads) 1 = that head's output is switched off */
  int step;      /* AdamW steps taken (its bias corrections need the count) */
} attn_tf_model;

/* One tensor of the parameter block. */
typedef struct attn_tf_param {
  const char *name; /* "tok", "pos", "ln1.g", "ln1.b", "Wq", "Wk", "Wv",
                       "Wo", "bq", "bk", "bv", "bo", "ln2.g", "ln2.b", "W1",
                       "b1", "W2", "b2", "lnf.g", "lnf.b", "Wu", "bu" */
  int layer;        /* the layer of ln1.g .. b2; -1 for the others */
  int rows, cols;   /* a bias is 1 x cols */
  size_t offset;    /* in floats from the start of the block */
} attn_tf_param;

/* torch.optim.AdamW's settings (its defaults: 1e-3, 0.9, 0.999, 1e-8, 1e-2). */
typedef struct attn_adamw {
  float lr;           /* > 0 and finite */
  float beta1, beta2; /* in [0, 1) */
  float eps;          /* >= 0 and finite */
  float weight_decay; /* >= 0 and finite; applied to every parameter */
} attn_adamw;

/* Floats in each block for cfg; 0 for a config the model cannot have. */
size_t attn_tf_param_count(const attn_tf_config *cfg);

/* info = the index-th tensor of the block (0, 1, ... in block order: tok,
 * pos, then of each layer [ln1.g ln1.b] Wq Wk Wv Wo bq bk bv bo [ln2.g ln2.b]
 * [W1 b1 W2 b2], then [lnf.g lnf.b] Wu bu; the bracketed ones only with
 * layer_norm, with layer_norm and mlp, with mlp); ATTN_E_SIZE past the last.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_CONFIG. */
int attn_tf_param_info(attn_tf_param *info, const attn_tf_config *cfg, int index);

/* Sets model->params from seed (uniform: embeddings of standard deviation
 * 1, Wq..Wo and W1 1/sqrt(d_model), W2 1/sqrt(4 d_model), Wu 0.02, biases
 * 0; LayerNorm gains 1, biases 0), zeros grads, m, v and off,
 * and step = 0. The same seed gives the same parameters in every build.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_CONFIG. */
int attn_tf_init(attn_tf_model *model, uint32_t seed);

/* Bytes of workspace for `batch` sequences of n_tokens tokens (16-byte
 * aligned); 0 when the sizes are not ones the model can take. */
size_t attn_tf_workspace_size(const attn_tf_config *cfg, int batch, int n_tokens);

/* The forward pass of `batch` sequences, tokens (batch x n_tokens):
 *   loss     (1) the mean loss, or NULL
 *   losses   (batch x T) each prediction's loss, or NULL
 *   logits   (batch x T x vocab), or NULL
 *   weights  (layers x batch x heads x T x T) attention weights, or NULL
 * ATTN_E_TOKEN when a token is outside 0 .. vocab - 1.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_CONFIG,
 * ATTN_E_TOKEN, ATTN_E_WORKSPACE. */
int attn_tf_forward(float *loss, float *losses, float *logits, float *weights,
                    const attn_tf_model *model, const int32_t *tokens, int batch,
                    int n_tokens, void *workspace);

/* model->grads = d (mean loss) / d params, and loss (or NULL) the mean loss.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_CONFIG,
 * ATTN_E_TOKEN, ATTN_E_WORKSPACE. */
int attn_tf_gradients(float *loss, attn_tf_model *model, const int32_t *tokens,
                      int batch, int n_tokens, void *workspace);

/* One training step: attn_tf_gradients, then one AdamW step on every
 * parameter (model->step counts it). loss is the mean loss before the update.
 * A rejected call changes nothing (model->step included).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE (also when model->step is INT32_MAX),
 * ATTN_E_HEADS, ATTN_E_CONFIG, ATTN_E_TOKEN, ATTN_E_WORKSPACE, ATTN_E_OPTIM. */
int attn_tf_train_step(float *loss, attn_tf_model *model, const int32_t *tokens,
                       int batch, int n_tokens, const attn_adamw *opt,
                       void *workspace);

/* One AdamW step of every parameter from model->grads as they are (model->step
 * counted): attn_tf_train_step's update alone, for gradients a caller put
 * there (data-parallel training: the shares of a batch on several workers,
 * their gradients combined, the same update on every copy of the model).
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE (also when model->step is INT32_MAX),
 * ATTN_E_HEADS, ATTN_E_CONFIG, ATTN_E_OPTIM. */
int attn_tf_update(attn_tf_model *model, const attn_adamw *opt);

/* ---- generation with a KV cache (generate.c) ---- */

/* Bytes of the KV cache of n sequences, (n, layers, 2, context, d_model)
 * floats (at least 4); 0 when the config or n is not one it can have. */
size_t attn_tf_cache_size(const attn_tf_config *cfg, int n);

/* Bytes of attn_tf_decode's workspace for n sequences; 0 as above. */
size_t attn_tf_decode_workspace_size(const attn_tf_config *cfg, int n);

/* One step of decoding for n sequences that have rows 0 .. position - 1 of
 * their caches filled: feeds tokens (n), the token of each at `position`,
 * writes that position's keys and values into the cache, and the next-token
 * logits (n x vocab): what attn_tf_forward gives at that position of the
 * whole sequence, without recomputing the earlier positions.
 *   cache      attn_tf_cache_size(cfg, n) bytes
 *   workspace  attn_tf_decode_workspace_size(cfg, n) bytes, 16-byte aligned
 * ATTN_E_SIZE for position outside 0 .. context - 1, ATTN_E_TOKEN for a
 * token outside 0 .. vocab - 1.
 * Statuses: ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS, ATTN_E_CONFIG,
 * ATTN_E_TOKEN, ATTN_E_WORKSPACE. */
int attn_tf_decode(float *logits, float *cache, const attn_tf_model *model,
                   const int32_t *tokens, int n, int position, void *workspace);

#ifdef __cplusplus
}
#endif
#endif

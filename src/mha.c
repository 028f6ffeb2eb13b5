/* mha.c: multi-head attention, self or cross.
 *
 *   Q = Xq Wq + bq      K = Xkv Wk + bk      V = Xkv Wv + bv     (n x d each)
 *   Z_h = attention(Q_h, K_h, V_h)   Q_h = columns h*dh .. (h+1)*dh of Q
 *   Y = [Z_1 .. Z_H] Wo + bo
 * Heads are strided views into Q, K, V and write straight into their columns
 * of Z: no per-head copies. attn_mha is attn_mha_heads over every head, then
 * attn_project for Y: the two pieces a pool of workers splits (blocks of
 * heads, then blocks of Y's rows), each giving the bits of attn_mha's.
 */
#include <math.h>

#include "internal.h"

/* The sizes of a multi-head call: Xq (n_q x d), Xkv (n_k x d), the weights
 * (d x d), heads dividing d, the weights of every head (heads x n_q x n_k)
 * when wanted, and the workspace (Q, K, V, Z, then one head's attention). */
static int check_sizes(int n_q, int n_k, int d, int heads, int want_weights) {
  const int dims[3][2] = {{n_q, d}, {n_k, d}, {d, d}};
  const int status = attn__check_matrices(3, dims);
  if (status != ATTN_OK) return status;
  if (heads <= 0 || d % heads != 0) return ATTN_E_HEADS;
  if (want_weights && !attn__fits(attn__mul((uint64_t)heads * n_q, (uint64_t)n_k), 4))
    return ATTN_E_SIZE;
  const uint64_t attention_ws =
      attn_attention_workspace_size(n_q, n_k, d / heads, d / heads, want_weights);
  if (!want_weights && attention_ws == 0) return ATTN_E_SIZE;
  if (!attn__fits(2 * ((uint64_t)n_q + n_k) * d + attention_ws / 4, 4)) return ATTN_E_SIZE;
  return ATTN_OK;
}

size_t attn_mha_workspace_size(int n_q, int n_k, int d_model, int heads,
                               int want_weights) {
  if (check_sizes(n_q, n_k, d_model, heads, want_weights) != ATTN_OK) return 0;
  const int dh = d_model / heads;
  /* Q and Z: n_q x d; K and V: n_k x d; then the attention's own scratch. */
  return sizeof(float) * 2 * ((size_t)n_q + n_k) * d_model +
         attn_attention_workspace_size(n_q, n_k, dh, dh, want_weights);
}

/* Heads h0 .. h1-1 (cols = (h1 - h0) dh columns of Q, K, V and Z): their
 * columns of the projections into QKV (Q: n_q x cols, then K and V: n_k x
 * cols), then each head's attention (its scratch at `scratch`) into Z (rows
 * ldz apart) and weights ((h1 - h0) x n_q x n_k, or NULL). Arguments checked
 * by the caller. */
static void run_heads(float *Z, size_t ldz, float *weights, const float *Xq, const float *Xkv,
                      int n_q, int n_k, int d, int heads, int h0, int h1,
                      const attn_mha_params *P, const attn_masks *masks, float *QKV,
                      float *scratch) {
  const int dh = d / heads, cols = (h1 - h0) * dh;
  const size_t c0 = (size_t)h0 * dh;
  float *Q = QKV;                     /* (n_q x cols) */
  float *K = Q + (size_t)n_q * cols;  /* (n_k x cols) */
  float *V = K + (size_t)n_k * cols;  /* (n_k x cols) */
  const float scale = 1.0f / sqrtf((float)dh);
  attn__linear_cols(Q, Xq, P->Wq + c0, (size_t)d, P->bq ? P->bq + c0 : NULL, n_q, d, cols, 0);
  attn__linear_cols(K, Xkv, P->Wk + c0, (size_t)d, P->bk ? P->bk + c0 : NULL, n_k, d, cols, 0);
  attn__linear_cols(V, Xkv, P->Wv + c0, (size_t)d, P->bv ? P->bv + c0 : NULL, n_k, d, cols, 0);
  for (int h = 0; h < h1 - h0; h++) {
    const size_t col = (size_t)h * dh;
    float *w = weights ? weights + (size_t)h * n_q * n_k : NULL;
    attn__attention_strided(Z + col, ldz, w, Q + col, (size_t)cols, K + col, (size_t)cols,
                            V + col, (size_t)cols, n_q, n_k, dh, dh, scale, masks, scratch);
  }
}

int attn_mha(float *Y, float *weights, float *Z, const float *Xq,
             const float *Xkv, int n_q, int n_k, int d_model, int heads,
             const attn_mha_params *params, const attn_masks *masks,
             void *workspace) {
  if (!Y || !Xq || !Xkv || !params || !params->Wq || !params->Wk ||
      !params->Wv || !params->Wo)
    return ATTN_E_NULL;
  int status = check_sizes(n_q, n_k, d_model, heads, weights != NULL);
  if (status != ATTN_OK) return status;
  const int d = d_model, dh = d / heads;
  /* every head runs the same attention: its checks once, for all of them */
  status = attn__check_attention(n_q, n_k, dh, dh, weights != NULL, 1.0f / sqrtf((float)dh), masks);
  if (status != ATTN_OK) return status;
  if (!workspace) return ATTN_E_WORKSPACE;
  float *QKV = workspace;                         /* Q (n_q x d), K, V (n_k x d) */
  float *Zws = QKV + (size_t)(n_q + 2 * (size_t)n_k) * d; /* (n_q x d) when Z is not wanted */
  float *scratch = Zws + (size_t)n_q * d;         /* the attention's workspace */
  if (!Z) Z = Zws;
  /* attn_mha_heads over every head, then attn_project */
  run_heads(Z, (size_t)d, weights, Xq, Xkv, n_q, n_k, d, heads, 0, heads, params, masks, QKV,
            scratch);
  attn__linear(Y, Z, params->Wo, params->bo, n_q, d, d, 0);
  return ATTN_OK;
}

/* The sizes of an attn_mha_heads call: attn_mha's, and 0 <= h0 < h1 <= heads. */
static int check_heads(int n_q, int n_k, int d, int heads, int h0, int h1, int want_weights) {
  const int status = check_sizes(n_q, n_k, d, heads, want_weights);
  if (status != ATTN_OK) return status;
  return h0 >= 0 && h0 < h1 && h1 <= heads ? ATTN_OK : ATTN_E_HEADS;
}

size_t attn_mha_heads_workspace_size(int n_q, int n_k, int d_model, int heads, int h0, int h1,
                                     int want_weights) {
  if (check_heads(n_q, n_k, d_model, heads, h0, h1, want_weights) != ATTN_OK) return 0;
  const int dh = d_model / heads;
  /* Q: n_q x cols, K and V: n_k x cols; then the attention's own scratch. */
  return sizeof(float) * ((size_t)n_q + 2 * (size_t)n_k) * (size_t)(h1 - h0) * dh +
         attn_attention_workspace_size(n_q, n_k, dh, dh, want_weights);
}

int attn_mha_heads(float *Z, float *weights, const float *Xq, const float *Xkv, int n_q,
                   int n_k, int d_model, int heads, int h0, int h1,
                   const attn_mha_params *params, const attn_masks *masks, void *workspace) {
  if (!Z || !Xq || !Xkv || !params || !params->Wq || !params->Wk || !params->Wv)
    return ATTN_E_NULL;
  int status = check_heads(n_q, n_k, d_model, heads, h0, h1, weights != NULL);
  if (status != ATTN_OK) return status;
  const int dh = d_model / heads, cols = (h1 - h0) * dh;
  status = attn__check_attention(n_q, n_k, dh, dh, weights != NULL, 1.0f / sqrtf((float)dh), masks);
  if (status != ATTN_OK) return status;
  if (!workspace) return ATTN_E_WORKSPACE;
  float *QKV = workspace;
  run_heads(Z, (size_t)cols, weights, Xq, Xkv, n_q, n_k, d_model, heads, h0, h1, params, masks,
            QKV, QKV + ((size_t)n_q + 2 * (size_t)n_k) * cols);
  return ATTN_OK;
}

int attn_project(float *Y, const float *X, const float *W, const float *b, int n, int d_in,
                 int d_out) {
  if (!Y || !X || !W) return ATTN_E_NULL;
  const int dims[3][2] = {{n, d_in}, {d_in, d_out}, {n, d_out}};
  const int status = attn__check_matrices(3, dims);
  if (status != ATTN_OK) return status;
  attn__linear(Y, X, W, b, n, d_in, d_out, 0);
  return ATTN_OK;
}

/* mha.c: multi-head attention, self or cross.
 *
 *   Q = Xq Wq + bq      K = Xkv Wk + bk      V = Xkv Wv + bv     (n x d each)
 *   Z_h = attention(Q_h, K_h, V_h)   Q_h = columns h*dh .. (h+1)*dh of Q
 *   Y = [Z_1 .. Z_H] Wo + bo
 * Heads are strided views into Q, K, V and write straight into their columns
 * of Z: no per-head copies.
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
  const float scale = 1.0f / sqrtf((float)dh);
  /* every head runs the same attention: its checks once, for all of them */
  status = attn__check_attention(n_q, n_k, dh, dh, weights != NULL, scale, masks);
  if (status != ATTN_OK) return status;
  if (!workspace) return ATTN_E_WORKSPACE;
  float *Q = workspace;                  /* (n_q x d) */
  float *K = Q + (size_t)n_q * d;        /* (n_k x d) */
  float *V = K + (size_t)n_k * d;        /* (n_k x d) */
  float *Zws = V + (size_t)n_k * d;      /* (n_q x d) when Z is not wanted */
  float *scratch = Zws + (size_t)n_q * d; /* the attention's workspace */
  if (!Z) Z = Zws;
  attn__linear(Q, Xq, params->Wq, params->bq, n_q, d, d, 0);
  attn__linear(K, Xkv, params->Wk, params->bk, n_k, d, d, 0);
  attn__linear(V, Xkv, params->Wv, params->bv, n_k, d, d, 0);
  for (int h = 0; h < heads; h++) {
    const size_t col = (size_t)h * dh;
    float *w = weights ? weights + (size_t)h * n_q * n_k : NULL;
    attn__attention_strided(Z + col, (size_t)d, w, Q + col, (size_t)d, K + col,
                            (size_t)d, V + col, (size_t)d, n_q, n_k, dh, dh,
                            scale, masks, scratch);
  }
  attn__linear(Y, Z, params->Wo, params->bo, n_q, d, d, 0);
  return ATTN_OK;
}

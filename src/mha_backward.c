/* mha_backward.c: gradients of multi-head attention (mha.c).
 *
 * In the forward pass this was:
 *   Q = Xq Wq + bq     K = Xkv Wk + bk     V = Xkv Wv + bv     (n x d each)
 *   Z_h = attention(Q_h, K_h, V_h)         Y = Z Wo + bo
 * so now, given dY:
 *   dZ = dY Wo^T       dWo = Z^T dY        dbo = the column sums of dY
 *   dQ_h, dK_h, dV_h   the attention backward of head h, on the same strided
 *                      column views as the forward (backward.c)
 *   dWq = Xq^T dQ      dWk = Xkv^T dK      dWv = Xkv^T dV      (db: sums)
 *   dXq = dQ Wq^T      dXkv = dK Wk^T + dV Wv^T (self-attention: one sum)
 * The forward is run again here (projections, then each head with its
 * weights or its log-sum-exp), so the call needs only what the forward did.
 */
#include <math.h>

#include "internal.h"

static uint64_t round4(uint64_t n) { return (n + 3) / 4 * 4; }

/* Floats the attention of one head needs: the forward's workspace (fused
 * path only) and the backward's share one buffer. 0 for invalid sizes. */
static uint64_t head_scratch_floats(int n_q, int n_k, int dh, int use_weights) {
  const uint64_t fwd = attn_attention_workspace_size(n_q, n_k, dh, dh, use_weights) / 4;
  const uint64_t bwd = attn_attention_backward_workspace_size(n_q, n_k, dh, dh) / 4;
  if (bwd == 0 || (!use_weights && fwd == 0)) return 0;
  return fwd > bwd ? fwd : bwd;
}

/* What one head keeps from its forward for its backward. */
static uint64_t saved_floats(int n_q, int n_k, int use_weights) {
  return round4(use_weights ? (uint64_t)n_q * n_k : (uint64_t)n_q);
}

/* The sizes of a multi-head backward call: as the forward's (Xq, Xkv, the
 * weights, heads dividing d, one head's weights with use_weights), and the
 * workspace. */
ATTN_SMALL static int check_sizes(int n_q, int n_k, int d, int heads, int use_weights) {
  const int dims[3][2] = {{n_q, d}, {n_k, d}, {d, d}};
  const int status = attn__check_matrices(3, dims);
  if (status != ATTN_OK) return status;
  if (heads <= 0 || d % heads != 0) return ATTN_E_HEADS;
  if (use_weights && !attn__fits((uint64_t)n_q * n_k, 4)) return ATTN_E_SIZE;
  const uint64_t head = head_scratch_floats(n_q, n_k, d / heads, use_weights);
  if (head == 0) return ATTN_E_SIZE;
  /* Q, Z, dZ, dQ (n_q x d); K, V, dK, dV (n_k x d); then one head's. */
  const uint64_t total = round4(4 * ((uint64_t)n_q + n_k) * d) +
                         saved_floats(n_q, n_k, use_weights) + head;
  return attn__fits(total, 4) ? ATTN_OK : ATTN_E_SIZE;
}

ATTN_SMALL size_t attn_mha_backward_workspace_size(int n_q, int n_k, int d_model,
                                        int heads, int use_weights) {
  if (check_sizes(n_q, n_k, d_model, heads, use_weights) != ATTN_OK) return 0;
  return sizeof(float) *
         (round4(4 * ((uint64_t)n_q + n_k) * d_model) +
          saved_floats(n_q, n_k, use_weights) +
          head_scratch_floats(n_q, n_k, d_model / heads, use_weights));
}

/* b (d) = the column sums of X (n x d); nothing for a NULL b. */
ATTN_SMALL static void column_sums(float *b, const float *X, int n, int d) {
  if (!b) return;
  for (int c = 0; c < d; c++) b[c] = 0.0f;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < d; c++) b[c] += X[(size_t)i * d + c];
}

ATTN_SMALL int attn_mha_backward(float *dXq, float *dXkv, const attn_mha_grads *g,
                      const float *Xq, const float *Xkv, const float *dY,
                      int n_q, int n_k, int d_model, int heads,
                      const attn_mha_params *params, const attn_masks *masks,
                      int use_weights, void *workspace) {
  if (!dXq || !g || !g->dWq || !g->dWk || !g->dWv || !g->dWo || !Xq || !Xkv ||
      !dY || !params || !params->Wq || !params->Wk || !params->Wv || !params->Wo)
    return ATTN_E_NULL;
  /* Without dXkv both gradients go to dXq: only right for self-attention. */
  if (!dXkv && (Xkv != Xq || n_k != n_q)) return ATTN_E_NULL;
  int status = check_sizes(n_q, n_k, d_model, heads, use_weights);
  if (status != ATTN_OK) return status;
  const int d = d_model, dh = d / heads;
  const float scale = 1.0f / sqrtf((float)dh);
  /* every head's forward and backward run the same attention: its checks
   * once, for all of them (the forward's, exactly as attn_mha makes them) */
  status = attn__check_attention(n_q, n_k, dh, dh, use_weights, scale, masks);
  if (status != ATTN_OK) return status;
  if (!workspace) return ATTN_E_WORKSPACE;
  const size_t nq_d = (size_t)n_q * d, nk_d = (size_t)n_k * d;
  float *Q = workspace, *Z = Q + nq_d, *dZ = Z + nq_d, *dQ = dZ + nq_d; /* n_q x d */
  float *K = dQ + nq_d, *V = K + nk_d, *dK = V + nk_d, *dV = dK + nk_d; /* n_k x d */
  float *saved = (float *)workspace + round4(4 * ((uint64_t)n_q + n_k) * d);
  float *scratch = saved + saved_floats(n_q, n_k, use_weights);

  attn__linear(Q, Xq, params->Wq, params->bq, n_q, d, d, 0);
  attn__linear(K, Xkv, params->Wk, params->bk, n_k, d, d, 0);
  attn__linear(V, Xkv, params->Wv, params->bv, n_k, d, d, 0);
  attn__gemm(dZ, (size_t)d, dY, (size_t)d, params->Wo, (size_t)d, n_q, d, d, 1, 0);
  for (int h = 0; h < heads; h++) {
    const size_t col = (size_t)h * dh;
    if (use_weights)
      attn__attention_strided(Z + col, (size_t)d, saved, Q + col, (size_t)d,
                              K + col, (size_t)d, V + col, (size_t)d, n_q, n_k,
                              dh, dh, scale, masks, scratch);
    else
      attn__attention_lse_strided(Z + col, (size_t)d, saved, Q + col, (size_t)d,
                                  K + col, (size_t)d, V + col, (size_t)d, n_q,
                                  n_k, dh, dh, scale, masks, scratch);
    attn__attention_backward_strided(
        dQ + col, (size_t)d, dK + col, (size_t)d, dV + col, (size_t)d, Q + col,
        (size_t)d, K + col, (size_t)d, V + col, (size_t)d, Z + col, (size_t)d,
        dZ + col, (size_t)d, use_weights ? saved : NULL, use_weights ? NULL : saved,
        n_q, n_k, dh, dh, scale, masks, scratch);
  }

  attn__gemm_at(g->dWo, (size_t)d, Z, (size_t)d, dY, (size_t)d, d, n_q, d, 0);
  attn__gemm_at(g->dWq, (size_t)d, Xq, (size_t)d, dQ, (size_t)d, d, n_q, d, 0);
  attn__gemm_at(g->dWk, (size_t)d, Xkv, (size_t)d, dK, (size_t)d, d, n_k, d, 0);
  attn__gemm_at(g->dWv, (size_t)d, Xkv, (size_t)d, dV, (size_t)d, d, n_k, d, 0);
  column_sums(g->dbo, dY, n_q, d);
  column_sums(g->dbq, dQ, n_q, d);
  column_sums(g->dbk, dK, n_k, d);
  column_sums(g->dbv, dV, n_k, d);
  attn__gemm(dXq, (size_t)d, dQ, (size_t)d, params->Wq, (size_t)d, n_q, d, d, 1, 0);
  float *dX = dXkv ? dXkv : dXq; /* the key/value side's gradient */
  attn__gemm(dX, (size_t)d, dK, (size_t)d, params->Wk, (size_t)d, n_k, d, d, 1, dXkv == NULL);
  attn__gemm(dX, (size_t)d, dV, (size_t)d, params->Wv, (size_t)d, n_k, d, d, 1, 1);
  return ATTN_OK;
}

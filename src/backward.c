/* backward.c: the gradient of scaled dot-product attention (the softmax's
 * own, attn_softmax_backward, is in softmax.c: the attention part).
 *
 * In the forward pass (attention.c) this was:
 *   S = scale Q K^T + masks     P = softmax(S) row-wise     O = P V
 * so now, given dO = dLoss/dO:
 *   dV = P^T dO                           (n_k x d_v)
 *   dP = dO V^T                           (n_q x n_k)
 *   dS = P * (dP - D),  D_i = sum_j P_ij dP_ij = dO_i . O_i  (softmax backward)
 *   dQ = scale dS K     dK = scale dS^T Q
 * The additive mask is a constant: it gets no gradient. A blocked key has
 * P_ij = 0, so it passes nothing back; a fully masked row has P = 0 and O = 0
 * and gets zero gradients.
 *
 * Both paths walk the same tiles (the FlashAttention-2 backward): key tiles
 * of BK outside, query blocks of BQ inside. For each pair the tile of P is
 * either read from the forward's weights, or recomputed from the scores and
 * the row's log-sum-exp, P_ij = exp(S_ij - lse_i), masked through
 * attn__mask_row exactly as the forward masks. dK and dV of a key tile gather
 * over the query blocks while they sit in cache; dQ gathers over key tiles.
 * Tiles that no query can see (attn__tile_hidden) are skipped. Memory: a few
 * tiles and one float per query, never an n_q x n_k matrix.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "internal.h"
#include "simd.h"

enum {
  BQ = 128, /* queries per block */
  BK = ATTN_BACKWARD_KEY_TILE, /* keys per tile (128) */
};

/* The scratch of one backward call, carved out of the caller's workspace.
 * T and G rows are `ldt` = min(n_k, BK) floats apart. */
typedef struct {
  float *T;  /* (BQ x ldt) P: copied from the weights, or scores then P */
  float *G;  /* (BQ x ldt) dP, then dS */
  float *D;  /* (n_q) dO_i . O_i */
  float *Kt; /* the key tile packed for Q K^T (d_k x bk) */
  float *Kn; /* the key tile packed for dS K (bk x d_k) */
  float *Vt; /* the value tile packed for dO V^T (d_v x bk) */
  float *Qp; /* the query block packed for dS^T Q (bq x d_k) */
  float *Op; /* the block of dO packed for P^T dO (bq x d_v) */
} scratch;

static uint64_t tile_rows(int n_q) { return n_q < BQ ? (uint64_t)n_q : BQ; }
static uint64_t tile_cols(int n_k) { return n_k < BK ? (uint64_t)n_k : BK; }

ATTN_SMALL static uint64_t backward_floats(int n_q, int n_k, int d_k, int d_v) {
  const uint64_t bq = tile_rows(n_q), bk = tile_cols(n_k);
  return 2 * bq * bk + (uint64_t)n_q + attn__packed_size(d_k, (int)bk) +
         attn__packed_size((int)bk, d_k) + attn__packed_size(d_v, (int)bk) +
         attn__packed_size((int)bq, d_k) + attn__packed_size((int)bq, d_v);
}

ATTN_SMALL static scratch carve(float *ws, int n_q, int n_k, int d_k, int d_v) {
  const int bq = (int)tile_rows(n_q), bk = (int)tile_cols(n_k);
  scratch w;
  w.T = ws;
  w.G = w.T + (size_t)bq * bk;
  w.D = w.G + (size_t)bq * bk;
  w.Kt = w.D + n_q;
  w.Kn = w.Kt + attn__packed_size(d_k, bk);
  w.Vt = w.Kn + attn__packed_size(bk, d_k);
  w.Qp = w.Vt + attn__packed_size(d_v, bk);
  w.Op = w.Qp + attn__packed_size(bq, d_k);
  return w;
}

size_t attn_attention_backward_workspace_size(int n_q, int n_k, int d_k,
                                              int d_v) {
  if (attn__check_attention_sizes(n_q, n_k, d_k, d_v, 0) != ATTN_OK) return 0;
  const uint64_t floats = backward_floats(n_q, n_k, d_k, d_v);
  return attn__fits(floats, sizeof(float)) ? sizeof(float) * (size_t)floats : 0;
}

/* rows x cols of a strided matrix set to 0. */
ATTN_SMALL static void zero_rows(float *X, size_t ld, int rows, int cols) {
  for (int i = 0; i < rows; i++)
    for (int c = 0; c < cols; c++) X[(size_t)i * ld + c] = 0.0f;
}

/* Rows of a tile of scores become P_ij = exp(s_ij - lse_i): scaled, then
 * masked, as the forward does. */
ATTN_SMALL static void recompute_weights(float *T, int ldt, int bq, int bk, int i0, int j0,
                              int n_k, const float *lse, float scale,
                              const attn_masks *mk) {
  /* Without an additive mask (added to scaled scores), the scores can stay
   * unscaled: 2^((x - l / s) s log2(e)) = e^(s x - l). */
  const float s2 = scale * ATTN_LOG2E;
  const int raw = !(mk && mk->add) && s2 <= FLT_MAX;
  for (int r = 0; r < bq; r++) {
    float *row = T + (size_t)r * ldt;
    const float l = lse[i0 + r];
    if (l == -INFINITY) { /* a fully masked row: no weights at all */
      for (int j = 0; j < bk; j++) row[j] = 0.0f;
      continue;
    }
    /* lse_i bounds every score exactly, but these recomputed scores round
     * apart from the forward's, which at huge logits is more than exp's
     * range: shift by the larger, so no weight exceeds 1 (nor overflows to
     * inf and then NaN). An overflowed +INFINITY becomes FLT_MAX. */
    const float lr = raw ? l / scale : INFINITY; /* lse in unscaled units */
    if (lr <= FLT_MAX) { /* the scale goes to exp2: a pass fewer */
      attn__mask_row(row, bk, i0 + r, j0, n_k, mk, 1.0f);
      const float m = attn__score_max(row, bk);
      attn__exp2_shifted(row, bk, m > lr ? m : lr, s2);
      continue;
    }
    attn__scale_scores(row, bk, scale);
    attn__mask_row(row, bk, i0 + r, j0, n_k, mk, 1.0f);
    const float m = attn__score_max(row, bk);
    attn__exp_shifted(row, bk, m > l ? m : l, 1.0f);
  }
}

/* What one backward run computes: dQ (all of its rows) and/or dK, dV for
 * the keys of tiles j_lo .. j_hi-1 (j_lo a multiple of BK), written at dK +
 * (j - j_lo) lddk. Both, over every key, is attn_attention_backward. */
typedef struct {
  int want_q, want_kv, j_lo, j_hi;
} part;

ATTN_SMALL static void backward_part(
    float *dQ, size_t lddq, float *dK, size_t lddk, float *dV, size_t lddv,
    const float *Q, size_t ldq, const float *K, size_t ldk, const float *V,
    size_t ldv, const float *out, size_t ldo, const float *dout, size_t lddo,
    const float *weights, const float *lse, int n_q, int n_k, int d_k, int d_v,
    float scale, const attn_masks *mk, void *workspace, part p) {
  const scratch w = carve(workspace, n_q, n_k, d_k, d_v);
  const int ldt = (int)tile_cols(n_k);

  if (p.want_q) zero_rows(dQ, lddq, n_q, d_k);
  if (p.want_kv) {
    zero_rows(dK, lddk, p.j_hi - p.j_lo, d_k);
    zero_rows(dV, lddv, p.j_hi - p.j_lo, d_v);
  }
  for (int i = 0; i < n_q; i++)
    w.D[i] = attn__dot(dout + (size_t)i * lddo, out + (size_t)i * ldo, d_v);

  for (int j0 = p.j_lo; j0 < p.j_hi; j0 += BK) {
    const int bk = p.j_hi - j0 < BK ? p.j_hi - j0 : BK;
    if (attn__tile_hidden(mk, 0, n_q, j0, j0 + bk)) continue;
    if (!weights) attn__pack_b(w.Kt, K + (size_t)j0 * ldk, ldk, 1, d_k, bk);
    if (p.want_q) attn__pack_b(w.Kn, K + (size_t)j0 * ldk, ldk, 0, bk, d_k);
    attn__pack_b(w.Vt, V + (size_t)j0 * ldv, ldv, 1, d_v, bk);
    for (int i0 = 0; i0 < n_q; i0 += BQ) {
      const int bq = n_q - i0 < BQ ? n_q - i0 : BQ;
      if (attn__tile_hidden(mk, i0, i0 + bq, j0, j0 + bk)) continue;
      /* T = P: the forward's weights (copied: the products below read
       * their columns, which are n_k apart in weights), or recomputed. */
      if (weights) {
        for (int r = 0; r < bq; r++)
          memcpy(w.T + (size_t)r * ldt, weights + (size_t)(i0 + r) * n_k + j0, sizeof(float) * bk);
      } else {
        attn__gemm_packed(w.T, ldt, Q + (size_t)i0 * ldq, ldq, w.Kt, bq, d_k, bk, 0);
        recompute_weights(w.T, ldt, bq, bk, i0, j0, n_k, lse, scale, mk);
      }
      /* G = dP = dO V^T, then dS = scale P * (dP - D), row by row. */
      attn__gemm_packed(w.G, ldt, dout + (size_t)i0 * lddo, lddo, w.Vt, bq, d_v, bk, 0);
      for (int r = 0; r < bq; r++) {
        float *g = w.G + (size_t)r * ldt;
        attn__softmax_grad_row(g, w.T + (size_t)r * ldt, g, bk, w.D[i0 + r], scale);
      }
      /* dV_tile += P^T dO_block, dK_tile += dS^T Q_block, dQ_block += dS K_tile */
      if (p.want_kv) {
        const size_t at = (size_t)(j0 - p.j_lo);
        attn__pack_b(w.Op, dout + (size_t)i0 * lddo, lddo, 0, bq, d_v);
        attn__gemm_packed_at(dV + at * lddv, lddv, w.T, ldt, w.Op, bk, bq, d_v, 1);
        attn__pack_b(w.Qp, Q + (size_t)i0 * ldq, ldq, 0, bq, d_k);
        attn__gemm_packed_at(dK + at * lddk, lddk, w.G, ldt, w.Qp, bk, bq, d_k, 1);
      }
      if (p.want_q)
        attn__gemm_packed(dQ + (size_t)i0 * lddq, lddq, w.G, ldt, w.Kn, bq, bk, d_k, 1);
    }
  }
}

ATTN_SMALL void attn__attention_backward_strided(
    float *dQ, size_t lddq, float *dK, size_t lddk, float *dV, size_t lddv,
    const float *Q, size_t ldq, const float *K, size_t ldk, const float *V,
    size_t ldv, const float *out, size_t ldo, const float *dout, size_t lddo,
    const float *weights, const float *lse, int n_q, int n_k, int d_k, int d_v,
    float scale, const attn_masks *mk, void *workspace) {
  backward_part(dQ, lddq, dK, lddk, dV, lddv, Q, ldq, K, ldk, V, ldv, out, ldo, dout, lddo, weights,
                lse, n_q, n_k, d_k, d_v, scale, mk, workspace, (part){1, 1, 0, n_k});
}

/* The checks of the backward entries after their NULL pointers: sizes,
 * scale, masks, then the workspace. */
static int check_backward(int n_q, int n_k, int d_k, int d_v, int use_weights, float scale,
                          const attn_masks *masks, const void *workspace) {
  const int status = attn__check_attention(n_q, n_k, d_k, d_v, use_weights, scale, masks);
  if (status != ATTN_OK) return status;
  if (attn_attention_backward_workspace_size(n_q, n_k, d_k, d_v) == 0) return ATTN_E_SIZE;
  return workspace ? ATTN_OK : ATTN_E_WORKSPACE;
}

int attn_attention_backward_dq(float *dQ, const float *Q, const float *K, const float *V,
                               const float *out, const float *dout, const float *weights,
                               const float *lse, int n_q, int n_k, int d_k, int d_v, float scale,
                               const attn_masks *masks, void *workspace) {
  if (!dQ || !Q || !K || !V || !out || !dout || (!weights && !lse)) return ATTN_E_NULL;
  const int status = check_backward(n_q, n_k, d_k, d_v, weights != NULL, scale, masks, workspace);
  if (status != ATTN_OK) return status;
  backward_part(dQ, (size_t)d_k, NULL, 0, NULL, 0, Q, (size_t)d_k, K, (size_t)d_k, V, (size_t)d_v,
                out, (size_t)d_v, dout, (size_t)d_v, weights, lse, n_q, n_k, d_k, d_v, scale, masks,
                workspace, (part){1, 0, 0, n_k});
  return ATTN_OK;
}

int attn_attention_backward_dkv(float *dK, float *dV, const float *Q, const float *K,
                                const float *V, const float *out, const float *dout,
                                const float *weights, const float *lse, int n_q, int n_k, int d_k,
                                int d_v, float scale, const attn_masks *masks, int j0, int j1,
                                void *workspace) {
  if (!dK || !dV || !Q || !K || !V || !out || !dout || (!weights && !lse)) return ATTN_E_NULL;
  /* the keys j0 .. j1-1 after the sizes, before the rest */
  if (attn__check_attention_sizes(n_q, n_k, d_k, d_v, weights != NULL) == ATTN_OK &&
      (j0 < 0 || j0 >= j1 || j1 > n_k || j0 % BK != 0))
    return ATTN_E_SIZE;
  const int status = check_backward(n_q, n_k, d_k, d_v, weights != NULL, scale, masks, workspace);
  if (status != ATTN_OK) return status;
  backward_part(NULL, 0, dK, (size_t)d_k, dV, (size_t)d_v, Q, (size_t)d_k, K, (size_t)d_k, V,
                (size_t)d_v, out, (size_t)d_v, dout, (size_t)d_v, weights, lse, n_q, n_k, d_k, d_v,
                scale, masks, workspace, (part){0, 1, j0, j1});
  return ATTN_OK;
}

int attn_attention_backward(float *dQ, float *dK, float *dV, const float *Q,
                            const float *K, const float *V, const float *out,
                            const float *dout, const float *weights,
                            const float *lse, int n_q, int n_k, int d_k, int d_v,
                            float scale, const attn_masks *masks,
                            void *workspace) {
  if (!dQ || !dK || !dV || !Q || !K || !V || !out || !dout || (!weights && !lse))
    return ATTN_E_NULL;
  const int status = check_backward(n_q, n_k, d_k, d_v, weights != NULL, scale, masks, workspace);
  if (status != ATTN_OK) return status;
  attn__attention_backward_strided(
      dQ, (size_t)d_k, dK, (size_t)d_k, dV, (size_t)d_v, Q, (size_t)d_k, K,
      (size_t)d_k, V, (size_t)d_v, out, (size_t)d_v, dout, (size_t)d_v, weights,
      lse, n_q, n_k, d_k, d_v, scale, masks, workspace);
  return ATTN_OK;
}

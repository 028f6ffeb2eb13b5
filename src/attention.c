/* attention.c: scaled dot-product attention, out = softmax(s Q K^T + M) V.
 *
 * Two paths:
 *   with weights   the caller's weights buffer (n_q x n_k) holds the scores,
 *                  softmax runs on it in place, then out = weights V; in
 *                  blocks of query rows whose scores take about 4 MiB
 *                  (WB), so that at large n_k they are still in cache for
 *                  the softmax and the product with V (K and V are packed
 *                  again per block: a few blocks, not one per BQ rows).
 *   without        the fused path: walk the keys in tiles of BK (BK_SKIP
 *                  under a causal or window mask); for each
 *                  block of BQ queries, keep each row's running max m and
 *                  running sum l, and rescale what is already accumulated in
 *                  out when the max grows (the FlashAttention recurrence).
 *                  Memory is a few tiles, whatever n_k is.
 * The fused path walks the keys once per pass of SQ queries (key tiles
 * outside, query blocks inside), so each key and value tile is packed for
 * the GEMMs once per pass instead of once per block; the pass's queries and
 * outputs (2 x 256 KiB at d = 64) stay in L2. It also multiplies Q by
 * s log2(e) up front: the scores come out as base-2 logits, and the softmax
 * runs exp2, whose range reduction is cheaper than exp's.
 */
#include <float.h>
#include <math.h>

#include "internal.h"

enum {
  BQ = 128,  /* queries per block */
  BK = 256,  /* keys per tile: BQ x BK scores = 128 KiB, in L2 */
  BK_SKIP = 128, /* ... when a causal or window mask may hide whole tiles */
  SQ = 1024, /* queries per pass over the keys */
  WB = 1 << 20, /* scores per block of the weights path (4 MiB) */
};

/* softmax(s * row) in place; an all-blocked row becomes 0. */
static void softmax_row(float *row, int n, float s) {
  const float m = attn__score_max(row, n);
  if (m == -INFINITY) {
    for (int j = 0; j < n; j++) row[j] = 0.0f;
    return;
  }
  float shift = m, s2 = s * ATTN_LOG2E;
  if (s2 > FLT_MAX) { /* s log2(e) overflows: take (x - m) s first */
    for (int j = 0; j < n; j++) row[j] = (row[j] - m) * s;
    shift = 0.0f, s2 = ATTN_LOG2E;
  }
  attn__scale_row(row, n, 1.0f / attn__exp2_shifted(row, n, shift, s2));
}

static void attention_with_weights(float *out, size_t ldo, float *W,
                                   const float *Q, size_t ldq, const float *K,
                                   size_t ldk, const float *V, size_t ldv,
                                   int n_q, int n_k, int d_k, int d_v,
                                   float scale, const attn_masks *mk) {
  /* The scale waits for exp (saving a pass over the scores), unless an
   * additive mask has to be added to scaled scores; scale > 0 keeps the row
   * maximum where it is. */
  const int add = mk && mk->add;
  const int rows = WB / n_k > BQ ? WB / n_k / BQ * BQ : BQ;
  for (int i0 = 0; i0 < n_q; i0 += rows) {
    const int bq = n_q - i0 < rows ? n_q - i0 : rows;
    float *Wb = W + (size_t)i0 * n_k;
    attn__gemm(Wb, (size_t)n_k, Q + (size_t)i0 * ldq, ldq, K, ldk, bq, d_k, n_k, 1, 0);
    for (int r = 0; r < bq; r++) {
      float *row = Wb + (size_t)r * n_k;
      if (add) attn__scale_scores(row, n_k, scale);
      attn__mask_row(row, n_k, i0 + r, 0, n_k, mk, 1.0f);
      softmax_row(row, n_k, add ? 1.0f : scale);
    }
    attn__gemm(out + (size_t)i0 * ldo, ldo, Wb, (size_t)n_k, V, ldv, bq, n_k, d_v, 0, 0);
  }
}

/* The fused path's scratch, carved out of the caller's workspace. */
typedef struct {
  float *S;       /* (BQ x tile) scores, then probabilities */
  float *run_max; /* (SQ) m: largest score so far, per query of the pass */
  float *run_sum; /* (SQ) l: sum of 2^(score - m) */
  float *Q;       /* (SQ x d_k) the pass's queries, scaled */
  float *K;       /* the key tile, packed for Q K^T */
  float *V;       /* the value tile, packed for P V */
} scratch;

static uint64_t fused_workspace_floats(int n_q, int d_k, int d_v) {
  const uint64_t sq = n_q < SQ ? (uint64_t)n_q : SQ;
  return (uint64_t)BQ * BK + 2 * sq + sq * d_k + attn__packed_size(d_k, BK) +
         attn__packed_size(BK, d_v);
}

static scratch carve(float *ws, int n_q, int d_k) {
  const int sq = n_q < SQ ? n_q : SQ;
  scratch w;
  w.S = ws;
  w.run_max = w.S + BQ * BK;
  w.run_sum = w.run_max + sq;
  w.Q = w.run_sum + sq;
  w.K = w.Q + (size_t)sq * d_k;
  w.V = w.K + (size_t)attn__packed_size(d_k, BK);
  return w;
}

/* Folds one row of a score tile into its query's running softmax: the row
 * becomes 2^(s (score - m)), and the output so far, o, is rescaled when the
 * max m grows. A row with nothing visible in this tile adds nothing. */
static void online_softmax_row(float *row, int n, float s, float *run_max,
                               float *run_sum, float *o, int d_v) {
  const float tile_max = attn__score_max(row, n);
  if (tile_max == -INFINITY) {
    for (int j = 0; j < n; j++) row[j] = 0.0f;
    return;
  }
  const float m = tile_max > *run_max ? tile_max : *run_max;
  /* Earlier tiles were weighted by 2^(-old max); move them to m. A row with
   * no visible key yet has o = 0 and l = 0: nothing to move. */
  if (*run_max != -INFINITY && m != *run_max) {
    const float alpha = attn__exp2f((*run_max - m) * s);
    *run_sum *= alpha;
    attn__scale_row(o, d_v, alpha);
  }
  *run_sum += attn__exp2_shifted(row, n, m, s);
  *run_max = m;
}

static void attention_fused(float *out, size_t ldo, float *lse,
                            const float *Q, size_t ldq, const float *K,
                            size_t ldk, const float *V, size_t ldv, int n_q,
                            int n_k, int d_k, int d_v, float scale,
                            const attn_masks *mk, float *ws) {
  const scratch w = carve(ws, n_q, d_k);
  /* The scores should be base-2 logits, s log2(e) q.k + log2(e) mask.
   * Folding s log2(e) into Q costs nothing per score, but only a factor of
   * at most 1 cannot overflow the queries. A larger one (a tiny d_k, a
   * custom scale) multiplies each score by s instead, as the weights path
   * does, and leaves log2(e) to the exp. */
  const int fold = scale * ATTN_LOG2E <= 1.0f;
  const float q_scale = fold ? scale * ATTN_LOG2E : 1.0f;
  const float add_scale = fold ? ATTN_LOG2E : 1.0f, exp_scale = fold ? 1.0f : ATTN_LOG2E;
  /* Wider tiles halve the per-row softmax calls and lengthen the P V
   * product's inner loop (+1-1.5% on Zen 5, relaxed); narrower ones skip more
   * of what a causal or window mask hides. */
  const int tile = mk && (mk->causal || mk->has_window) ? BK_SKIP : BK;
  for (int s0 = 0; s0 < n_q; s0 += SQ) {
    const int sq = n_q - s0 < SQ ? n_q - s0 : SQ;
    for (int r = 0; r < sq; r++) {
      const float *q = Q + (size_t)(s0 + r) * ldq;
      float *qs = w.Q + (size_t)r * d_k;
      for (int c = 0; c < d_k; c++) qs[c] = q[c] * q_scale;
      float *o = out + (size_t)(s0 + r) * ldo;
      for (int c = 0; c < d_v; c++) o[c] = 0.0f;
      w.run_max[r] = -INFINITY, w.run_sum[r] = 0.0f;
    }
    for (int j0 = 0; j0 < n_k; j0 += tile) {
      const int bk = n_k - j0 < tile ? n_k - j0 : tile;
      /* A key tile that no query of the pass sees is not even packed. */
      if (attn__tile_hidden(mk, s0, s0 + sq, j0, j0 + bk)) continue;
      attn__pack_b(w.K, K + (size_t)j0 * ldk, ldk, 1, d_k, bk);
      attn__pack_b(w.V, V + (size_t)j0 * ldv, ldv, 0, bk, d_v);
      for (int i0 = 0; i0 < sq; i0 += BQ) {
        const int bq = sq - i0 < BQ ? sq - i0 : BQ;
        if (attn__tile_hidden(mk, s0 + i0, s0 + i0 + bq, j0, j0 + bk)) continue;
        float *O = out + (size_t)(s0 + i0) * ldo;
        attn__gemm_packed(w.S, (size_t)tile, w.Q + (size_t)i0 * d_k, (size_t)d_k, w.K,
                          bq, d_k, bk, 0);
        for (int r = 0; r < bq; r++) {
          float *row = w.S + (size_t)r * tile;
          if (!fold) attn__scale_scores(row, bk, scale);
          attn__mask_row(row, bk, s0 + i0 + r, j0, n_k, mk, add_scale);
          online_softmax_row(row, bk, exp_scale, w.run_max + i0 + r,
                             w.run_sum + i0 + r, O + (size_t)r * ldo, d_v);
        }
        attn__gemm_packed(O, ldo, w.S, (size_t)tile, w.V, bq, bk, d_v, 1);
      }
    }
    for (int r = 0; r < sq; r++) /* l = 0: a fully masked row stays 0 */
      attn__scale_row(out + (size_t)(s0 + r) * ldo, d_v,
                      w.run_sum[r] > 0.0f ? 1.0f / w.run_sum[r] : 0.0f);
    /* log sum_j e^(s_ij) = m + ln l, with m in the units of the row (base-2
     * logits when folded); -INFINITY for a fully masked row. */
    if (lse)
      for (int r = 0; r < sq; r++)
        lse[s0 + r] = w.run_sum[r] > 0.0f
                          ? w.run_max[r] * (fold ? ATTN_LN2 : 1.0f) + logf(w.run_sum[r])
                          : -INFINITY;
  }
}

size_t attn_attention_workspace_size(int n_q, int n_k, int d_k, int d_v,
                                     int want_weights) {
  if (attn__check_attention_sizes(n_q, n_k, d_k, d_v, want_weights) != ATTN_OK) return 0;
  if (want_weights) return 0; /* the weights buffer holds the scores */
  const uint64_t floats = fused_workspace_floats(n_q, d_k, d_v);
  return attn__fits(floats, sizeof(float)) ? sizeof(float) * (size_t)floats : 0;
}

void attn__attention_strided(float *out, size_t ldo, float *weights,
                             const float *Q, size_t ldq, const float *K,
                             size_t ldk, const float *V, size_t ldv, int n_q,
                             int n_k, int d_k, int d_v, float scale,
                             const attn_masks *masks, void *workspace) {
  if (weights)
    attention_with_weights(out, ldo, weights, Q, ldq, K, ldk, V, ldv, n_q, n_k,
                           d_k, d_v, scale, masks);
  else
    attention_fused(out, ldo, NULL, Q, ldq, K, ldk, V, ldv, n_q, n_k, d_k, d_v,
                    scale, masks, workspace);
}

void attn__attention_lse_strided(float *out, size_t ldo, float *lse,
                                 const float *Q, size_t ldq, const float *K,
                                 size_t ldk, const float *V, size_t ldv,
                                 int n_q, int n_k, int d_k, int d_v,
                                 float scale, const attn_masks *masks,
                                 void *workspace) {
  attention_fused(out, ldo, lse, Q, ldq, K, ldk, V, ldv, n_q, n_k, d_k, d_v,
                  scale, masks, workspace);
}

/* The checks of both entries after their NULL pointers: the attention's
 * sizes, scale and masks, then the fused path's workspace. */
static int check(int n_q, int n_k, int d_k, int d_v, int want_weights, float scale,
                 const attn_masks *masks, const void *workspace) {
  const int status = attn__check_attention(n_q, n_k, d_k, d_v, want_weights, scale, masks);
  if (status != ATTN_OK || want_weights) return status;
  if (attn_attention_workspace_size(n_q, n_k, d_k, d_v, 0) == 0) return ATTN_E_SIZE;
  return workspace ? ATTN_OK : ATTN_E_WORKSPACE;
}

int attn_attention_lse(float *out, float *lse, const float *Q, const float *K,
                       const float *V, int n_q, int n_k, int d_k, int d_v,
                       float scale, const attn_masks *masks, void *workspace) {
  if (!out || !lse || !Q || !K || !V) return ATTN_E_NULL;
  const int status = check(n_q, n_k, d_k, d_v, 0, scale, masks, workspace);
  if (status != ATTN_OK) return status;
  attn__attention_lse_strided(out, (size_t)d_v, lse, Q, (size_t)d_k, K,
                              (size_t)d_k, V, (size_t)d_v, n_q, n_k,
                              d_k, d_v, scale, masks, workspace);
  return ATTN_OK;
}

int attn_attention(float *out, float *weights, const float *Q, const float *K,
                   const float *V, int n_q, int n_k, int d_k, int d_v,
                   float scale, const attn_masks *masks, void *workspace) {
  if (!out || !Q || !K || !V) return ATTN_E_NULL;
  const int status = check(n_q, n_k, d_k, d_v, weights != NULL, scale, masks, workspace);
  if (status != ATTN_OK) return status;
  attn__attention_strided(out, (size_t)d_v, weights, Q, (size_t)d_k, K,
                          (size_t)d_k, V, (size_t)d_v, n_q, n_k, d_k,
                          d_v, scale, masks, workspace);
  return ATTN_OK;
}

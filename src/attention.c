/* attention.c: scaled dot-product attention, out = softmax(s Q K^T + M) V.
 *
 * Two paths:
 *   with weights   the caller's weights buffer (n_q x n_k) holds the scores,
 *                  softmax runs on it in place, then out = weights V.
 *   without        the fused path: for a block of BQ queries, walk the keys
 *                  in tiles of BK, keep each row's running max m and running
 *                  sum l, and rescale what is already accumulated in out when
 *                  the max grows (the FlashAttention recurrence). Memory is
 *                  one BQ x BK tile, whatever n_k is.
 */
#include <math.h>

#include "internal.h"

enum {
  BQ = 128, /* queries per block */
  BK = 128, /* keys per tile: BQ x BK scores = 64 KiB, in L2 */
};

/* Last key (exclusive) that query i may see under the causal flag. */
static int causal_end(const attn_masks *mk, int i, int n_k) {
  return mk && mk->causal && i + 1 < n_k ? i + 1 : n_k;
}

/* Masks raw scores Q K^T of query i, keys j0 .. j0+n: masked keys become
 * -INFINITY. Returns the factor that still has to multiply the row inside
 * the exp: the scale itself, or 1 where an additive mask made us apply it
 * here (row = scale * row + add). Deferring the scale to the exp saves a
 * pass over the scores; scale > 0 keeps the row maximum where it is. */
static float mask_scores(float *row, int n, int i, int j0, int n_k,
                         float scale, const attn_masks *mk) {
  if (!mk) return scale;
  if (mk->add) {
    const float *add = mk->add + (size_t)i * n_k + j0;
    attn__scale_row(row, n, scale);
    for (int j = 0; j < n; j++) row[j] += add[j];
    scale = 1.0f;
  }
  if (mk->key_padding) {
    const uint8_t *pad = mk->key_padding + j0;
    for (int j = 0; j < n; j++)
      if (pad[j]) row[j] = -INFINITY;
  }
  const int first_hidden = causal_end(mk, i, n_k) - j0;
  for (int j = first_hidden > 0 ? first_hidden : 0; j < n; j++) row[j] = -INFINITY;
  return scale;
}

/* softmax(s * row) in place; an all-blocked row becomes 0. */
static void softmax_row(float *row, int n, float s) {
  const float m = attn__score_max(row, n);
  if (m == -INFINITY) {
    for (int j = 0; j < n; j++) row[j] = 0.0f;
    return;
  }
  attn__scale_row(row, n, 1.0f / attn__exp_shifted(row, n, m, s));
}

static void attention_with_weights(float *out, size_t ldo, float *W,
                                   const float *Q, size_t ldq, const float *K,
                                   size_t ldk, const float *V, size_t ldv,
                                   int n_q, int n_k, int d_k, int d_v,
                                   float scale, const attn_masks *mk) {
  attn__gemm(W, (size_t)n_k, Q, ldq, K, ldk, n_q, d_k, n_k, 1, 0);
  for (int i = 0; i < n_q; i++) {
    float *row = W + (size_t)i * n_k;
    softmax_row(row, n_k, mask_scores(row, n_k, i, 0, n_k, scale, mk));
  }
  attn__gemm(out, ldo, W, (size_t)n_k, V, ldv, n_q, n_k, d_v, 0, 0);
}

static void attention_fused(float *out, size_t ldo, const float *Q, size_t ldq,
                            const float *K, size_t ldk, const float *V,
                            size_t ldv, int n_q, int n_k, int d_k, int d_v,
                            float scale, const attn_masks *mk, float *ws) {
  float *S = ws;               /* (BQ x BK) scores, then probabilities */
  float *run_max = S + BQ * BK; /* (BQ) m: largest (unscaled) score per row */
  float *run_sum = run_max + BQ; /* (BQ) l: sum of exp(s (score - m)) per row */
  for (int i0 = 0; i0 < n_q; i0 += BQ) {
    const int bq = n_q - i0 < BQ ? n_q - i0 : BQ;
    float *O = out + (size_t)i0 * ldo; /* (bq x d_v), accumulates */
    for (int r = 0; r < bq; r++) {
      run_max[r] = -INFINITY, run_sum[r] = 0.0f;
      for (int c = 0; c < d_v; c++) O[(size_t)r * ldo + c] = 0.0f;
    }
    /* Causal: tiles past the block's last query are fully masked; skip. */
    const int k_end = causal_end(mk, i0 + bq - 1, n_k);
    for (int j0 = 0; j0 < k_end; j0 += BK) {
      const int bk = k_end - j0 < BK ? k_end - j0 : BK;
      attn__gemm(S, BK, Q + (size_t)i0 * ldq, ldq, K + (size_t)j0 * ldk, ldk,
                 bq, d_k, bk, 1, 0);
      for (int r = 0; r < bq; r++) {
        float *row = S + (size_t)r * BK;
        const float s = mask_scores(row, bk, i0 + r, j0, n_k, scale, mk);
        const float tile_max = attn__score_max(row, bk);
        if (tile_max == -INFINITY) { /* nothing visible here: adds nothing */
          for (int j = 0; j < bk; j++) row[j] = 0.0f;
          continue;
        }
        const float m = tile_max > run_max[r] ? tile_max : run_max[r];
        /* Earlier tiles were weighted by exp(-old max); move them to m.
         * A row with no visible key yet has O = 0 and l = 0: nothing to move. */
        if (run_max[r] != -INFINITY && m != run_max[r]) {
          const float alpha = attn__expf((run_max[r] - m) * s);
          run_sum[r] *= alpha;
          attn__scale_row(O + (size_t)r * ldo, d_v, alpha);
        }
        run_sum[r] += attn__exp_shifted(row, bk, m, s);
        run_max[r] = m;
      }
      attn__gemm(O, ldo, S, BK, V + (size_t)j0 * ldv, ldv, bq, bk, d_v, 0, 1);
    }
    for (int r = 0; r < bq; r++) /* guard l = 0: a fully masked row stays 0 */
      attn__scale_row(O + (size_t)r * ldo, d_v,
                      run_sum[r] > 0.0f ? 1.0f / run_sum[r] : 0.0f);
  }
}

static size_t fused_workspace_bytes(void) {
  return sizeof(float) * (BQ * BK + 2 * BQ);
}

static int check_sizes(int n_q, int n_k, int d_k, int d_v, int want_weights) {
  if (n_q <= 0 || n_k <= 0 || d_k <= 0 || d_v <= 0) return ATTN_E_SIZE;
  if (!attn__fits((uint64_t)n_q * d_k, 4) || !attn__fits((uint64_t)n_k * d_k, 4) ||
      !attn__fits((uint64_t)n_k * d_v, 4) || !attn__fits((uint64_t)n_q * d_v, 4))
    return ATTN_E_SIZE;
  if (want_weights && !attn__fits((uint64_t)n_q * n_k, 4)) return ATTN_E_SIZE;
  return ATTN_OK;
}

size_t attn_attention_workspace_size(int n_q, int n_k, int d_k, int d_v,
                                     int want_weights) {
  if (check_sizes(n_q, n_k, d_k, d_v, want_weights) != ATTN_OK) return 0;
  return want_weights ? 0 : fused_workspace_bytes();
}

int attn__attention_strided(float *out, size_t ldo, float *weights,
                            const float *Q, size_t ldq, const float *K,
                            size_t ldk, const float *V, size_t ldv, int n_q,
                            int n_k, int d_k, int d_v, float scale,
                            const attn_masks *masks, void *workspace) {
  if (!out || !Q || !K || !V) return ATTN_E_NULL;
  const int status = check_sizes(n_q, n_k, d_k, d_v, weights != NULL);
  if (status != ATTN_OK) return status;
  if (!(scale > 0.0f) || isinf(scale)) return ATTN_E_TEMP;
  if (weights) {
    attention_with_weights(out, ldo, weights, Q, ldq, K, ldk, V, ldv, n_q, n_k,
                           d_k, d_v, scale, masks);
    return ATTN_OK;
  }
  if (!workspace) return ATTN_E_WORKSPACE;
  attention_fused(out, ldo, Q, ldq, K, ldk, V, ldv, n_q, n_k, d_k, d_v, scale,
                  masks, workspace);
  return ATTN_OK;
}

int attn_attention(float *out, float *weights, const float *Q, const float *K,
                   const float *V, int n_q, int n_k, int d_k, int d_v,
                   float scale, const attn_masks *masks, void *workspace) {
  return attn__attention_strided(out, (size_t)d_v, weights, Q, (size_t)d_k, K,
                                 (size_t)d_k, V, (size_t)d_v, n_q, n_k, d_k,
                                 d_v, scale, masks, workspace);
}

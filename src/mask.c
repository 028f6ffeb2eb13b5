/* mask.c: which keys each query may see, shared by every attention path
 * (forward and backward, weights and fused).
 *
 * Two kinds of rule. Structural rules (causal, the sliding window with its
 * global positions) depend only on where a query and a key are, so whole
 * tiles can be skipped without looking at them (attn__tile_hidden). Data
 * rules (the additive mask, key padding) are applied to each score row
 * (attn__mask_row), which also applies the structural ones to the tiles that
 * are only partly hidden. The masks are checked before any of this runs
 * (check.c, attn__check_masks): here global positions are sorted and in range.
 */
#include <float.h>
#include <math.h>

#include "internal.h"

/* Index of the first global position >= x (n_global when none is): a
 * binary search, so a tile test costs O(log n_global). */
ATTN_SMALL ATTN_NOINLINE static int first_global_from(const attn_masks *mk, int64_t x) {
  int lo = 0, hi = mk->n_global;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (mk->global[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* 1 when a global position lies in [a, b). */
ATTN_SMALL ATTN_NOINLINE static int any_global(const attn_masks *mk, int64_t a, int64_t b) {
  const int g = first_global_from(mk, a);
  return g < mk->n_global && mk->global[g] < b;
}

int attn__tile_hidden(const attn_masks *mk, int i0, int i1, int j0, int j1) {
  if (!mk) return 0;
  /* The queries' positions (rows plus first_query; 64-bit, as is w: either
   * may be near INT_MAX). */
  const int64_t p0 = (int64_t)i0 + mk->first_query, p1 = (int64_t)i1 + mk->first_query;
  /* Causal: the tile's last query (p1 - 1) is the one that sees furthest. */
  if (mk->causal && j0 > p1 - 1) return 1;
  if (mk->has_window) {
    /* Queries p0 .. p1-1 see, through the window, keys p0 - w .. p1 - 1 + w.
     * A global query row or a global key in the tile sees or is seen past
     * the band, so such a tile is never hidden. */
    const int64_t w = mk->window;
    const int outside = (int64_t)j1 - 1 < p0 - w || (int64_t)j0 > p1 - 1 + w;
    if (outside && !any_global(mk, p0, p1) && !any_global(mk, j0, j1)) return 1;
  }
  return 0;
}

/* row[j - j0] = -INFINITY for the keys j in [a, b) that are not global. */
ATTN_SMALL ATTN_NOINLINE static void hide_except_global(float *row, int j0, int64_t a, int64_t b,
                               const attn_masks *mk) {
  int g = first_global_from(mk, a);
  for (int64_t j = a; j < b; j++) {
    if (g < mk->n_global && mk->global[g] == j) {
      g++;
      continue;
    }
    row[j - j0] = -INFINITY;
  }
}

/* The keys j0 .. j0+n-1 of the query at position p left of p - w and right
 * of p + w, except the global ones; nothing for a global query. */
ATTN_SMALL ATTN_NOINLINE static void hide_outside_window(float *row, int n, int64_t p, int j0,
                                           const attn_masks *mk) {
  if (any_global(mk, p, p + 1)) return;
  const int64_t lo = p - mk->window, hi = p + mk->window + 1;
  const int64_t end = (int64_t)j0 + n;
  hide_except_global(row, j0, j0, lo < end ? lo : end, mk);
  hide_except_global(row, j0, hi > j0 ? hi : j0, end, mk);
}

void attn__mask_row(float *row, int n, int i, int j0, int n_k,
                    const attn_masks *mk, float add_scale) {
  if (!mk) return;
  if (mk->add) {
    /* A dot product that overflowed to +INFINITY counts as the largest
     * float, as in attn__score_max: added to the mask's -INFINITY it must
     * stay blocked, not become NaN. */
    const float *add = mk->add + (size_t)i * n_k + j0;
    for (int j = 0; j < n; j++) row[j] = (FLT_MAX < row[j] ? FLT_MAX : row[j]) + add_scale * add[j];
  }
  if (mk->key_padding) {
    const uint8_t *pad = mk->key_padding + j0;
    for (int j = 0; j < n; j++)
      if (pad[j]) row[j] = -INFINITY;
  }
  /* Causal and the window go by the query's position (row i of the call,
   * i of the additive mask, is at i + first_query). */
  const int64_t p = (int64_t)i + mk->first_query;
  if (mk->causal && p + 1 - j0 < n) /* keys after p, from the first one in this row on */
    for (int j = p + 1 - j0 > 0 ? (int)(p + 1 - j0) : 0; j < n; j++) row[j] = -INFINITY;
  /* Most rows of a band's tiles lie inside p - w .. p + w: one test each. */
  if (mk->has_window && ((int64_t)j0 < p - mk->window || (int64_t)j0 + n - 1 > p + mk->window))
    hide_outside_window(row, n, p, j0, mk);
}

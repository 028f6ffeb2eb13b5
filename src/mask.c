/* mask.c: which keys each query may see, shared by every attention path
 * (forward and backward, weights and fused).
 *
 * Two kinds of rule. Structural rules (causal) depend only on where a query
 * and a key are, so whole tiles can be skipped without looking at them
 * (attn__tile_hidden). Data rules (the additive mask, key padding) are
 * applied to each score row (attn__mask_row).
 */
#include <math.h>

#include "internal.h"

int attn__tile_hidden(const attn_masks *mk, int i0, int i1, int j0, int j1) {
  (void)i0, (void)j1;
  /* Causal: the tile's last query (i1 - 1) is the one that sees furthest. */
  return mk && mk->causal && j0 > i1 - 1;
}

void attn__mask_row(float *row, int n, int i, int j0, int n_k,
                    const attn_masks *mk, float add_scale) {
  if (!mk) return;
  if (mk->add) {
    const float *add = mk->add + (size_t)i * n_k + j0;
    for (int j = 0; j < n; j++) row[j] += add_scale * add[j];
  }
  if (mk->key_padding) {
    const uint8_t *pad = mk->key_padding + j0;
    for (int j = 0; j < n; j++)
      if (pad[j]) row[j] = -INFINITY;
  }
  if (mk->causal) /* keys after i, from the first one in this row on */
    for (int j = i + 1 - j0 > 0 ? i + 1 - j0 : 0; j < n; j++) row[j] = -INFINITY;
}

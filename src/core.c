/* core.c: status names, the SIMD switch, counted memory, and the one random
 * number generator. */
#include <stdlib.h>

#include "internal.h"
#include "simd.h"

const char *attn_status_name(int status) {
  switch (status) {
    case ATTN_OK: return "ok";
    case ATTN_E_NULL: return "null pointer";
    case ATTN_E_SIZE: return "bad size";
    case ATTN_E_HEADS: return "heads must be positive and divide d_model";
    case ATTN_E_TEMP: return "temperature/scale must be finite and > 0";
    case ATTN_E_WORKSPACE: return "workspace required";
    case ATTN_E_MASK:
      return "malformed mask: causal, has_window and key padding take 0 or 1, the additive mask "
             "no NaN or +inf, window >= 0, first_query >= 0, global positions ascending, distinct and in "
             "range";
    case ATTN_E_TOKEN: return "token id out of range";
    case ATTN_E_CONFIG: return "option out of range: a model flag (mlp, layer_norm) takes 0 or 1, a GEMM tile one this build has";
    case ATTN_E_OPTIM: return "optimizer setting out of range";
    default: return "unknown status";
  }
}

static int simd_on = ATTN_HAVE_SIMD;

void attn__set_simd(int on) { simd_on = on && ATTN_HAVE_SIMD; }
int attn__use_simd(void) { return simd_on; }
/* The relaxed build says so, so the loader can tell which build a module it
 * was handed (bytes or a compiled module) is. */
#if defined(__wasm_relaxed_simd__)
enum { SIMD_KIND = 2 };
#else
enum { SIMD_KIND = 1 };
#endif
int attn_simd_enabled(void) { return simd_on ? SIMD_KIND : 0; }

/* splitmix64 (Steele, Lea and Flood 2014): 64 bits of state, integer ops
 * only, so every build draws the same numbers for a seed. */
ATTN_SMALL ATTN_NOINLINE uint64_t attn__splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Every block carries its size in a 16-byte header so attn_free can count it
 * and the payload stays 16-byte aligned. */
enum { HEADER = 16 };
static size_t in_use;

void *attn_alloc(size_t bytes) {
  if (bytes > SIZE_MAX - HEADER) return NULL;
  unsigned char *p = malloc(bytes + HEADER);
  if (!p) return NULL;
  memcpy(p, &bytes, sizeof bytes);
  in_use += bytes;
  return p + HEADER;
}

void attn_free(void *ptr) {
  if (!ptr) return;
  unsigned char *p = (unsigned char *)ptr - HEADER;
  size_t bytes;
  memcpy(&bytes, p, sizeof bytes);
  in_use -= bytes;
  free(p);
}

size_t attn_memory_in_use(void) { return in_use; }

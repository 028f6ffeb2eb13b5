/* fuzz_common.h: what the libFuzzer harnesses share.
 *
 * - A decoder that turns fuzz bytes into sizes, flags and float data. When
 *   the bytes run out, data continues from a generator seeded by the input,
 *   so large shapes still get varied numbers.
 * - Exact-size buffers (malloc of exactly the bytes the header promises), so
 *   AddressSanitizer sees any read or write one element too far.
 * - The expected status of a call: each fault the harness injects (a NULL
 *   pointer, a size <= 0, a size no buffer can have, a bad temperature or
 *   scale, a missing workspace) adds its code to a set; the call must return
 *   ATTN_OK when the set is empty and one of its codes otherwise (a call with
 *   two faults may report either).
 * - The float64 reference of the native tests, tests/native/ref64.h (its
 *   ref_... functions and error model, u = REF_U = 2^-24), used only where
 *   the scores are well conditioned (error bound <= 0.01): there a result
 *   outside 4x the bound is a bug, not rounding. Elsewhere only properties
 *   are checked (finite, weights in [0, 1], rows summing to 1, masked = 0).
 * A violation prints what was wrong and calls __builtin_trap(), so libFuzzer
 * records the input as a crash.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#define _POSIX_C_SOURCE 200809L /* posix_memalign */

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "internal.h" /* attn__set_simd: run both paths on every input */
#include "../native/ref64.h" /* ref_...: float64 reference with error bounds */

#define FZ_CHECK(cond, ...)                                                  \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz check failed (%s:%d): ", __FILE__, __LINE__);    \
      fprintf(stderr, __VA_ARGS__);                                          \
      fprintf(stderr, "\n");                                                 \
      __builtin_trap();                                                      \
    }                                                                        \
  } while (0)

/* ---- no hidden allocation ------------------------------------------------- */

/* The sanitizer runtime calls these on every malloc/free; while a kernel
 * runs, any allocation is a broken promise ("nothing allocates behind the
 * caller's back"). Weak, so a build without sanitizers still links. The
 * flag is per thread: libFuzzer's own threads (the RSS watcher mallocs as it
 * starts) must not count. */
extern int __sanitizer_install_malloc_and_free_hooks(
    void (*malloc_hook)(const volatile void *, size_t),
    void (*free_hook)(const volatile void *)) __attribute__((weak));
static _Thread_local volatile int fz_in_kernel;
static _Thread_local volatile long fz_kernel_allocs;
extern void __sanitizer_print_stack_trace(void) __attribute__((weak));
static void fz_malloc_hook(const volatile void *p, size_t n) {
  (void)p;
  if (!fz_in_kernel) return;
  fz_kernel_allocs++;
  fz_in_kernel = 0; /* printing may allocate */
  fprintf(stderr, "malloc(%zu) inside a kernel call, from:\n", n);
  if (__sanitizer_print_stack_trace) __sanitizer_print_stack_trace();
  fz_in_kernel = 1;
}
static void fz_free_hook(const volatile void *p) { (void)p; }
static inline void fz_install_hooks(void) {
  static int done;
  if (!done && __sanitizer_install_malloc_and_free_hooks)
    __sanitizer_install_malloc_and_free_hooks(fz_malloc_hook, fz_free_hook);
  done = 1;
}
/* st = expr, checking that expr allocated nothing. */
#define FZ_CALL(st, expr)                                                    \
  do {                                                                       \
    fz_install_hooks();                                                      \
    fz_kernel_allocs = 0;                                                    \
    fz_in_kernel = 1;                                                        \
    (st) = (expr);                                                           \
    fz_in_kernel = 0;                                                        \
    FZ_CHECK(fz_kernel_allocs == 0, "a kernel called malloc %ld times",      \
             (long)fz_kernel_allocs);                                        \
  } while (0)

/* ---- decoding ------------------------------------------------------------ */

typedef struct {
  const uint8_t *p;
  size_t n;
  uint64_t rng; /* continues the data once the bytes are used up */
} fz_t;

static inline fz_t fz_init(const uint8_t *data, size_t size) {
  fz_t f = {data, size, 0x9E3779B97F4A7C15ull ^ size};
  for (size_t i = 0; i < size; i++) f.rng = (f.rng ^ data[i]) * 0x100000001B3ull;
  return f;
}

static inline uint8_t fz_u8(fz_t *f) {
  if (f->n) {
    f->n--;
    return *f->p++;
  }
  f->rng ^= f->rng << 13, f->rng ^= f->rng >> 7, f->rng ^= f->rng << 17;
  return (uint8_t)(f->rng >> 24);
}

enum { FZ_HUGE = INT_MAX };

/* A size: mostly 1..24, sometimes a tile edge, sometimes <= 0 or INT_MAX. */
static inline int fz_size(fz_t *f) {
  static const int edge[16] = {31, 32, 33, 63, 64, 65, 127, 128,
                               129, 130, 255, 256, 257, 300, 4, 8};
  static const int bad[8] = {0, -1, -2, -1000, INT_MIN, INT_MIN + 1, 0, -4};
  const uint8_t s = fz_u8(f);
  if (s < 224) return 1 + s % 24;
  if (s < 240) return edge[s - 224];
  if (s < 248) return bad[s - 240];
  return FZ_HUGE;
}

/* A head count for d_model d (the MHA harnesses): < 192 a divisor of d (up
 * to 300, or d itself above 300), < 240 any 1..48, else a bad value. */
static inline int fz_heads(fz_t *f, int d) {
  static const int bad[16] = {0, -1, -2, INT_MIN, 0, -8, INT_MAX, 0,
                              -1, 1000, 0, -3, INT_MIN + 1, 0, -1, 7};
  const uint8_t b = fz_u8(f);
  if (b < 192 && d > 0) {
    int divisors[65], n = 0;
    for (int h = 1; h <= d && h <= 300 && n < 64; h++)
      if (d % h == 0) divisors[n++] = h;
    if (d > 300) divisors[n++] = d;
    return divisors[b % n];
  }
  if (b < 240) return 1 + b % 48;
  return bad[b - 240];
}

/* A float: mostly multiples of 1/16 in [-6.25, 6.2], then the awkward ones. */
static inline float fz_float(fz_t *f, int extreme) {
  const uint8_t b = fz_u8(f);
  if (b < 200) return (float)(b - 100) / 16.0f;
  switch (b) {
    case 200: case 201: return 1e4f;
    case 202: case 203: return -1e4f;
    case 204: return 1e-40f; /* subnormal */
    case 205: return -FLT_TRUE_MIN;
    case 206: return FLT_MIN;
    case 207: return -0.0f;
    case 208: return 0.0f;
    case 209: return 1e-20f;
    case 210: return extreme ? FLT_MAX : 1e3f;
    case 211: return extreme ? -FLT_MAX : -1e3f;
    case 212: return extreme ? 1e30f : 100.0f;
    case 213: return extreme ? -1e30f : -100.0f;
    case 214: return extreme ? INFINITY : 1.0f;
    case 215: return extreme ? -INFINITY : -1.0f;
    case 216: return extreme ? NAN : 0.5f;
    default: {
      const int16_t v = (int16_t)((fz_u8(f) << 8) | fz_u8(f));
      return (float)v / 256.0f;
    }
  }
}

/* temperature / scale: the invalid ones, the extreme valid ones, ordinary. */
static inline float fz_scale(fz_t *f, int d_k) {
  const uint8_t b = fz_u8(f);
  switch (b) {
    case 0: return 0.0f;
    case 1: return -0.0f;
    case 2: return -1.0f;
    case 3: return NAN;
    case 4: return INFINITY;
    case 5: return -INFINITY;
    case 6: return FLT_TRUE_MIN;
    case 7: return FLT_MAX;
    case 8: return 1e-30f;
    case 9: return 1e30f;
    case 10: return -FLT_TRUE_MIN;
    default:
      if (b >= 128 && d_k > 0) return 1.0f / sqrtf((float)d_k);
      return (float)b / 32.0f;
  }
}

static inline int fz_scale_ok(float s) { return s > 0.0f && isfinite(s); }

/* ---- buffers --------------------------------------------------------------- */

/* Exactly `count` floats (ASan poisons the byte after). */
static inline float *fz_floats(size_t count) {
  float *p = malloc(count ? count * sizeof(float) : 1);
  if (!p) abort();
  return p;
}
static inline void fz_fill(fz_t *f, float *x, size_t count, int extreme) {
  for (size_t i = 0; i < count; i++) x[i] = fz_float(f, extreme);
}
static inline void fz_poison(float *x, size_t count) {
  for (size_t i = 0; i < count; i++) x[i] = NAN;
}
/* Exactly `bytes`, 16-byte aligned; NULL for 0. */
static inline void *fz_workspace(size_t bytes) {
  if (!bytes) return NULL;
  void *p = NULL;
  if (posix_memalign(&p, 16, bytes)) abort();
  return p;
}
/* Small buffers handed over with sizes that must be rejected: a call that
 * wrongly goes ahead touches memory past them and ASan reports it. */
static float fz_dummy[4][4];

/* ---- expected status ------------------------------------------------------ */

typedef struct {
  unsigned set; /* bit (-code) for each code the call may return */
} fz_expect;

static inline void fz_may(fz_expect *e, int code) { e->set |= 1u << (unsigned)(-code); }

static inline void fz_check_status(const fz_expect *e, int got, const char *fn) {
  if (!e->set)
    FZ_CHECK(got == ATTN_OK, "%s returned %d (%s) for a valid call", fn, got,
             attn_status_name(got));
  else
    FZ_CHECK(got < 0 && got >= -31 && (e->set >> (unsigned)(-got)) & 1u,
             "%s returned %d (%s); expected one of the set 0x%x", fn, got,
             attn_status_name(got), e->set);
}

/* Bytes of a buffer of a x b x c floats, in double (never overflows). */
static inline double fz_bytes(double a, double b, double c) { return a * b * c * 4.0; }

/* Sizes are fine for the call when all are > 0. When one is INT_MAX the
 * buffers cannot be allocated here; the call can still be checked when some
 * buffer would exceed PTRDIFF_MAX bytes (no object can be that large, so the
 * call must say ATTN_E_SIZE). Returns 0: proceed, 1: sizes invalid (status
 * set), -1: skip this input (huge but not provably invalid). */
static inline int fz_classify_sizes(fz_expect *e, const int *sizes, int count,
                                    double largest_buffer_bytes) {
  int nonpos = 0, huge = 0;
  for (int i = 0; i < count; i++) {
    if (sizes[i] <= 0) nonpos = 1;
    if (sizes[i] == FZ_HUGE) huge = 1;
  }
  if (nonpos) {
    fz_may(e, ATTN_E_SIZE);
    return 1;
  }
  if (huge) {
    if (largest_buffer_bytes > (double)PTRDIFF_MAX) {
      fz_may(e, ATTN_E_SIZE);
      return 1;
    }
    return -1;
  }
  return 0;
}

/* ---- comparing with the float64 reference (tests/native/ref64.h) ---------- */

/* |got - want| <= 4 * err: a comparison that only fails on a real bug. */
static inline void fz_compare(const char *what, const float *got, const double *want,
                              const double *err, size_t count) {
  for (size_t i = 0; i < count; i++)
    FZ_CHECK(fabs((double)got[i] - want[i]) <= 4 * err[i],
             "%s[%zu] = %.9g, reference %.9g (tol %.3g)", what, i, (double)got[i],
             want[i], 4 * err[i]);
}

static inline void fz_check_finite(const char *what, const float *x, size_t count) {
  for (size_t i = 0; i < count; i++)
    FZ_CHECK(isfinite(x[i]), "%s[%zu] = %g is not finite", what, i, (double)x[i]);
}

static inline int fz_all_finite(const float *x, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

static inline double fz_max_abs(const float *x, size_t count) {
  double m = 0;
  for (size_t i = 0; i < count; i++) m = fmax(m, fabs((double)x[i]));
  return m;
}

/* Weight rows: masked entries exactly 0, others in [0, 1]; a row with a
 * visible key sums to 1 within (n + 4) 2u, a fully masked row is all 0. */
static inline void fz_check_weight_rows(const float *W, int n_q, int n_k,
                                        const attn_masks *mk, const int *visible) {
  for (int i = 0; i < n_q; i++) {
    double sum = 0;
    for (int j = 0; j < n_k; j++) {
      const float w = W[(size_t)i * n_k + j];
      if (!ref_visible(mk, i, j, n_k))
        FZ_CHECK(w == 0.0f, "masked weight [%d][%d] = %g", i, j, (double)w);
      else
        FZ_CHECK(w >= 0.0f && w <= 1.0f, "weight [%d][%d] = %g", i, j, (double)w);
      sum += w;
    }
    if (visible[i])
      FZ_CHECK(fabs(sum - 1) <= 2 * (visible[i] + 4) * REF_U, "row %d sums to 1%+g", i,
               sum - 1);
    else
      FZ_CHECK(sum == 0, "fully masked row %d has weights", i);
  }
}

/* ---- masks ------------------------------------------------------------------ */

/* The masks of one call and the exact-size buffers they point into. */
typedef struct {
  attn_masks mk;
  float *add;      /* (n_q x n_k) or NULL */
  uint8_t *pad;    /* (n_k) or NULL */
  int32_t *global; /* (count) or NULL */
} fz_masks_t;

/* A sliding window with global positions (mask flags bit 5). Bytes: the
 * window (mostly 0..15, sometimes a tile edge, INT_MAX, or a negative
 * fault), then a count byte (count = its low 3 bits; with bit 7 and a count,
 * the list is NULL: ATTN_E_NULL; with bit 6 alone, n_global is negative:
 * ATTN_E_MASK), then each position (mostly in range and ascending;
 * sometimes repeated, descending or out of range: ATTN_E_MASK). */
static inline void fz_window(fz_t *f, fz_masks_t *m, fz_expect *e, int n_q, int n_k) {
  static const int widths[8] = {127, 128, 129, 1000, INT_MAX, -1, INT_MIN, -128};
  const uint8_t wb = fz_u8(f);
  m->mk.has_window = 1;
  m->mk.window = wb < 224 ? wb % 16 : widths[wb % 8];
  if (m->mk.window < 0) fz_may(e, ATTN_E_MASK);
  const uint8_t cb = fz_u8(f);
  const int count = cb % 8, n = n_q > n_k ? n_q : n_k;
  m->global = count ? malloc(sizeof(int32_t) * (size_t)count) : NULL;
  if (count && !m->global) abort();
  int64_t prev = -1;
  for (int g = 0; g < count; g++) {
    const uint8_t b = fz_u8(f);
    int64_t p;
    if (b < 200) p = prev + 1 + b % 37 % (n > 0 ? n : 1); /* ascending */
    else if (b < 220) p = prev;                            /* repeated */
    else if (b < 235) p = prev - 1;                        /* descending */
    else p = b < 245 ? n : -1;                             /* out of range */
    if (p < 0 || p >= n || p <= prev) fz_may(e, ATTN_E_MASK);
    m->global[g] = (int32_t)(p > INT32_MAX ? INT32_MAX : p);
    prev = p;
  }
  m->mk.global = m->global;
  m->mk.n_global = count;
  if ((cb & 0x80) && count) { /* the positions are there, the pointer is not */
    m->mk.global = NULL;
    fz_may(e, ATTN_E_NULL);
  } else if ((cb & 0xC0) == 0x40) {
    m->mk.n_global = -1 - count;
    fz_may(e, ATTN_E_MASK);
  }
}

/* Masks from the bytes, for every entry that takes them. Flags: bit 0
 * causal, bit 1 key padding, bit 2 additive, bit 3 no struct at all, bit 5
 * a sliding window with global positions (fz_window), bit 6 one malformed
 * value (a byte: causal 2 or -1, has_window 2, or a key padding byte 2).
 * Every fault adds its status to e, and so does an additive mask with NaN
 * or +INFINITY in it (extreme data draws them). Bytes: key padding,
 * additive mask, window, malformed value. Free with fz_free_masks. */
static inline const attn_masks *fz_masks(fz_t *f, fz_masks_t *m, uint8_t flags, int n_q,
                                         int n_k, int extreme, fz_expect *e) {
  memset(m, 0, sizeof *m);
  if (flags & 8) return NULL;
  m->mk.causal = flags & 1;
  if (flags & 2) {
    m->pad = malloc((size_t)n_k);
    if (!m->pad) abort();
    for (int j = 0; j < n_k; j++) m->pad[j] = (fz_u8(f) & 3) == 0;
    m->mk.key_padding = m->pad;
  }
  if (flags & 4) {
    const size_t count = (size_t)n_q * n_k;
    m->add = fz_floats(count);
    for (size_t i = 0; i < count; i++) {
      const uint8_t b = fz_u8(f);
      m->add[i] = b < 64 ? -INFINITY : b < 128 ? 0.0f : fz_float(f, extreme);
      if (isnan(m->add[i]) || m->add[i] == INFINITY) fz_may(e, ATTN_E_MASK);
    }
    m->mk.add = m->add;
  }
  if (flags & 32) fz_window(f, m, e, n_q, n_k);
  if (flags & 64) {
    const uint8_t b = fz_u8(f);
    switch (b % 4) {
      case 0: m->mk.causal = 2; break;
      case 1: m->mk.causal = -1; break;
      case 2: m->mk.has_window = 2; break;
      default:
        if (m->pad) m->pad[b / 4 % n_k] = 2;
        else m->mk.causal = 2;
    }
    fz_may(e, ATTN_E_MASK);
  }
  return &m->mk;
}

static inline void fz_free_masks(fz_masks_t *m) {
  free(m->add), free(m->pad), free(m->global);
}

#endif

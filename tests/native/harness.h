/* harness.h: what every native test file shares (harness.c): cases and
 * checks, comparison with the float64 reference (ref64.h), seeded random
 * numbers, exact-size buffers, the masks of the attention tests, and main().
 *
 * One test file per area of src/ (test_<area>.c), each its own program:
 * it defines TEST_GROUPS, and harness.c's main() runs every group in a
 * child process (a crash fails one group, not the run), on the SIMD and on
 * the scalar path where the group asks for both.
 *
 * Build and run one (tests/native.test.js builds and runs them all):
 *   cc -std=c11 -Wall -Wextra -Werror -fsanitize=address,undefined
 *      -fno-sanitize-recover=all -g -O1 -Isrc tests/native/test_<area>.c
 *      tests/native/harness.c <the sources of src/sources.txt> -lm -o test_<area>
 *   ./test_<area> [--no-fork] [--seed=N] [--only=GROUP]
 * Output: one line per failed case (with the seed), one line per group, and
 * last "N passed, N failed" (cases). Exit status 1 when anything failed.
 *
 * ---- Tolerances: an error model, not a guess -------------------------------
 * Alongside every reference value the reference (tests/native/ref64.h, shared
 * with the fuzzers; the error model is spelled out there) computes a bound on
 * the error float32 arithmetic may make, whatever the summation order or
 * vector width (u = 2^-24, first-order terms).
 * A value passes when |got - want| <= 2 * bound + floor: the factor 2 covers
 * the dropped second-order terms; the floor (a few FLT_MIN) covers results
 * that float32 flushes to zero or to subnormals (the kernels' exp flushes
 * exp(x < -87.3) to 0). So a tolerance is tight where the computation is well
 * conditioned (about 1e-7 relative for small sizes) and loosens only where
 * float32 itself cannot do better. Exact claims are checked exactly: masked
 * weights are 0.0f, fully masked rows give 0.0f weights and outputs.
 */
#ifndef HARNESS_H
#define HARNESS_H

#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "internal.h" /* attn__set_simd, and the internal kernels some files test */
#include "ref64.h"    /* the float64 reference with error bounds */

/* ---- the groups of a test file -------------------------------------------- */

typedef struct {
  const char *name;
  void (*fn)(void);
  int both_paths; /* run on the SIMD and on the scalar path */
} test_group;

/* Each test file defines these. */
extern const test_group TEST_GROUPS[];
extern const int N_TEST_GROUPS;

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---- cases and checks ------------------------------------------------------- */

extern char g_group[64]; /* the running group, "attention[simd]" */

/* A case: begin("what it computes", ...), checks, end(). A case with a
 * failed check counts once as failed. */
void begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void end(void);

#define CHECK(cond, ...)                                                     \
  do {                                                                       \
    if (!(cond)) fail(__VA_ARGS__);                                          \
  } while (0)

void expect_status(int got, int want, const char *call);
/* got must be a or b (a call with two faults may name either). */
void expect_status_in(int got, int a, int b, const char *call);

/* got (count floats, rows of `cols`) against want +- (2 err + floor). */
void compare(const char *what, const float *got, const double *want, const double *err,
             size_t count, size_t cols, double floor);
void check_finite(const char *what, const float *x, size_t count);
void check_unchanged(const char *what, const void *now, const void *before, size_t bytes);

/* ---- random numbers: splitmix64, one stream per label ---------------------- */

typedef struct {
  uint64_t s;
} rng_t;

uint64_t rng_next(rng_t *r);
double rng_unit(rng_t *r); /* [0, 1) */
float rng_sym(rng_t *r);   /* [-1, 1) */
rng_t rng_for(const char *label);

/* ---- buffers: exact sizes so that ASan sees one float too far -------------- */

void *xmalloc(size_t bytes);
float *fbuf(size_t count);
double *dbuf(size_t count); /* zeroed */
void *clone_bytes(const void *p, size_t bytes);
/* Workspace of exactly `bytes`, 16-byte aligned; NULL when bytes == 0. */
void *wsbuf(size_t bytes);
void fill(rng_t *r, float *x, size_t count, float scale);
/* Outputs start as NaN so an element the kernel forgot to write shows. */
void poison(float *x, size_t count);

/* Sizes around the lane width (4), the register tiles (4 x 8) and the key
 * and query tiles of the kernels (64, 128 at the time of writing). */
enum { N_SIZES = 18 };
extern const int SIZES[N_SIZES];

/* ---- masks of the attention tests ------------------------------------------ */

enum { MK_NONE, MK_EMPTY, MK_CAUSAL, MK_PADDING, MK_ADD, MK_ALL, MK_WINDOW,
       MK_WINDOW_ALL, MK_MODES };
extern const char *const MK_NAMES[MK_MODES];

/* Masks of one mode; the buffers are exact-size and owned by the caller
 * (free(*add), free(*pad)). The additive one holds finite values and about
 * a quarter -INFINITY, with one whole row blocked; padding about 30%; the
 * window 0, 1, 3, 64 or 130 keys each side with 0 to 3 global positions. */
const attn_masks *make_masks(attn_masks *mk, float **add, uint8_t **pad, rng_t *r, int mode,
                             int n_q, int n_k);

#endif

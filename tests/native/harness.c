/* harness.c: the shared part of the native tests (harness.h says what and
 * how to run them). */
#include "harness.h"

#include <stdarg.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* attn_alloc(SIZE_MAX) must return NULL, not abort inside ASan. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "allocator_may_return_null=1";
}

/* ==== cases and checks ===================================================== */

typedef struct {
  long passed, failed;
} tally_t;

static tally_t *g_tally;     /* shared with forked groups (mmap) */
static int g_fork = 1;       /* run each group in a child: a crash fails one */
static uint64_t g_seed = 0x5EEDA77E;
char g_group[64];            /* "attention[simd]" */
static char g_case[400];     /* what the current case computes */
static int g_case_fails;     /* failed checks in the current case */
static double g_worst_ratio; /* largest |got - want| / tolerance seen */
static char g_worst_what[640];

void begin(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_case, sizeof g_case, fmt, ap);
  va_end(ap);
  g_case_fails = 0;
}

void fail(const char *fmt, ...) {
  if (g_case_fails < 4) {
    printf("FAIL %s | %s | ", g_group, g_case);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf(" [seed=0x%" PRIx64 "]\n", g_seed);
  } else if (g_case_fails == 4) {
    printf("FAIL %s | %s | ... further failures of this case not shown\n",
           g_group, g_case);
  }
  fflush(stdout);
  g_case_fails++;
}

void end(void) {
  if (g_case_fails)
    g_tally->failed++;
  else
    g_tally->passed++;
}

#define CHECK(cond, ...)                                                     \
  do {                                                                       \
    if (!(cond)) fail(__VA_ARGS__);                                          \
  } while (0)

void expect_status(int got, int want, const char *call) {
  CHECK(got == want, "%s returned %d (%s), expected %d (%s)", call, got,
        attn_status_name(got), want, attn_status_name(want));
}

void expect_status_in(int got, int a, int b, const char *call) {
  CHECK(got == a || got == b, "%s returned %d (%s), expected %d or %d", call,
        got, attn_status_name(got), a, b);
}

void compare(const char *what, const float *got, const double *want,
                    const double *err, size_t count, size_t cols,
                    double floor) {
  for (size_t i = 0; i < count; i++) {
    const double tol = 2.0 * err[i] + floor;
    const double diff = fabs((double)got[i] - want[i]);
    if (tol > 0 && diff / tol > g_worst_ratio && diff > 0) {
      g_worst_ratio = diff / tol;
      snprintf(g_worst_what, sizeof g_worst_what, "%s of %s (error %.3g, tolerance %.3g)", what,
               g_case, diff, tol);
    }
    if (!(diff <= tol)) /* also catches NaN */
      fail("%s[%zu][%zu] = %.9g, want %.9g (diff %.3g > tol %.3g)", what,
           i / cols, i % cols, (double)got[i], want[i], diff, tol);
  }
}

void check_finite(const char *what, const float *x, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (!isfinite(x[i])) {
      fail("%s[%zu] = %g is not finite", what, i, (double)x[i]);
      return;
    }
}

void check_unchanged(const char *what, const void *now,
                            const void *before, size_t bytes) {
  CHECK(memcmp(now, before, bytes) == 0, "input %s was modified", what);
}

/* ---- random numbers: the kernels' splitmix64, one stream per label ------- */

uint64_t rng_next(rng_t *r) { return attn__splitmix64(&r->s); }
double rng_unit(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }
float rng_sym(rng_t *r) { return (float)(2.0 * rng_unit(r) - 1.0); }

rng_t rng_for(const char *label) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a of the label, then the seed */
  for (const char *c = label; *c; c++) h = (h ^ (uint8_t)*c) * 1099511628211ull;
  rng_t r = {h ^ g_seed};
  return r;
}

/* ---- buffers: exact sizes so that ASan sees one float too far ----------- */

void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    printf("out of memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}
float *fbuf(size_t count) { return xmalloc(count * sizeof(float)); }
double *dbuf(size_t count) {
  double *p = xmalloc(count * sizeof(double));
  memset(p, 0, count * sizeof(double));
  return p;
}
void *clone_bytes(const void *p, size_t bytes) {
  void *q = xmalloc(bytes);
  memcpy(q, p, bytes);
  return q;
}
void *wsbuf(size_t bytes) {
  if (!bytes) return NULL;
  void *p = NULL;
  if (posix_memalign(&p, 16, bytes) != 0) {
    printf("out of memory (workspace %zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}
void fill(rng_t *r, float *x, size_t count, float scale) {
  for (size_t i = 0; i < count; i++) x[i] = scale * rng_sym(r);
}
void poison(float *x, size_t count) {
  for (size_t i = 0; i < count; i++) x[i] = NAN;
}

const int SIZES[N_SIZES] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129};

/* ==== masks ================================================================ */

const char *const MK_NAMES[MK_MODES] = {"none", "empty struct", "causal", "key padding",
                                        "additive", "all three", "window + global",
                                        "window + global + all three"};

/* Up to 3 global positions, ascending: the struct points here. */
static int32_t g_global[3];

/* A sliding window of 0, 1, 3, 64 or 130 keys each side, and 0 to 3 global
 * positions anywhere in 0 .. max(n_q, n_k) - 1. */
static void make_window(attn_masks *mk, rng_t *r, int n_q, int n_k) {
  static const int widths[5] = {0, 1, 3, 64, 130};
  const int n = n_q > n_k ? n_q : n_k;
  mk->has_window = 1;
  mk->window = widths[rng_next(r) % 5];
  mk->n_global = 0;
  const int want = (int)(rng_next(r) % 4);
  for (int g = 0; g < want; g++) {
    const int p = (int)(rng_next(r) % (uint64_t)n);
    int at = mk->n_global;
    while (at > 0 && g_global[at - 1] > p) at--;
    if (at > 0 && g_global[at - 1] == p) continue; /* drawn twice */
    memmove(g_global + at + 1, g_global + at, sizeof(int32_t) * (size_t)(mk->n_global - at));
    g_global[at] = p, mk->n_global++;
  }
  mk->global = mk->n_global ? g_global : NULL;
}

const attn_masks *make_masks(attn_masks *mk, float **add, uint8_t **pad,
                                    rng_t *r, int mode, int n_q, int n_k) {
  *add = NULL, *pad = NULL;
  memset(mk, 0, sizeof *mk);
  if (mode == MK_NONE) return NULL;
  const int all = mode == MK_ALL || mode == MK_WINDOW_ALL;
  if (mode == MK_WINDOW || mode == MK_WINDOW_ALL) make_window(mk, r, n_q, n_k);
  if (mode == MK_CAUSAL || all) mk->causal = 1;
  if (mode == MK_PADDING || all) {
    *pad = xmalloc((size_t)n_k);
    for (int j = 0; j < n_k; j++) (*pad)[j] = rng_unit(r) < 0.3;
    mk->key_padding = *pad;
  }
  if (mode == MK_ADD || all) {
    *add = fbuf((size_t)n_q * n_k);
    for (size_t i = 0; i < (size_t)n_q * n_k; i++)
      (*add)[i] = rng_unit(r) < 0.25 ? -INFINITY : 3.0f * rng_sym(r);
    if (n_q > 1)
      for (int j = 0; j < n_k; j++) (*add)[(size_t)(n_q / 2) * n_k + j] = -INFINITY;
    mk->add = *add;
  }
  return mk;
}

/* ==== main ================================================================= */

static void run_group(const test_group *g, int simd, const char *only) {
  snprintf(g_group, sizeof g_group, "%s[%s]", g->name, simd ? "simd" : "scalar");
  if (only && !strstr(g_group, only)) return;
  const tally_t before = *g_tally;
  fflush(stdout);
  pid_t pid = g_fork ? fork() : -1;
  if (pid == 0 || pid < 0) {
    attn__set_simd(simd);
    g_worst_ratio = 0;
    g->fn();
    if (g_worst_ratio > 0)
      printf("note %s: worst error / tolerance %.3f: %s\n", g_group, g_worst_ratio, g_worst_what);
    fflush(stdout);
    if (pid == 0) exit(0); /* exit, not _exit: LeakSanitizer checks the child */
  } else {
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      if (WIFSIGNALED(st))
        printf("FAIL %s | crashed with signal %d after %ld cases (see above)\n",
               g_group, WTERMSIG(st), g_tally->passed + g_tally->failed -
               before.passed - before.failed);
      else
        printf("FAIL %s | exited with status %d: a sanitizer report or a leak "
               "(see above)\n", g_group, WEXITSTATUS(st));
      g_tally->failed++;
    }
  }
  const long p = g_tally->passed - before.passed, f = g_tally->failed - before.failed;
  printf("%-4s %-22s %5ld passed, %ld failed\n", f ? "FAIL" : "ok", g_group, p, f);
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  const char *env_seed = getenv("ATTN_TEST_SEED");
  if (env_seed) g_seed = strtoull(env_seed, NULL, 0);
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--no-fork") == 0)
      g_fork = 0;
    else if (strncmp(argv[i], "--seed=", 7) == 0)
      g_seed = strtoull(argv[i] + 7, NULL, 0);
    else if (strncmp(argv[i], "--only=", 7) == 0)
      only = argv[i] + 7;
    else {
      printf("usage: %s [--no-fork] [--seed=N] [--only=GROUP]\n", argv[0]);
      return 2;
    }
  }
  static tally_t local;
  g_tally = &local;
  if (g_fork) {
    void *shared = mmap(NULL, sizeof(tally_t), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared != MAP_FAILED) g_tally = shared, memset(g_tally, 0, sizeof *g_tally);
    else g_fork = 0;
  }
  printf("%s: seed 0x%" PRIx64 " (set ATTN_TEST_SEED or --seed= to change)\n", argv[0], g_seed);
  for (int i = 0; i < N_TEST_GROUPS; i++) {
    run_group(&TEST_GROUPS[i], 1, only);
    if (TEST_GROUPS[i].both_paths) run_group(&TEST_GROUPS[i], 0, only);
  }
  attn__set_simd(1);
  const long passed = g_tally->passed, failed = g_tally->failed;
  printf("%ld passed, %ld failed\n", passed, failed);
  return failed ? 1 : 0;
}

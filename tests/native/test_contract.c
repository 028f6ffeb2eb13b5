/* test_contract.c: the C contract of src/attention.h, tested the way sqlite
 * tests its "API misuse": a table of bad arguments for every exported
 * function, one fault per row (a NULL pointer where none is allowed, a size
 * <= 0 or too large to index, a NaN, zero or negative scale, each kind of
 * malformed mask, a bad model config, token id or optimizer setting, a
 * missing workspace), each expecting the negative status attention.h lists;
 * and beside them the same calls with nothing wrong, expecting ATTN_OK, so a
 * row fails for its one fault and for no other.
 *
 * Every buffer is exact-size (arrays of exactly the floats a shape needs,
 * workspaces of exactly the bytes asked for), so a call that goes ahead
 * where it should have stopped reads or writes past one, and AddressSanitizer
 * reports it; a call that crashes fails its group.
 *
 * For tests/native.test.js each row prints "covers <function>", and each
 * row that expects a status "returns <function> <status>": every function
 * declared in attention.h must be covered, and return exactly the statuses
 * its "Statuses:" line lists, each at least once.
 */
#include "harness.h"

/* ==== rows ================================================================= */

static void covers(const char *fn) { printf("covers %s\n", fn); }

/* A call of fn that must return want. */
static void row(const char *fn, const char *what, int got, int want) {
  begin("%s: %s", fn, what);
  char call[256];
  snprintf(call, sizeof call, "%s (%s)", fn, what);
  expect_status(got, want, call);
  end();
  covers(fn);
  if (want != ATTN_OK) printf("returns %s %d\n", fn, want);
}

/* A call with two faults, which may name either. */
static void row_either(const char *fn, const char *what, int got, int a, int b) {
  begin("%s: %s", fn, what);
  expect_status_in(got, a, b, what);
  end();
  covers(fn);
}

/* A function that reports a bad argument by its value (a size of 0, NULL). */
static void row_value(const char *fn, const char *what, int ok) {
  begin("%s: %s", fn, what);
  CHECK(ok, "%s: %s", fn, what);
  end();
  covers(fn);
}

static const int NONPOSITIVE[] = {0, -1, INT_MIN};
static const float BAD_SCALES[] = {0.0f, -0.0f, -0.5f, -FLT_MIN, NAN, INFINITY, -INFINITY};

/* ==== masks: n_q = 2 queries, n_k = 3 keys ================================ */

enum { NQ = 2, NK = 3, DK = 4, DV = 5 };

static const int32_t G_OK[] = {0, 2}, G_DOWN[] = {2, 0}, G_TWICE[] = {1, 1}, G_FAR[] = {3},
                     G_NEG[] = {-1};
static const uint8_t PAD_TWO[NK] = {0, 2, 0}, PAD_ALL[NK] = {1, 1, 1};
static const float ADD_NAN[NQ * NK] = {0, NAN, 0, 0, 0, 0},
                   ADD_PLUS_INF[NQ * NK] = {0, 0, 0, INFINITY, 0, 0},
                   ADD_OK[NQ * NK] = {0, -INFINITY, 1, -2, 0, -INFINITY};

typedef struct {
  attn_masks mk;
  int want;
  const char *what;
} mask_row;

/* Every way attn_masks can be malformed. */
static const mask_row BAD_MASKS[] = {
    {{.has_window = 1, .window = -3}, ATTN_E_MASK, "window -3"},
    {{.has_window = 1, .window = INT_MIN}, ATTN_E_MASK, "window INT_MIN"},
    {{.has_window = 1, .window = 1, .global = NULL, .n_global = 2}, ATTN_E_NULL,
     "n_global 2, global NULL"},
    {{.has_window = 1, .window = 1, .global = G_OK, .n_global = -1}, ATTN_E_MASK, "n_global -1"},
    {{.has_window = 1, .window = 1, .global = G_DOWN, .n_global = 2}, ATTN_E_MASK,
     "global positions descending"},
    {{.has_window = 1, .window = 1, .global = G_TWICE, .n_global = 2}, ATTN_E_MASK,
     "a global position twice"},
    {{.has_window = 1, .window = 1, .global = G_FAR, .n_global = 1}, ATTN_E_MASK,
     "a global position past max(n_q, n_k)"},
    {{.has_window = 1, .window = 1, .global = G_NEG, .n_global = 1}, ATTN_E_MASK,
     "a global position < 0"},
    {{.causal = 2}, ATTN_E_MASK, "causal 2"},
    {{.causal = -1}, ATTN_E_MASK, "causal -1"},
    {{.has_window = 2, .window = 1}, ATTN_E_MASK, "has_window 2"},
    {{.key_padding = PAD_TWO}, ATTN_E_MASK, "a key padding byte 2"},
    {{.add = ADD_NAN}, ATTN_E_MASK, "NaN in the additive mask"},
    {{.add = ADD_PLUS_INF}, ATTN_E_MASK, "+inf in the additive mask"},
    {{.causal = 1, .first_query = -1}, ATTN_E_MASK, "first_query -1"},
    {{.first_query = INT_MIN}, ATTN_E_MASK, "first_query INT_MIN"},
};

/* Masks that are fine, edge cases included. */
static const mask_row GOOD_MASKS[] = {
    {{0}, ATTN_OK, "a zeroed struct"},
    {{.has_window = 1, .window = 0}, ATTN_OK, "window 0"},
    {{.has_window = 1, .window = INT_MAX, .global = G_OK, .n_global = 2}, ATTN_OK,
     "window INT_MAX, global positions 0 and 2"},
    {{.has_window = 0, .window = -5, .global = G_DOWN, .n_global = 2}, ATTN_OK,
     "no window: window and global positions unread"},
    {{.causal = 1, .key_padding = PAD_ALL, .add = ADD_OK}, ATTN_OK,
     "causal, every key padded, -inf in the additive mask"},
    {{.has_window = 1, .window = 1, .global = G_FAR, .n_global = 1, .first_query = 2}, ATTN_OK,
     "first_query 2: global position 3 is a query's"},
    {{.causal = 1, .has_window = 1, .window = 0, .first_query = INT_MAX}, ATTN_OK,
     "causal, window 0, first_query INT_MAX"},
};

/* ==== the core: names, memory, the scan, the layouts ====================== */

static void contract_core(void) {
  const int codes[] = {ATTN_OK,      ATTN_E_NULL,  ATTN_E_SIZE,  ATTN_E_HEADS,
                       ATTN_E_TEMP,  ATTN_E_WORKSPACE, ATTN_E_MASK, ATTN_E_TOKEN,
                       ATTN_E_CONFIG, ATTN_E_OPTIM};
  const char *unknown = attn_status_name(-99);
  row_value("attn_status_name", "an unknown code has a name", unknown && unknown[0]);
  for (int i = 0; i < N_OF(codes); i++)
    row_value("attn_status_name", "each code has its own name",
              attn_status_name(codes[i]) && strcmp(attn_status_name(codes[i]), unknown) != 0);
  row_value("attn_simd_enabled", "0, 1 or 2", attn_simd_enabled() >= 0 && attn_simd_enabled() <= 2);
  const int tiles_bad[] = {-1, 2, INT_MIN, INT_MAX};
  for (int i = 0; i < N_OF(tiles_bad); i++)
    row("attn_set_gemm_tiles", "no such tile", attn_set_gemm_tiles(tiles_bad[i]), ATTN_E_CONFIG);
  row("attn_set_gemm_tiles", "6 x 8 (native builds have it)", attn_set_gemm_tiles(ATTN_TILES_6X8), ATTN_OK);
  row("attn_set_gemm_tiles", "2 x 16", attn_set_gemm_tiles(ATTN_TILES_2X16), ATTN_OK);

  const size_t in_use = attn_memory_in_use();
  const size_t huge[] = {SIZE_MAX, SIZE_MAX - 8, SIZE_MAX / 2};
  for (int i = 0; i < 3; i++) {
    void *p = attn_alloc(huge[i]);
    row_value("attn_alloc", "an impossible size gives NULL", p == NULL);
    if (p) attn_free(p);
  }
  attn_free(NULL);
  row_value("attn_free", "NULL is nothing", 1);
  row_value("attn_memory_in_use", "unchanged by refused allocations", attn_memory_in_use() == in_use);

  row_value("attn_first_nonfinite", "NULL: 0, nothing there can be trusted",
            attn_first_nonfinite(NULL, 5, 0) == 0 && attn_first_nonfinite(NULL, 0, 1) == 0);

  int n = 0;
  while (attn_layout_name(n)) n++;
  row_value("attn_layout_name", "NULL past the last entry and for i < 0",
            n > 0 && !attn_layout_name(n) && !attn_layout_name(-1) && !attn_layout_name(INT_MIN));
  row_value("attn_layout_value", "-1 past the last entry and for i < 0",
            attn_layout_value(n) == -1 && attn_layout_value(-1) == -1 && attn_layout_value(0) > 0);
}

/* ==== matmul, softmax, positional encoding ================================ */

static float A6[6], B6[6], C6[6]; /* 2 x 3, 3 x 2, 2 x 2 (+2) */

static void contract_small(void) {
  for (int i = 0; i < 6; i++) A6[i] = B6[i] = (float)i / 6;
  /* matmul: C (2 x 2) = A (2 x 3) B (3 x 2) */
  row("attn_matmul", "valid", attn_matmul(C6, A6, B6, 2, 3, 2, 0), ATTN_OK);
  row("attn_matmul", "valid, B^T", attn_matmul(C6, A6, B6, 2, 3, 2, 1), ATTN_OK);
  row("attn_matmul", "C NULL", attn_matmul(NULL, A6, B6, 2, 3, 2, 0), ATTN_E_NULL);
  row("attn_matmul", "A NULL", attn_matmul(C6, NULL, B6, 2, 3, 2, 0), ATTN_E_NULL);
  row("attn_matmul", "B NULL", attn_matmul(C6, A6, NULL, 2, 3, 2, 1), ATTN_E_NULL);
  for (int i = 0; i < 3; i++) {
    const int s = NONPOSITIVE[i];
    row("attn_matmul", "m <= 0", attn_matmul(C6, A6, B6, s, 3, 2, 0), ATTN_E_SIZE);
    row("attn_matmul", "k <= 0", attn_matmul(C6, A6, B6, 2, s, 2, 0), ATTN_E_SIZE);
    row("attn_matmul", "n <= 0", attn_matmul(C6, A6, B6, 2, 3, s, 1), ATTN_E_SIZE);
  }
  /* 2^31 x 2^31 floats exceed any address space: the call cannot be valid */
  row("attn_matmul", "INT_MAX sizes", attn_matmul(C6, A6, B6, INT_MAX, INT_MAX, INT_MAX, 0),
      ATTN_E_SIZE);
  row("attn_matmul", "m x k past the address space", attn_matmul(C6, A6, B6, INT_MAX, INT_MAX, 1, 0),
      ATTN_E_SIZE);
  row_either("attn_matmul", "C NULL and m 0", attn_matmul(NULL, A6, B6, 0, 3, 2, 0), ATTN_E_NULL,
             ATTN_E_SIZE);

  /* softmax and its backward: 2 x 3 */
  row("attn_softmax_rows", "valid", attn_softmax_rows(C6, A6, 2, 3, 1.0f), ATTN_OK);
  row("attn_softmax_rows", "in place", attn_softmax_rows(C6, C6, 2, 3, 1.0f), ATTN_OK);
  row("attn_softmax_rows", "T the smallest subnormal", attn_softmax_rows(C6, A6, 2, 3, FLT_TRUE_MIN),
      ATTN_OK);
  row("attn_softmax_rows", "T FLT_MAX", attn_softmax_rows(C6, A6, 2, 3, FLT_MAX), ATTN_OK);
  row("attn_softmax_rows", "out NULL", attn_softmax_rows(NULL, A6, 2, 3, 1), ATTN_E_NULL);
  row("attn_softmax_rows", "in NULL", attn_softmax_rows(C6, NULL, 2, 3, 1), ATTN_E_NULL);
  row("attn_softmax_backward", "valid", attn_softmax_backward(C6, A6, B6, 2, 3, 1.0f), ATTN_OK);
  row("attn_softmax_backward", "dX NULL", attn_softmax_backward(NULL, A6, B6, 2, 3, 1), ATTN_E_NULL);
  row("attn_softmax_backward", "Y NULL", attn_softmax_backward(C6, NULL, B6, 2, 3, 1), ATTN_E_NULL);
  row("attn_softmax_backward", "dY NULL", attn_softmax_backward(C6, A6, NULL, 2, 3, 1), ATTN_E_NULL);
  for (int i = 0; i < 3; i++) {
    const int s = NONPOSITIVE[i];
    row("attn_softmax_rows", "rows <= 0", attn_softmax_rows(C6, A6, s, 3, 1), ATTN_E_SIZE);
    row("attn_softmax_rows", "cols <= 0", attn_softmax_rows(C6, A6, 2, s, 1), ATTN_E_SIZE);
    row("attn_softmax_backward", "rows <= 0", attn_softmax_backward(C6, A6, B6, s, 3, 1), ATTN_E_SIZE);
    row("attn_softmax_backward", "cols <= 0", attn_softmax_backward(C6, A6, B6, 2, s, 1), ATTN_E_SIZE);
  }
  row("attn_softmax_rows", "INT_MAX sizes", attn_softmax_rows(C6, A6, INT_MAX, INT_MAX, 1), ATTN_E_SIZE);
  row("attn_softmax_backward", "INT_MAX sizes", attn_softmax_backward(C6, A6, B6, INT_MAX, INT_MAX, 1),
      ATTN_E_SIZE);
  for (int i = 0; i < N_OF(BAD_SCALES); i++) {
    char what[64];
    snprintf(what, sizeof what, "temperature %g", (double)BAD_SCALES[i]);
    row("attn_softmax_rows", what, attn_softmax_rows(C6, A6, 2, 3, BAD_SCALES[i]), ATTN_E_TEMP);
    row("attn_softmax_backward", what, attn_softmax_backward(C6, A6, B6, 2, 3, BAD_SCALES[i]),
        ATTN_E_TEMP);
  }
  row_either("attn_softmax_rows", "in NULL, T NaN", attn_softmax_rows(C6, NULL, 2, 3, NAN),
             ATTN_E_NULL, ATTN_E_TEMP);
  row_either("attn_softmax_rows", "rows < 0, T 0", attn_softmax_rows(C6, A6, -3, 3, 0), ATTN_E_SIZE,
             ATTN_E_TEMP);

  /* positional encoding: 2 x 3 */
  row("attn_positional_encoding", "valid", attn_positional_encoding(C6, 2, 3), ATTN_OK);
  row("attn_positional_encoding", "out NULL", attn_positional_encoding(NULL, 2, 3), ATTN_E_NULL);
  for (int i = 0; i < 3; i++) {
    row("attn_positional_encoding", "n <= 0", attn_positional_encoding(C6, NONPOSITIVE[i], 3),
        ATTN_E_SIZE);
    row("attn_positional_encoding", "d <= 0", attn_positional_encoding(C6, 2, NONPOSITIVE[i]),
        ATTN_E_SIZE);
  }
  row("attn_positional_encoding", "INT_MAX sizes", attn_positional_encoding(C6, INT_MAX, INT_MAX),
      ATTN_E_SIZE);
}

/* ==== scaled dot-product attention: n_q 2, n_k 3, d_k 4, d_v 5 =========== */

static float Q[NQ * DK], K[NK * DK], V[NK * DV], OUT[NQ * DV], W[NQ * NK], LSE[NQ],
    DOUT[NQ * DV], DQ[NQ * DK], DK_[NK * DK], DV_[NK * DV];
static void *WS_FUSED, *WS_BACKWARD; /* exactly the bytes the sizes ask for */

static void attention_fixture(void) {
  for (int i = 0; i < NQ * DK; i++) Q[i] = (float)i / 8;
  for (int i = 0; i < NK * DK; i++) K[i] = (float)(i % 5) / 5;
  for (int i = 0; i < NK * DV; i++) V[i] = (float)i / 15;
  for (int i = 0; i < NQ * DV; i++) OUT[i] = DOUT[i] = (float)i / 10;
  for (int i = 0; i < NQ * NK; i++) W[i] = 1.0f / NK;
  LSE[0] = LSE[1] = 1.0f;
  WS_FUSED = wsbuf(attn_attention_workspace_size(NQ, NK, DK, DV, 0));
  WS_BACKWARD = wsbuf(attn_attention_backward_workspace_size(NQ, NK, DK, DV));
}

static void attention_fixture_free(void) {
  free(WS_FUSED), free(WS_BACKWARD);
  WS_FUSED = WS_BACKWARD = NULL;
}

typedef struct {
  float *out, *weights, *lse;
  const float *Q, *K, *V;
  int n_q, n_k, d_k, d_v;
  float scale;
  const attn_masks *masks;
  void *ws;
} att_args;

/* A valid call: with the weights (fused 0) or the fused path (fused 1). */
static att_args att_valid(int fused) {
  return (att_args){OUT, fused ? NULL : W, LSE, Q, K, V, NQ, NK, DK, DV, 0.5f, NULL,
                    fused ? WS_FUSED : NULL};
}

static int att_call(const att_args *a) {
  return attn_attention(a->out, a->weights, a->Q, a->K, a->V, a->n_q, a->n_k, a->d_k, a->d_v,
                        a->scale, a->masks, a->ws);
}

static int lse_call(const att_args *a) {
  return attn_attention_lse(a->out, a->lse, a->Q, a->K, a->V, a->n_q, a->n_k, a->d_k, a->d_v,
                            a->scale, a->masks, a->ws);
}

/* The rows every attention entry shares: its sizes, scale and masks. `fused`
 * picks the path; ROWS_OF(fn, call, fused) runs them. */
#define ATT_ROW(fn, call, fused, what, edit, want) \
  do {                                             \
    att_args a = att_valid(fused);                 \
    edit;                                          \
    row(fn, what, call(&a), want);                 \
  } while (0)

static void shared_attention_rows(const char *fn, int (*call)(const att_args *), int fused) {
  for (int i = 0; i < 3; i++) {
    const int s = NONPOSITIVE[i];
    ATT_ROW(fn, call, fused, "n_q <= 0", a.n_q = s, ATTN_E_SIZE);
    ATT_ROW(fn, call, fused, "n_k <= 0", a.n_k = s, ATTN_E_SIZE);
    ATT_ROW(fn, call, fused, "d_k <= 0", a.d_k = s, ATTN_E_SIZE);
    ATT_ROW(fn, call, fused, "d_v <= 0", a.d_v = s, ATTN_E_SIZE);
  }
  ATT_ROW(fn, call, fused, "INT_MAX sizes", (a.n_q = a.n_k = a.d_k = a.d_v = INT_MAX), ATTN_E_SIZE);
  ATT_ROW(fn, call, fused, "Q past the address space", (a.n_q = INT_MAX, a.d_k = INT_MAX),
          ATTN_E_SIZE);
  for (int i = 0; i < N_OF(BAD_SCALES); i++) {
    char what[64];
    snprintf(what, sizeof what, "scale %g", (double)BAD_SCALES[i]);
    ATT_ROW(fn, call, fused, what, a.scale = BAD_SCALES[i], ATTN_E_TEMP);
  }
  ATT_ROW(fn, call, fused, "scale the smallest subnormal", a.scale = FLT_TRUE_MIN, ATTN_OK);
  ATT_ROW(fn, call, fused, "scale FLT_MAX", a.scale = FLT_MAX, ATTN_OK);
  for (int i = 0; i < N_OF(BAD_MASKS); i++)
    ATT_ROW(fn, call, fused, BAD_MASKS[i].what, a.masks = &BAD_MASKS[i].mk, BAD_MASKS[i].want);
  for (int i = 0; i < N_OF(GOOD_MASKS); i++)
    ATT_ROW(fn, call, fused, GOOD_MASKS[i].what, a.masks = &GOOD_MASKS[i].mk, ATTN_OK);
}

/* An additive mask of 2^30 x 2^30 floats (with d 1, everything else fits):
 * no buffer can hold it, so the fused path, which would run, must refuse. */
static const attn_masks HUGE_ADD = {.add = ADD_OK};

static void contract_attention(void) {
  attention_fixture();
  for (int fused = 0; fused < 2; fused++) {
    const char *fn = "attn_attention";
    ATT_ROW(fn, att_call, fused, fused ? "valid, fused" : "valid, with weights", (void)0, ATTN_OK);
    ATT_ROW(fn, att_call, fused, "out NULL", a.out = NULL, ATTN_E_NULL);
    ATT_ROW(fn, att_call, fused, "Q NULL", a.Q = NULL, ATTN_E_NULL);
    ATT_ROW(fn, att_call, fused, "K NULL", a.K = NULL, ATTN_E_NULL);
    ATT_ROW(fn, att_call, fused, "V NULL", a.V = NULL, ATTN_E_NULL);
    shared_attention_rows(fn, att_call, fused);
    if (fused) {
      ATT_ROW(fn, att_call, 1, "workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
      ATT_ROW(fn, att_call, 1, "d_k past the workspace", (a.n_q = a.n_k = 1, a.d_k = INT_MAX),
              ATTN_E_SIZE);
      ATT_ROW(fn, att_call, 1, "Q NULL and workspace NULL", (a.Q = NULL, a.ws = NULL), ATTN_E_NULL);
    } else {
      ATT_ROW(fn, att_call, 0, "workspace NULL (the weights need none)", a.ws = NULL, ATTN_OK);
      /* 200000^2 weights cannot exist; the fused path has none */
      ATT_ROW(fn, att_call, 0, "weights of 200000 x 200000",
              (a.n_q = a.n_k = 200000, a.d_k = a.d_v = 1), ATTN_E_SIZE);
    }
    row_either(fn, "n_k 0 and scale NaN",
               attn_attention(OUT, fused ? NULL : W, Q, K, V, NQ, 0, DK, DV, NAN, NULL, WS_FUSED),
               ATTN_E_SIZE, ATTN_E_TEMP);
  }

  for (int i = 0; i < 3; i++) {
    const int s = NONPOSITIVE[i];
    row_value("attn_attention_workspace_size", "0 for sizes <= 0",
              attn_attention_workspace_size(s, NK, DK, DV, 0) == 0 &&
                  attn_attention_workspace_size(NQ, s, DK, DV, 1) == 0 &&
                  attn_attention_workspace_size(NQ, NK, s, DV, 0) == 0 &&
                  attn_attention_workspace_size(NQ, NK, DK, s, 0) == 0);
  }
  row_value("attn_attention_workspace_size", "0 with weights (they hold the scores)",
            attn_attention_workspace_size(NQ, NK, DK, DV, 1) == 0);
  row_value("attn_attention_workspace_size", "0 for INT_MAX sizes",
            attn_attention_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1) == 0 &&
                attn_attention_workspace_size(1, 1, INT_MAX, 1, 0) == 0);
  /* last: where the mask is not checked, the call runs past every buffer */
  ATT_ROW("attn_attention", att_call, 1, "an additive mask no buffer can hold",
          (a.n_q = a.n_k = 1 << 30, a.d_k = a.d_v = 1, a.masks = &HUGE_ADD), ATTN_E_SIZE);
  attention_fixture_free();
}

static void contract_attention_lse(void) {
  attention_fixture();
  const char *fn = "attn_attention_lse";
  ATT_ROW(fn, lse_call, 1, "valid", (void)0, ATTN_OK);
  ATT_ROW(fn, lse_call, 1, "out NULL", a.out = NULL, ATTN_E_NULL);
  ATT_ROW(fn, lse_call, 1, "lse NULL", a.lse = NULL, ATTN_E_NULL);
  ATT_ROW(fn, lse_call, 1, "Q NULL", a.Q = NULL, ATTN_E_NULL);
  ATT_ROW(fn, lse_call, 1, "K NULL", a.K = NULL, ATTN_E_NULL);
  ATT_ROW(fn, lse_call, 1, "V NULL", a.V = NULL, ATTN_E_NULL);
  shared_attention_rows(fn, lse_call, 1);
  ATT_ROW(fn, lse_call, 1, "workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
  ATT_ROW(fn, lse_call, 1, "d_k past the workspace", (a.n_q = a.n_k = 1, a.d_k = INT_MAX),
          ATTN_E_SIZE);
  ATT_ROW(fn, lse_call, 1, "an additive mask no buffer can hold",
          (a.n_q = a.n_k = 1 << 30, a.d_k = a.d_v = 1, a.masks = &HUGE_ADD), ATTN_E_SIZE);

  attention_fixture_free();
}

/* ==== the attention backward ============================================== */

typedef struct {
  float *dQ, *dK, *dV;
  const float *Q, *K, *V, *out, *dout, *weights, *lse;
  int n_q, n_k, d_k, d_v;
  float scale;
  const attn_masks *masks;
  void *ws;
  int piece, j0, j1; /* 0: attn_attention_backward, 1: _dq, 2: _dkv (keys j0 .. j1-1) */
} bwd_args;

static const char *const BWD_NAMES[3] = {"attn_attention_backward", "attn_attention_backward_dq",
                                         "attn_attention_backward_dkv"};

static bwd_args bwd_valid(int fused, int piece) {
  return (bwd_args){DQ,   DK_,  DV_, Q,  K,  V,  OUT,  DOUT, fused ? NULL : W, fused ? LSE : NULL,
                    NQ,   NK,   DK,  DV, 0.5f, NULL, WS_BACKWARD, piece, 0, NK};
}

static int bwd_call(const bwd_args *a) {
  if (a->piece == 1)
    return attn_attention_backward_dq(a->dQ, a->Q, a->K, a->V, a->out, a->dout, a->weights, a->lse,
                                      a->n_q, a->n_k, a->d_k, a->d_v, a->scale, a->masks, a->ws);
  if (a->piece == 2)
    return attn_attention_backward_dkv(a->dK, a->dV, a->Q, a->K, a->V, a->out, a->dout, a->weights,
                                       a->lse, a->n_q, a->n_k, a->d_k, a->d_v, a->scale, a->masks,
                                       a->j0, a->j1, a->ws);
  return attn_attention_backward(a->dQ, a->dK, a->dV, a->Q, a->K, a->V, a->out, a->dout,
                                 a->weights, a->lse, a->n_q, a->n_k, a->d_k, a->d_v, a->scale,
                                 a->masks, a->ws);
}

#define BWD(what, edit, want)             \
  do {                                    \
    bwd_args a = bwd_valid(fused, piece); \
    edit;                                 \
    row(fn, what, bwd_call(&a), want);    \
  } while (0)

static void contract_attention_backward(void) {
  attention_fixture();
  for (int piece = 0; piece < 3; piece++) {
    const char *fn = BWD_NAMES[piece];
    for (int fused = 0; fused < 2; fused++) {
      BWD(fused ? "valid, fused (lse)" : "valid, from the weights", (void)0, ATTN_OK);
      if (piece != 2) BWD("dQ NULL", a.dQ = NULL, ATTN_E_NULL);
      if (piece != 1) {
        BWD("dK NULL", a.dK = NULL, ATTN_E_NULL);
        BWD("dV NULL", a.dV = NULL, ATTN_E_NULL);
      }
      if (piece == 2) {
        const int ranges[][2] = {{0, 2}, {-1, 3}, {1, 3}, {0, 4}, {2, 2}, {0, 0}, {INT_MIN, 3}, {128, 3}};
        for (int i = 0; i < N_OF(ranges); i++) {
          char what[64];
          snprintf(what, sizeof what, "keys %d .. %d of 3", ranges[i][0], ranges[i][1] - 1);
          BWD(what, (a.j0 = ranges[i][0], a.j1 = ranges[i][1]), i ? ATTN_E_SIZE : ATTN_OK);
        }
        BWD("keys 1 .. 2 (not on a tile) and workspace NULL", (a.j0 = 1, a.ws = NULL), ATTN_E_SIZE);
      }
      BWD("Q NULL", a.Q = NULL, ATTN_E_NULL);
      BWD("K NULL", a.K = NULL, ATTN_E_NULL);
      BWD("V NULL", a.V = NULL, ATTN_E_NULL);
      BWD("out NULL", a.out = NULL, ATTN_E_NULL);
      BWD("dout NULL", a.dout = NULL, ATTN_E_NULL);
      BWD("weights and lse NULL", (a.weights = NULL, a.lse = NULL), ATTN_E_NULL);
      for (int i = 0; i < 3; i++) {
        const int s = NONPOSITIVE[i];
        BWD("n_q <= 0", a.n_q = s, ATTN_E_SIZE);
        BWD("n_k <= 0", a.n_k = s, ATTN_E_SIZE);
        BWD("d_k <= 0", a.d_k = s, ATTN_E_SIZE);
        BWD("d_v <= 0", a.d_v = s, ATTN_E_SIZE);
      }
      BWD("INT_MAX sizes", (a.n_q = a.n_k = a.d_k = a.d_v = INT_MAX), ATTN_E_SIZE);
      BWD("d_k past the workspace", (a.n_q = a.n_k = 1, a.d_k = INT_MAX), ATTN_E_SIZE);
      if (!fused) /* 200000^2 weights cannot exist; the fused path has none */
        BWD("weights of 200000 x 200000", (a.n_q = a.n_k = 200000, a.d_k = a.d_v = 1), ATTN_E_SIZE);
      for (int i = 0; i < N_OF(BAD_SCALES); i++) {
        char what[64];
        snprintf(what, sizeof what, "scale %g", (double)BAD_SCALES[i]);
        BWD(what, a.scale = BAD_SCALES[i], ATTN_E_TEMP);
      }
      for (int i = 0; i < N_OF(BAD_MASKS); i++)
        BWD(BAD_MASKS[i].what, a.masks = &BAD_MASKS[i].mk, BAD_MASKS[i].want);
      for (int i = 0; i < N_OF(GOOD_MASKS); i++)
        BWD(GOOD_MASKS[i].what, a.masks = &GOOD_MASKS[i].mk, ATTN_OK);
      BWD("workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
    }
    /* last: where the mask is not checked, the call runs past every buffer */
    const int fused = 1;
    BWD("an additive mask no buffer can hold",
        (a.n_q = a.n_k = 1 << 30, a.d_k = a.d_v = 1, a.masks = &HUGE_ADD), ATTN_E_SIZE);
  }
  const int bad[] = {0, -1, INT_MIN};
  for (int i = 0; i < 3; i++)
    row_value("attn_attention_backward_workspace_size", "0 for sizes <= 0",
              attn_attention_backward_workspace_size(bad[i], NK, DK, DV) == 0 &&
                  attn_attention_backward_workspace_size(NQ, NK, DK, bad[i]) == 0);
  row_value("attn_attention_backward_workspace_size", "0 for INT_MAX sizes",
            attn_attention_backward_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX) == 0 &&
                attn_attention_backward_workspace_size(1, 1, INT_MAX, 1) == 0);
  attention_fixture_free();
}

/* ==== multi-head attention: n_q 2, n_k 3, d 4, 2 heads ==================== */

enum { D = 4, H = 2 };
static float XQ[NQ * D], XKV[NK * D], Y[NQ * D], Z[NQ * D], WH[H * NQ * NK], WM[4][D * D],
    BM[4][D], DY[NQ * D], DXQ[NQ * D], DXKV[NK * D], GW[4][D * D], GB[4][D];
static void *WS_MHA[2], *WS_MHA_BACKWARD[2]; /* [with weights] */

static void mha_fixture(void) {
  for (int i = 0; i < NQ * D; i++) XQ[i] = DY[i] = (float)i / 8;
  for (int i = 0; i < NK * D; i++) XKV[i] = (float)(i % 7) / 7;
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < D * D; i++) WM[t][i] = (float)((i * (t + 3)) % 11) / 11 - 0.5f;
  for (int w = 0; w < 2; w++) {
    WS_MHA[w] = wsbuf(attn_mha_workspace_size(NQ, NK, D, H, w));
    WS_MHA_BACKWARD[w] = wsbuf(attn_mha_backward_workspace_size(NQ, NK, D, H, w));
  }
}

static void mha_fixture_free(void) {
  for (int w = 0; w < 2; w++) {
    free(WS_MHA[w]), free(WS_MHA_BACKWARD[w]);
    WS_MHA[w] = WS_MHA_BACKWARD[w] = NULL;
  }
}

typedef struct {
  float *Y, *weights, *Z;
  const float *Xq, *Xkv;
  int n_q, n_k, d, heads;
  attn_mha_params P;
  int no_params; /* pass params NULL */
  const attn_masks *masks;
  void *ws;
} mha_args;

static mha_args mha_valid(int with_weights) {
  return (mha_args){Y,  with_weights ? WH : NULL, with_weights ? Z : NULL, XQ, XKV, NQ, NK, D, H,
                    {WM[0], WM[1], WM[2], WM[3], BM[0], BM[1], BM[2], BM[3]},
                    0, NULL, WS_MHA[with_weights]};
}

static int mha_call(const mha_args *a) {
  return attn_mha(a->Y, a->weights, a->Z, a->Xq, a->Xkv, a->n_q, a->n_k, a->d, a->heads,
                  a->no_params ? NULL : &a->P, a->masks, a->ws);
}

#define MHA(what, edit, want)          \
  do {                                 \
    mha_args a = mha_valid(w);         \
    edit;                              \
    row(fn, what, mha_call(&a), want); \
  } while (0)

static const int BAD_HEADS[] = {0, -1, 3, 8, INT_MIN};

static void contract_mha(void) {
  mha_fixture();
  const char *fn = "attn_mha";
  for (int w = 0; w < 2; w++) {
    MHA(w ? "valid, with weights and Z" : "valid", (void)0, ATTN_OK);
    MHA("self-attention (one X)", (a.Xkv = XQ, a.n_k = NQ), ATTN_OK);
    MHA("no biases", (a.P.bq = a.P.bk = a.P.bv = a.P.bo = NULL), ATTN_OK);
    MHA("Y NULL", a.Y = NULL, ATTN_E_NULL);
    MHA("Xq NULL", a.Xq = NULL, ATTN_E_NULL);
    MHA("Xkv NULL", a.Xkv = NULL, ATTN_E_NULL);
    MHA("params NULL", a.no_params = 1, ATTN_E_NULL);
    MHA("Wq NULL", a.P.Wq = NULL, ATTN_E_NULL);
    MHA("Wk NULL", a.P.Wk = NULL, ATTN_E_NULL);
    MHA("Wv NULL", a.P.Wv = NULL, ATTN_E_NULL);
    MHA("Wo NULL", a.P.Wo = NULL, ATTN_E_NULL);
    for (int i = 0; i < 3; i++) {
      MHA("n_q <= 0", a.n_q = NONPOSITIVE[i], ATTN_E_SIZE);
      MHA("n_k <= 0", a.n_k = NONPOSITIVE[i], ATTN_E_SIZE);
      MHA("d_model <= 0", a.d = NONPOSITIVE[i], ATTN_E_SIZE);
    }
    for (int i = 0; i < N_OF(BAD_HEADS); i++) {
      char what[48];
      snprintf(what, sizeof what, "heads %d", BAD_HEADS[i]);
      MHA(what, a.heads = BAD_HEADS[i], ATTN_E_HEADS);
    }
    MHA("INT_MAX sizes", (a.n_q = a.n_k = a.d = a.heads = INT_MAX), ATTN_E_SIZE);
    MHA("X past the address space", (a.n_q = INT_MAX, a.d = 1 << 16, a.heads = 1), ATTN_E_SIZE);
    if (w) /* 8 (2^31 - 1)(2^30 + 1) weights: past 64 bits, where they wrap to 2^33 - 8 */
      MHA("heads x n_q x n_k weights past 64 bits",
          (a.n_q = INT_MAX, a.n_k = (1 << 30) + 1, a.d = 8, a.heads = 8), ATTN_E_SIZE);
    for (int i = 0; i < N_OF(BAD_MASKS); i++)
      MHA(BAD_MASKS[i].what, a.masks = &BAD_MASKS[i].mk, BAD_MASKS[i].want);
    for (int i = 0; i < N_OF(GOOD_MASKS); i++)
      MHA(GOOD_MASKS[i].what, a.masks = &GOOD_MASKS[i].mk, ATTN_OK);
    MHA("workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
  }
  row_either(fn, "params NULL and heads 0",
             attn_mha(Y, WH, Z, XQ, XKV, NQ, NK, D, 0, NULL, NULL, WS_MHA[1]), ATTN_E_NULL,
             ATTN_E_HEADS);
  const attn_mha_params P = {WM[0], WM[1], WM[2], WM[3], NULL, NULL, NULL, NULL};
  row_either(fn, "heads 3 and workspace NULL",
             attn_mha(Y, WH, Z, XQ, XKV, NQ, NK, D, 3, &P, NULL, NULL), ATTN_E_HEADS,
             ATTN_E_WORKSPACE);
  for (int i = 0; i < N_OF(BAD_HEADS); i++)
    row_value("attn_mha_workspace_size", "0 for bad heads",
              attn_mha_workspace_size(NQ, NK, D, BAD_HEADS[i], 1) == 0);
  for (int i = 0; i < 3; i++)
    row_value("attn_mha_workspace_size", "0 for sizes <= 0",
              attn_mha_workspace_size(NONPOSITIVE[i], NK, D, H, 0) == 0 &&
                  attn_mha_workspace_size(NQ, NK, NONPOSITIVE[i], H, 1) == 0);
  row_value("attn_mha_workspace_size", "0 for INT_MAX sizes",
            attn_mha_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1) == 0);
  mha_fixture_free();
}

/* attn_mha_heads: head 1 of 2 (Z 2 x 2, weights 1 x 2 x 3), or both */
static float ZH[NQ * D / H], WH1[NQ * NK];

typedef struct {
  float *Z, *weights;
  const float *Xq, *Xkv;
  int n_q, n_k, d, heads, h0, h1;
  attn_mha_params P;
  int no_params; /* pass params NULL */
  const attn_masks *masks;
  void *ws;
} heads_args;

static heads_args heads_valid(int with_weights, void *ws) {
  return (heads_args){ZH, with_weights ? WH1 : NULL, XQ, XKV, NQ, NK, D, H, 1, 2,
                      {WM[0], WM[1], WM[2], NULL, BM[0], BM[1], BM[2], NULL}, 0, NULL, ws};
}

static int heads_call(const heads_args *a) {
  return attn_mha_heads(a->Z, a->weights, a->Xq, a->Xkv, a->n_q, a->n_k, a->d, a->heads, a->h0,
                        a->h1, a->no_params ? NULL : &a->P, a->masks, a->ws);
}

#define HEADS(what, edit, want)          \
  do {                                   \
    heads_args a = heads_valid(w, ws[w]); \
    edit;                                \
    row(fn, what, heads_call(&a), want); \
  } while (0)

static void contract_mha_heads(void) {
  mha_fixture();
  const char *fn = "attn_mha_heads";
  void *ws[2] = {wsbuf(attn_mha_heads_workspace_size(NQ, NK, D, H, 1, 2, 0)),
                 wsbuf(attn_mha_heads_workspace_size(NQ, NK, D, H, 1, 2, 1))};
  void *ws_all = wsbuf(attn_mha_heads_workspace_size(NQ, NK, D, H, 0, 2, 1));
  for (int w = 0; w < 2; w++) {
    HEADS(w ? "valid, with weights" : "valid", (void)0, ATTN_OK);
    HEADS("self-attention (one X)", (a.Xkv = XQ, a.n_k = NQ), ATTN_OK);
    HEADS("no biases", (a.P.bq = a.P.bk = a.P.bv = NULL), ATTN_OK);
    HEADS("Z NULL", a.Z = NULL, ATTN_E_NULL);
    HEADS("Xq NULL", a.Xq = NULL, ATTN_E_NULL);
    HEADS("Xkv NULL", a.Xkv = NULL, ATTN_E_NULL);
    HEADS("params NULL", a.no_params = 1, ATTN_E_NULL);
    HEADS("Wq NULL", a.P.Wq = NULL, ATTN_E_NULL);
    HEADS("Wk NULL", a.P.Wk = NULL, ATTN_E_NULL);
    HEADS("Wv NULL", a.P.Wv = NULL, ATTN_E_NULL);
    for (int i = 0; i < 3; i++) {
      HEADS("n_q <= 0", a.n_q = NONPOSITIVE[i], ATTN_E_SIZE);
      HEADS("n_k <= 0", a.n_k = NONPOSITIVE[i], ATTN_E_SIZE);
      HEADS("d_model <= 0", a.d = NONPOSITIVE[i], ATTN_E_SIZE);
    }
    for (int i = 0; i < N_OF(BAD_HEADS); i++) {
      char what[48];
      snprintf(what, sizeof what, "heads %d", BAD_HEADS[i]);
      HEADS(what, a.heads = BAD_HEADS[i], ATTN_E_HEADS);
    }
    const int ranges[][2] = {{-1, 1}, {1, 1}, {2, 1}, {1, 3}, {INT_MIN, 1}, {1, INT_MAX}, {2, 2}};
    for (int i = 0; i < N_OF(ranges); i++) {
      char what[64];
      snprintf(what, sizeof what, "heads %d .. %d of 2", ranges[i][0], ranges[i][1] - 1);
      HEADS(what, (a.h0 = ranges[i][0], a.h1 = ranges[i][1]), ATTN_E_HEADS);
    }
    HEADS("INT_MAX sizes", (a.n_q = a.n_k = a.d = a.heads = INT_MAX, a.h1 = INT_MAX), ATTN_E_SIZE);
    for (int i = 0; i < N_OF(BAD_MASKS); i++)
      HEADS(BAD_MASKS[i].what, a.masks = &BAD_MASKS[i].mk, BAD_MASKS[i].want);
    for (int i = 0; i < N_OF(GOOD_MASKS); i++)
      HEADS(GOOD_MASKS[i].what, a.masks = &GOOD_MASKS[i].mk, ATTN_OK);
    HEADS("workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
  }
  row(fn, "every head (Z 2 x 4, weights 2 x 2 x 3)",
      attn_mha_heads(Z, WH, XQ, XKV, NQ, NK, D, H, 0, 2,
                     &(attn_mha_params){WM[0], WM[1], WM[2], NULL, NULL, NULL, NULL, NULL}, NULL,
                     ws_all),
      ATTN_OK);
  row_either(fn, "params NULL and heads 0 .. -1",
             attn_mha_heads(ZH, NULL, XQ, XKV, NQ, NK, D, H, 0, 0, NULL, NULL, ws[0]), ATTN_E_NULL,
             ATTN_E_HEADS);
  const char *wfn = "attn_mha_heads_workspace_size";
  row_value(wfn, "0 for bad head ranges",
            attn_mha_heads_workspace_size(NQ, NK, D, H, 1, 1, 0) == 0 &&
                attn_mha_heads_workspace_size(NQ, NK, D, H, -1, 1, 1) == 0 &&
                attn_mha_heads_workspace_size(NQ, NK, D, H, 0, 3, 1) == 0);
  for (int i = 0; i < N_OF(BAD_HEADS); i++)
    row_value(wfn, "0 for bad heads", attn_mha_heads_workspace_size(NQ, NK, D, BAD_HEADS[i], 0, 1, 1) == 0);
  for (int i = 0; i < 3; i++)
    row_value(wfn, "0 for sizes <= 0",
              attn_mha_heads_workspace_size(NONPOSITIVE[i], NK, D, H, 0, 1, 0) == 0 &&
                  attn_mha_heads_workspace_size(NQ, NK, NONPOSITIVE[i], H, 0, 1, 1) == 0);
  row_value(wfn, "0 for INT_MAX sizes",
            attn_mha_heads_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 0, 1, 1) == 0);
  free(ws[0]), free(ws[1]), free(ws_all);

  /* attn_project: Y (2 x 4) = Xq (2 x 4) Wo (4 x 4) + bo */
  fn = "attn_project";
  row(fn, "valid", attn_project(Y, XQ, WM[3], BM[3], NQ, D, D), ATTN_OK);
  row(fn, "no bias", attn_project(Y, XQ, WM[3], NULL, NQ, D, D), ATTN_OK);
  row(fn, "Y (2 x 2) = Xq (2 x 4) W (4 x 2)", attn_project(ZH, XQ, WM[3], NULL, NQ, D, 2), ATTN_OK);
  row(fn, "Y NULL", attn_project(NULL, XQ, WM[3], BM[3], NQ, D, D), ATTN_E_NULL);
  row(fn, "X NULL", attn_project(Y, NULL, WM[3], BM[3], NQ, D, D), ATTN_E_NULL);
  row(fn, "W NULL", attn_project(Y, XQ, NULL, BM[3], NQ, D, D), ATTN_E_NULL);
  for (int i = 0; i < 3; i++) {
    const int s = NONPOSITIVE[i];
    row(fn, "n <= 0", attn_project(Y, XQ, WM[3], BM[3], s, D, D), ATTN_E_SIZE);
    row(fn, "d_in <= 0", attn_project(Y, XQ, WM[3], BM[3], NQ, s, D), ATTN_E_SIZE);
    row(fn, "d_out <= 0", attn_project(Y, XQ, WM[3], BM[3], NQ, D, s), ATTN_E_SIZE);
  }
  row(fn, "INT_MAX sizes", attn_project(Y, XQ, WM[3], BM[3], INT_MAX, INT_MAX, INT_MAX), ATTN_E_SIZE);
  row_either(fn, "Y NULL and n 0", attn_project(NULL, XQ, WM[3], NULL, 0, D, D), ATTN_E_NULL,
             ATTN_E_SIZE);
  mha_fixture_free();
}

typedef struct {
  float *dXq, *dXkv;
  attn_mha_grads G;
  int no_grads; /* pass grads NULL */
  const float *Xq, *Xkv, *dY;
  int n_q, n_k, d, heads;
  attn_mha_params P;
  int no_params; /* pass params NULL */
  const attn_masks *masks;
  int use_weights;
  void *ws;
} mhab_args;

static mhab_args mhab_valid(int use_weights) {
  return (mhab_args){DXQ, DXKV, {GW[0], GW[1], GW[2], GW[3], GB[0], GB[1], GB[2], GB[3]}, 0,
                     XQ,  XKV,  DY, NQ, NK, D, H,
                     {WM[0], WM[1], WM[2], WM[3], BM[0], BM[1], BM[2], BM[3]}, 0,
                     NULL, use_weights, WS_MHA_BACKWARD[use_weights]};
}

static int mhab_call(const mhab_args *a) {
  return attn_mha_backward(a->dXq, a->dXkv, a->no_grads ? NULL : &a->G, a->Xq, a->Xkv, a->dY,
                           a->n_q, a->n_k, a->d, a->heads, a->no_params ? NULL : &a->P, a->masks,
                           a->use_weights, a->ws);
}

#define MHAB(what, edit, want)         \
  do {                                 \
    mhab_args a = mhab_valid(w);       \
    edit;                              \
    row(fn, what, mhab_call(&a), want); \
  } while (0)

static void contract_mha_backward(void) {
  mha_fixture();
  const char *fn = "attn_mha_backward";
  for (int w = 0; w < 2; w++) {
    MHAB(w ? "valid, from stored weights" : "valid, fused", (void)0, ATTN_OK);
    MHAB("self-attention, dXkv NULL (dXq gets all of dX)",
         (a.Xkv = XQ, a.n_k = NQ, a.dXkv = NULL), ATTN_OK);
    MHAB("bias gradients not wanted", (a.G.dbq = a.G.dbk = a.G.dbv = a.G.dbo = NULL), ATTN_OK);
    MHAB("dXq NULL", a.dXq = NULL, ATTN_E_NULL);
    MHAB("dXkv NULL with n_k != n_q", a.dXkv = NULL, ATTN_E_NULL);
    MHAB("dXkv NULL with Xkv != Xq", (a.dXkv = NULL, a.n_k = NQ), ATTN_E_NULL);
    MHAB("grads NULL", a.no_grads = 1, ATTN_E_NULL);
    MHAB("dWq NULL", a.G.dWq = NULL, ATTN_E_NULL);
    MHAB("dWk NULL", a.G.dWk = NULL, ATTN_E_NULL);
    MHAB("dWv NULL", a.G.dWv = NULL, ATTN_E_NULL);
    MHAB("dWo NULL", a.G.dWo = NULL, ATTN_E_NULL);
    MHAB("Xq NULL", a.Xq = NULL, ATTN_E_NULL);
    MHAB("Xkv NULL", a.Xkv = NULL, ATTN_E_NULL);
    MHAB("dY NULL", a.dY = NULL, ATTN_E_NULL);
    MHAB("params NULL", a.no_params = 1, ATTN_E_NULL);
    MHAB("Wq NULL", a.P.Wq = NULL, ATTN_E_NULL);
    MHAB("Wk NULL", a.P.Wk = NULL, ATTN_E_NULL);
    MHAB("Wv NULL", a.P.Wv = NULL, ATTN_E_NULL);
    MHAB("Wo NULL", a.P.Wo = NULL, ATTN_E_NULL);
    for (int i = 0; i < 3; i++) {
      MHAB("n_q <= 0", a.n_q = NONPOSITIVE[i], ATTN_E_SIZE);
      MHAB("n_k <= 0", a.n_k = NONPOSITIVE[i], ATTN_E_SIZE);
      MHAB("d_model <= 0", a.d = NONPOSITIVE[i], ATTN_E_SIZE);
    }
    for (int i = 0; i < N_OF(BAD_HEADS); i++) {
      char what[48];
      snprintf(what, sizeof what, "heads %d", BAD_HEADS[i]);
      MHAB(what, a.heads = BAD_HEADS[i], ATTN_E_HEADS);
    }
    MHAB("INT_MAX sizes", (a.n_q = a.n_k = a.d = a.heads = INT_MAX), ATTN_E_SIZE);
    if (w) MHAB("weights of 200000 x 200000", (a.n_q = a.n_k = 200000, a.d = 1, a.heads = 1), ATTN_E_SIZE);
    for (int i = 0; i < N_OF(BAD_MASKS); i++)
      MHAB(BAD_MASKS[i].what, a.masks = &BAD_MASKS[i].mk, BAD_MASKS[i].want);
    for (int i = 0; i < N_OF(GOOD_MASKS); i++)
      MHAB(GOOD_MASKS[i].what, a.masks = &GOOD_MASKS[i].mk, ATTN_OK);
    MHAB("workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
  }
  for (int i = 0; i < N_OF(BAD_HEADS); i++)
    row_value("attn_mha_backward_workspace_size", "0 for bad heads",
              attn_mha_backward_workspace_size(NQ, NK, D, BAD_HEADS[i], 0) == 0);
  for (int i = 0; i < 3; i++)
    row_value("attn_mha_backward_workspace_size", "0 for sizes <= 0",
              attn_mha_backward_workspace_size(NQ, NONPOSITIVE[i], D, H, 1) == 0);
  row_value("attn_mha_backward_workspace_size", "0 for INT_MAX sizes",
            attn_mha_backward_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1) == 0);
  mha_fixture_free();
}

/* ==== linear attention: n_q 2, n_k 3, d_k 4, d_v 5, m 3 features ========== */

enum { M = 3 };
static float OMEGA[M * DK];

typedef struct {
  float *out;
  const float *Q, *K, *V, *omega;
  int n_q, n_k, d_k, d_v, m;
  float scale;
  int causal;
  void *ws;
} lin_args;

static void *WS_LINEAR;

static lin_args lin_valid(int causal) {
  return (lin_args){OUT, Q, K, V, OMEGA, NQ, NK, DK, DV, M, 0.5f, causal, WS_LINEAR};
}

static int lin_call(const lin_args *a) {
  return attn_linear_attention(a->out, a->Q, a->K, a->V, a->omega, a->n_q, a->n_k, a->d_k, a->d_v,
                               a->m, a->scale, a->causal, a->ws);
}

#define LIN(what, edit, want)          \
  do {                                 \
    lin_args a = lin_valid(causal);    \
    edit;                              \
    row(fn, what, lin_call(&a), want); \
  } while (0)

static void contract_linear(void) {
  attention_fixture();
  WS_LINEAR = wsbuf(attn_linear_attention_workspace_size(NQ, NK, DK, DV, M));
  const char *fn = "attn_random_features";
  row(fn, "valid", attn_random_features(OMEGA, M, DK, 7), ATTN_OK);
  row(fn, "omega NULL", attn_random_features(NULL, M, DK, 7), ATTN_E_NULL);
  for (int i = 0; i < 3; i++) {
    row(fn, "m <= 0", attn_random_features(OMEGA, NONPOSITIVE[i], DK, 7), ATTN_E_SIZE);
    row(fn, "d <= 0", attn_random_features(OMEGA, M, NONPOSITIVE[i], 7), ATTN_E_SIZE);
  }
  row(fn, "INT_MAX sizes", attn_random_features(OMEGA, INT_MAX, INT_MAX, 7), ATTN_E_SIZE);

  fn = "attn_linear_attention";
  for (int causal = 0; causal < 2; causal++) {
    LIN(causal ? "valid, causal" : "valid", (void)0, ATTN_OK);
    LIN("out NULL", a.out = NULL, ATTN_E_NULL);
    LIN("Q NULL", a.Q = NULL, ATTN_E_NULL);
    LIN("K NULL", a.K = NULL, ATTN_E_NULL);
    LIN("V NULL", a.V = NULL, ATTN_E_NULL);
    LIN("omega NULL", a.omega = NULL, ATTN_E_NULL);
    for (int i = 0; i < 3; i++) {
      const int s = NONPOSITIVE[i];
      LIN("n_q <= 0", a.n_q = s, ATTN_E_SIZE);
      LIN("n_k <= 0", a.n_k = s, ATTN_E_SIZE);
      LIN("d_k <= 0", a.d_k = s, ATTN_E_SIZE);
      LIN("d_v <= 0", a.d_v = s, ATTN_E_SIZE);
      LIN("m <= 0", a.m = s, ATTN_E_SIZE);
    }
    LIN("m INT_MAX", a.m = INT_MAX, ATTN_E_SIZE);
    LIN("d_k INT_MAX", (a.n_q = a.n_k = 1, a.d_k = INT_MAX, a.m = 1), ATTN_E_SIZE);
    for (int i = 0; i < N_OF(BAD_SCALES); i++) {
      char what[64];
      snprintf(what, sizeof what, "scale %g", (double)BAD_SCALES[i]);
      LIN(what, a.scale = BAD_SCALES[i], ATTN_E_TEMP);
    }
    LIN("causal 2", a.causal = 2, ATTN_E_MASK);
    LIN("causal -1", a.causal = -1, ATTN_E_MASK);
    LIN("workspace NULL", a.ws = NULL, ATTN_E_WORKSPACE);
  }
  for (int i = 0; i < 3; i++)
    row_value("attn_linear_attention_workspace_size", "0 for sizes <= 0",
              attn_linear_attention_workspace_size(NQ, NK, DK, DV, NONPOSITIVE[i]) == 0 &&
                  attn_linear_attention_workspace_size(NONPOSITIVE[i], NK, DK, DV, M) == 0);
  row_value("attn_linear_attention_workspace_size", "0 for INT_MAX sizes",
            attn_linear_attention_workspace_size(1, 1, INT_MAX, 1, 1) == 0 &&
                attn_linear_attention_workspace_size(NQ, NK, DK, DV, INT_MAX) == 0);
  free(WS_LINEAR);
  attention_fixture_free();
}

/* ==== the transformer: vocab 7, context 8, d 8, 2 heads, 2 layers ========= */

enum { B = 2, LEN = 5 }; /* 2 sequences of 5 tokens */
static const attn_tf_config CFG = {7, 8, 8, 2, 2, 1, 1};

typedef struct {
  attn_tf_model m;
  float *blocks[4];
  uint8_t *off;
  void *ws, *cache, *dws;
  float *logits;
  int32_t tokens[B * LEN];
} tf_fixture;

static tf_fixture tf_make(void) {
  tf_fixture t;
  const size_t n = attn_tf_param_count(&CFG);
  for (int i = 0; i < 4; i++) t.blocks[i] = fbuf(n);
  t.off = xmalloc((size_t)CFG.layers * CFG.heads);
  t.m = (attn_tf_model){CFG, t.blocks[0], t.blocks[1], t.blocks[2], t.blocks[3], t.off, 0};
  expect_status(attn_tf_init(&t.m, 3), ATTN_OK, "attn_tf_init");
  t.ws = wsbuf(attn_tf_workspace_size(&CFG, B, LEN));
  t.cache = wsbuf(attn_tf_cache_size(&CFG, B));
  t.dws = wsbuf(attn_tf_decode_workspace_size(&CFG, B));
  t.logits = fbuf((size_t)B * CFG.vocab);
  for (int i = 0; i < B * LEN; i++) t.tokens[i] = (i * 3) % CFG.vocab;
  return t;
}

static void tf_unmake(tf_fixture *t) {
  for (int i = 0; i < 4; i++) free(t->blocks[i]);
  free(t->off), free(t->ws), free(t->cache), free(t->dws), free(t->logits);
}

/* The configs the model cannot have, each with its status. */
static const struct {
  attn_tf_config cfg;
  int want;
  const char *what;
} BAD_CONFIGS[] = {
    {{7, 8, 8, 2, 2, 2, 1}, ATTN_E_CONFIG, "mlp 2"},
    {{7, 8, 8, 2, 2, 1, -1}, ATTN_E_CONFIG, "layer_norm -1"},
    {{0, 8, 8, 2, 2, 1, 1}, ATTN_E_SIZE, "vocab 0"},
    {{7, -1, 8, 2, 2, 1, 1}, ATTN_E_SIZE, "context -1"},
    {{7, 8, 0, 2, 2, 1, 1}, ATTN_E_SIZE, "d_model 0"},
    {{7, 8, 8, 2, -1, 1, 1}, ATTN_E_SIZE, "layers -1"},
    {{7, 8, 8, 3, 2, 1, 1}, ATTN_E_HEADS, "heads 3 with d_model 8"},
    {{7, 8, 8, 0, 2, 1, 1}, ATTN_E_HEADS, "heads 0"},
    {{7, 8, 1 << 20, 1, 1, 1, 1}, ATTN_E_SIZE, "d_model 2^20: W1 past the address space"},
    {{INT_MAX, 8, 1 << 16, 1, 1, 0, 0}, ATTN_E_SIZE, "vocab x d_model past the address space"},
    {{7, 8, 8, 2, INT_MAX, 1, 1}, ATTN_E_SIZE, "layers INT_MAX"},
};

#define TF_ROW(fn, what, edit, call, want) \
  do {                                     \
    attn_tf_model m = t.m;                 \
    edit;                                  \
    row(fn, what, call, want);             \
  } while (0)

static void contract_transformer(void) {
  tf_fixture t = tf_make();
  const attn_adamw opt = {1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f};
  float loss;
  attn_tf_param info;

  row("attn_tf_param_info", "valid", attn_tf_param_info(&info, &CFG, 0), ATTN_OK);
  row("attn_tf_param_info", "info NULL", attn_tf_param_info(NULL, &CFG, 0), ATTN_E_NULL);
  row("attn_tf_param_info", "cfg NULL", attn_tf_param_info(&info, NULL, 0), ATTN_E_NULL);
  row("attn_tf_param_info", "index -1", attn_tf_param_info(&info, &CFG, -1), ATTN_E_SIZE);
  row("attn_tf_param_info", "index past the last", attn_tf_param_info(&info, &CFG, 1000),
      ATTN_E_SIZE);
  row("attn_tf_param_info", "index INT_MAX", attn_tf_param_info(&info, &CFG, INT_MAX), ATTN_E_SIZE);
  row_value("attn_tf_param_count", "0 for NULL", attn_tf_param_count(NULL) == 0);
  row_value("attn_tf_workspace_size", "0 for NULL", attn_tf_workspace_size(NULL, B, LEN) == 0);
  row_value("attn_tf_cache_size", "0 for NULL", attn_tf_cache_size(NULL, B) == 0);
  row_value("attn_tf_decode_workspace_size", "0 for NULL", attn_tf_decode_workspace_size(NULL, B) == 0);
  for (int i = 0; i < N_OF(BAD_CONFIGS); i++) {
    const char *what = BAD_CONFIGS[i].what;
    const int want = BAD_CONFIGS[i].want;
    const attn_tf_config *c = &BAD_CONFIGS[i].cfg;
    row("attn_tf_param_info", what, attn_tf_param_info(&info, c, 0), want);
    row_value("attn_tf_param_count", what, attn_tf_param_count(c) == 0);
    row_value("attn_tf_workspace_size", what, attn_tf_workspace_size(c, B, LEN) == 0);
    row_value("attn_tf_cache_size", what, attn_tf_cache_size(c, B) == 0);
    row_value("attn_tf_decode_workspace_size", what, attn_tf_decode_workspace_size(c, B) == 0);
    TF_ROW("attn_tf_init", what, m.cfg = *c, attn_tf_init(&m, 1), want);
    TF_ROW("attn_tf_forward", what, m.cfg = *c,
           attn_tf_forward(&loss, NULL, NULL, NULL, &m, t.tokens, B, LEN, t.ws), want);
    TF_ROW("attn_tf_gradients", what, m.cfg = *c,
           attn_tf_gradients(&loss, &m, t.tokens, B, LEN, t.ws), want);
    TF_ROW("attn_tf_train_step", what, m.cfg = *c,
           attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &opt, t.ws), want);
    TF_ROW("attn_tf_update", what, m.cfg = *c, attn_tf_update(&m, &opt), want);
    TF_ROW("attn_tf_decode", what, m.cfg = *c,
           attn_tf_decode(t.logits, t.cache, &m, t.tokens, B, 0, t.dws), want);
  }
  const int bad_n[] = {0, -1, INT_MIN, INT_MAX};
  for (int i = 0; i < 4; i++) {
    row_value("attn_tf_workspace_size", "0 for a batch <= 0 or too large",
              attn_tf_workspace_size(&CFG, bad_n[i], LEN) == 0);
    row_value("attn_tf_cache_size", "0 for n <= 0 or too large", attn_tf_cache_size(&CFG, bad_n[i]) == 0);
    row_value("attn_tf_decode_workspace_size", "0 for n <= 0 or too large",
              attn_tf_decode_workspace_size(&CFG, bad_n[i]) == 0);
  }
  row_value("attn_tf_workspace_size", "0 for 1 token, or past context + 1",
            attn_tf_workspace_size(&CFG, B, 1) == 0 &&
                attn_tf_workspace_size(&CFG, B, CFG.context + 2) == 0);

  /* init */
  TF_ROW("attn_tf_init", "model NULL", (void)m, attn_tf_init(NULL, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "params NULL", m.params = NULL, attn_tf_init(&m, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "grads NULL", m.grads = NULL, attn_tf_init(&m, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "m NULL", m.m = NULL, attn_tf_init(&m, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "v NULL", m.v = NULL, attn_tf_init(&m, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "off NULL", m.off = NULL, attn_tf_init(&m, 1), ATTN_E_NULL);
  TF_ROW("attn_tf_init", "valid", (void)m, attn_tf_init(&m, 1), ATTN_OK);

  /* forward, gradients, train step: the same checks, then their own */
  int32_t wrong[B * LEN];
  for (int k = 0; k < 3; k++) {
    const char *fn = k == 0 ? "attn_tf_forward" : k == 1 ? "attn_tf_gradients" : "attn_tf_train_step";
#define CALL(mp, tok, batch, len, ws)                                                     \
  (k == 0   ? attn_tf_forward(&loss, NULL, NULL, NULL, mp, tok, batch, len, ws)          \
   : k == 1 ? attn_tf_gradients(&loss, mp, tok, batch, len, ws)                          \
            : attn_tf_train_step(&loss, mp, tok, batch, len, &opt, ws))
    TF_ROW(fn, "valid", (void)m, CALL(&m, t.tokens, B, LEN, t.ws), ATTN_OK);
    TF_ROW(fn, "model NULL", (void)m, CALL(NULL, t.tokens, B, LEN, t.ws), ATTN_E_NULL);
    TF_ROW(fn, "tokens NULL", (void)m, CALL(&m, NULL, B, LEN, t.ws), ATTN_E_NULL);
    TF_ROW(fn, "params NULL", m.params = NULL, CALL(&m, t.tokens, B, LEN, t.ws), ATTN_E_NULL);
    TF_ROW(fn, "off NULL", m.off = NULL, CALL(&m, t.tokens, B, LEN, t.ws), ATTN_E_NULL);
    for (int i = 0; i < 3; i++)
      TF_ROW(fn, "batch <= 0", (void)m, CALL(&m, t.tokens, NONPOSITIVE[i], LEN, t.ws), ATTN_E_SIZE);
    TF_ROW(fn, "batch INT_MAX", (void)m, CALL(&m, t.tokens, INT_MAX, LEN, t.ws), ATTN_E_SIZE);
    TF_ROW(fn, "1 token", (void)m, CALL(&m, t.tokens, B, 1, t.ws), ATTN_E_SIZE);
    TF_ROW(fn, "context + 2 tokens", (void)m, CALL(&m, t.tokens, 1, CFG.context + 2, t.ws),
           ATTN_E_SIZE);
    TF_ROW(fn, "n_tokens INT_MIN", (void)m, CALL(&m, t.tokens, B, INT_MIN, t.ws), ATTN_E_SIZE);
    const int32_t bad_tokens[] = {-1, 7, INT_MIN, INT_MAX};
    for (int i = 0; i < 4; i++) {
      memcpy(wrong, t.tokens, sizeof wrong);
      wrong[B * LEN - 1] = bad_tokens[i];
      char what[48];
      snprintf(what, sizeof what, "a token %d (vocab 7)", bad_tokens[i]);
      TF_ROW(fn, what, (void)m, CALL(&m, wrong, B, LEN, t.ws), ATTN_E_TOKEN);
    }
    TF_ROW(fn, "workspace NULL", (void)m, CALL(&m, t.tokens, B, LEN, NULL), ATTN_E_WORKSPACE);
    if (k > 0) TF_ROW(fn, "grads NULL", m.grads = NULL, CALL(&m, t.tokens, B, LEN, t.ws), ATTN_E_NULL);
#undef CALL
  }
  const char *fn = "attn_tf_train_step";
  TF_ROW(fn, "m NULL", m.m = NULL, attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &opt, t.ws),
         ATTN_E_NULL);
  TF_ROW(fn, "v NULL", m.v = NULL, attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &opt, t.ws),
         ATTN_E_NULL);
  TF_ROW(fn, "optimizer NULL", (void)m,
         attn_tf_train_step(&loss, &m, t.tokens, B, LEN, NULL, t.ws), ATTN_E_NULL);
  TF_ROW(fn, "step INT32_MAX (no count left)", m.step = INT32_MAX,
         attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &opt, t.ws), ATTN_E_SIZE);
  const struct {
    attn_adamw o;
    const char *what;
  } bad_opts[] = {{{0, .9f, .999f, 1e-8f, 0}, "lr 0"},
                  {{-1e-3f, .9f, .999f, 1e-8f, 0}, "lr < 0"},
                  {{NAN, .9f, .999f, 1e-8f, 0}, "lr NaN"},
                  {{INFINITY, .9f, .999f, 1e-8f, 0}, "lr inf"},
                  {{1e-3f, 1, .999f, 1e-8f, 0}, "beta1 1"},
                  {{1e-3f, -0.1f, .999f, 1e-8f, 0}, "beta1 < 0"},
                  {{1e-3f, .9f, -1, 1e-8f, 0}, "beta2 -1"},
                  {{1e-3f, .9f, NAN, 1e-8f, 0}, "beta2 NaN"},
                  {{1e-3f, .9f, .999f, -1, 0}, "eps -1"},
                  {{1e-3f, .9f, .999f, 1e-8f, INFINITY}, "weight decay inf"},
                  {{1e-3f, .9f, .999f, 1e-8f, -1}, "weight decay -1"}};
  for (int i = 0; i < N_OF(bad_opts); i++)
    TF_ROW(fn, bad_opts[i].what, (void)m,
           attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &bad_opts[i].o, t.ws), ATTN_E_OPTIM);
  fn = "attn_tf_update";
  TF_ROW(fn, "valid", (void)m, attn_tf_update(&m, &opt), ATTN_OK);
  row(fn, "model NULL", attn_tf_update(NULL, &opt), ATTN_E_NULL);
  TF_ROW(fn, "params NULL", m.params = NULL, attn_tf_update(&m, &opt), ATTN_E_NULL);
  TF_ROW(fn, "grads NULL", m.grads = NULL, attn_tf_update(&m, &opt), ATTN_E_NULL);
  TF_ROW(fn, "m NULL", m.m = NULL, attn_tf_update(&m, &opt), ATTN_E_NULL);
  TF_ROW(fn, "v NULL", m.v = NULL, attn_tf_update(&m, &opt), ATTN_E_NULL);
  TF_ROW(fn, "optimizer NULL", (void)m, attn_tf_update(&m, NULL), ATTN_E_NULL);
  TF_ROW(fn, "step INT32_MAX (no count left)", m.step = INT32_MAX, attn_tf_update(&m, &opt), ATTN_E_SIZE);
  for (int i = 0; i < N_OF(bad_opts); i++)
    TF_ROW(fn, bad_opts[i].what, (void)m, attn_tf_update(&m, &bad_opts[i].o), ATTN_E_OPTIM);
  fn = "attn_tf_train_step";
  begin("attn_tf_train_step: a rejected step changes nothing, its count included");
  {
    const size_t bytes = attn_tf_param_count(&CFG) * sizeof(float);
    float *before = clone_bytes(t.m.params, bytes);
    attn_tf_model m = t.m;
    m.step = 5;
    for (int i = 0; i < N_OF(bad_opts); i++)
      attn_tf_train_step(&loss, &m, t.tokens, B, LEN, &bad_opts[i].o, t.ws);
    memcpy(wrong, t.tokens, sizeof wrong);
    wrong[3] = -1;
    attn_tf_train_step(&loss, &m, wrong, B, LEN, &opt, t.ws);
    CHECK(m.step == 5, "step %d, was 5", m.step);
    check_unchanged("parameters", m.params, before, bytes);
    free(before);
  }
  end();

  /* decode */
  fn = "attn_tf_decode";
#define DEC(what, edit, logits, cache, mp, tok, n, pos, ws, want) \
  TF_ROW(fn, what, edit, attn_tf_decode(logits, cache, mp, tok, n, pos, ws), want)
  DEC("valid", (void)m, t.logits, t.cache, &m, t.tokens, B, 0, t.dws, ATTN_OK);
  DEC("model NULL", (void)m, t.logits, t.cache, NULL, t.tokens, B, 0, t.dws, ATTN_E_NULL);
  DEC("logits NULL", (void)m, NULL, t.cache, &m, t.tokens, B, 0, t.dws, ATTN_E_NULL);
  DEC("cache NULL", (void)m, t.logits, NULL, &m, t.tokens, B, 0, t.dws, ATTN_E_NULL);
  DEC("tokens NULL", (void)m, t.logits, t.cache, &m, NULL, B, 0, t.dws, ATTN_E_NULL);
  DEC("params NULL", m.params = NULL, t.logits, t.cache, &m, t.tokens, B, 0, t.dws, ATTN_E_NULL);
  DEC("off NULL", m.off = NULL, t.logits, t.cache, &m, t.tokens, B, 0, t.dws, ATTN_E_NULL);
  for (int i = 0; i < 3; i++)
    DEC("n <= 0", (void)m, t.logits, t.cache, &m, t.tokens, NONPOSITIVE[i], 0, t.dws, ATTN_E_SIZE);
  DEC("n INT_MAX", (void)m, t.logits, t.cache, &m, t.tokens, INT_MAX, 0, t.dws, ATTN_E_SIZE);
  DEC("position -1", (void)m, t.logits, t.cache, &m, t.tokens, B, -1, t.dws, ATTN_E_SIZE);
  DEC("position context", (void)m, t.logits, t.cache, &m, t.tokens, B, CFG.context, t.dws,
      ATTN_E_SIZE);
  DEC("position INT_MIN", (void)m, t.logits, t.cache, &m, t.tokens, B, INT_MIN, t.dws, ATTN_E_SIZE);
  const int32_t bad_pair[2][2] = {{0, 7}, {-1, 0}};
  for (int i = 0; i < 2; i++)
    DEC("a token outside 0 .. vocab - 1", (void)m, t.logits, t.cache, &m, bad_pair[i], B, 0, t.dws,
        ATTN_E_TOKEN);
  DEC("workspace NULL", (void)m, t.logits, t.cache, &m, t.tokens, B, 0, NULL, ATTN_E_WORKSPACE);
#undef DEC
  tf_unmake(&t);
}

const test_group TEST_GROUPS[] = {
    {"core", contract_core, 0},
    {"matmul_softmax_posenc", contract_small, 1},
    {"attention", contract_attention, 1},
    {"attention_lse", contract_attention_lse, 1},
    {"attention_backward", contract_attention_backward, 1},
    {"mha", contract_mha, 1},
    {"mha_heads", contract_mha_heads, 1},
    {"mha_backward", contract_mha_backward, 1},
    {"linear", contract_linear, 1},
    {"transformer", contract_transformer, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

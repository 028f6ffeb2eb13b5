/* test_status.c: the status codes of every entry that takes sizes, a scale
 * or masks: bad arguments, one at a time, and their statuses. */
#include "harness.h"

/* ==== status codes ======================================================= */

static void test_status_codes(void) {
  float a[64], b[64], c[64];
  for (int i = 0; i < 64; i++) a[i] = b[i] = c[i] = (float)i / 64;
  const int bad_sizes[] = {0, -1, INT_MIN};

  begin("attn_matmul status codes");
  expect_status(attn_matmul(NULL, a, b, 2, 2, 2, 0), ATTN_E_NULL, "matmul(C=NULL)");
  expect_status(attn_matmul(c, NULL, b, 2, 2, 2, 0), ATTN_E_NULL, "matmul(A=NULL)");
  expect_status(attn_matmul(c, a, NULL, 2, 2, 2, 1), ATTN_E_NULL, "matmul(B=NULL)");
  for (int i = 0; i < 3; i++) {
    const int s = bad_sizes[i];
    expect_status(attn_matmul(c, a, b, s, 2, 2, 0), ATTN_E_SIZE, "matmul(m<=0)");
    expect_status(attn_matmul(c, a, b, 2, s, 2, 0), ATTN_E_SIZE, "matmul(k<=0)");
    expect_status(attn_matmul(c, a, b, 2, 2, s, 1), ATTN_E_SIZE, "matmul(n<=0)");
  }
  /* 2^31 x 2^31 floats exceed any address space: the call cannot be valid */
  expect_status(attn_matmul(c, a, b, INT_MAX, INT_MAX, INT_MAX, 0), ATTN_E_SIZE,
                "matmul(INT_MAX sizes)");
  expect_status_in(attn_matmul(NULL, a, b, 0, 2, 2, 0), ATTN_E_NULL, ATTN_E_SIZE,
                   "matmul(C=NULL, m=0)");
  end();

  begin("attn_softmax_rows status codes");
  expect_status(attn_softmax_rows(NULL, a, 2, 2, 1), ATTN_E_NULL, "softmax(out=NULL)");
  expect_status(attn_softmax_rows(c, NULL, 2, 2, 1), ATTN_E_NULL, "softmax(in=NULL)");
  for (int i = 0; i < 3; i++) {
    expect_status(attn_softmax_rows(c, a, bad_sizes[i], 2, 1), ATTN_E_SIZE, "softmax(rows<=0)");
    expect_status(attn_softmax_rows(c, a, 2, bad_sizes[i], 1), ATTN_E_SIZE, "softmax(cols<=0)");
  }
  expect_status(attn_softmax_rows(c, a, INT_MAX, INT_MAX, 1), ATTN_E_SIZE,
                "softmax(INT_MAX sizes)");
  const float bad_t[] = {0.0f, -0.0f, -1.0f, -FLT_MIN, NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 7; i++) {
    char what[64];
    snprintf(what, sizeof what, "softmax(temperature=%g)", (double)bad_t[i]);
    expect_status(attn_softmax_rows(c, a, 2, 2, bad_t[i]), ATTN_E_TEMP, what);
  }
  expect_status(attn_softmax_rows(c, a, 2, 2, FLT_TRUE_MIN), ATTN_OK, "softmax(T=min subnormal)");
  expect_status(attn_softmax_rows(c, a, 2, 2, FLT_MAX), ATTN_OK, "softmax(T=FLT_MAX)");
  expect_status_in(attn_softmax_rows(c, NULL, 2, 2, NAN), ATTN_E_NULL, ATTN_E_TEMP,
                   "softmax(in=NULL, T=NaN)");
  expect_status_in(attn_softmax_rows(c, a, -3, 2, 0), ATTN_E_SIZE, ATTN_E_TEMP,
                   "softmax(rows<0, T=0)");
  end();

  begin("attn_positional_encoding status codes");
  expect_status(attn_positional_encoding(NULL, 2, 2), ATTN_E_NULL, "posenc(out=NULL)");
  for (int i = 0; i < 3; i++) {
    expect_status(attn_positional_encoding(c, bad_sizes[i], 2), ATTN_E_SIZE, "posenc(n<=0)");
    expect_status(attn_positional_encoding(c, 2, bad_sizes[i]), ATTN_E_SIZE, "posenc(d<=0)");
  }
  expect_status(attn_positional_encoding(c, INT_MAX, INT_MAX), ATTN_E_SIZE,
                "posenc(INT_MAX sizes)");
  end();

  begin("attn_attention status codes");
  {
    float out[64], W[64];
    void *ws = wsbuf(attn_attention_workspace_size(2, 3, 4, 5, 0));
    const attn_masks mk = {.causal = 1};
#define ATT(o, w, q, k, v, nq, nk, dk, dv, s, m, x) \
  attn_attention(o, w, q, k, v, nq, nk, dk, dv, s, m, x)
    expect_status(ATT(out, W, a, b, c, 2, 3, 4, 5, 0.5f, &mk, ws), ATTN_OK, "attention(valid)");
    expect_status(ATT(out, NULL, a, b, c, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_OK, "attention(fused)");
    expect_status(ATT(NULL, W, a, b, c, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_NULL, "attention(out=NULL)");
    expect_status(ATT(out, W, NULL, b, c, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_NULL, "attention(Q=NULL)");
    expect_status(ATT(out, W, a, NULL, c, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_NULL, "attention(K=NULL)");
    expect_status(ATT(out, NULL, a, b, NULL, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_NULL, "attention(V=NULL)");
    for (int i = 0; i < 3; i++) {
      const int s = bad_sizes[i];
      expect_status(ATT(out, W, a, b, c, s, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "attention(n_q<=0)");
      expect_status(ATT(out, W, a, b, c, 2, s, 4, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "attention(n_k<=0)");
      expect_status(ATT(out, NULL, a, b, c, 2, 3, s, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "attention(d_k<=0)");
      expect_status(ATT(out, NULL, a, b, c, 2, 3, 4, s, 0.5f, NULL, ws), ATTN_E_SIZE, "attention(d_v<=0)");
      CHECK(attn_attention_workspace_size(s, 3, 4, 5, 0) == 0 &&
                attn_attention_workspace_size(2, 3, 4, s, 1) == 0,
            "workspace size for size %d is not 0", s);
    }
    expect_status(ATT(out, W, a, b, c, INT_MAX, INT_MAX, INT_MAX, INT_MAX, 0.5f, NULL, NULL),
                  ATTN_E_SIZE, "attention(INT_MAX sizes)");
    CHECK(attn_attention_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1) == 0,
          "workspace size for INT_MAX sizes is not 0");
    const float bad_s[] = {0.0f, -0.0f, -0.5f, NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 6; i++) {
      char what[64];
      snprintf(what, sizeof what, "attention(scale=%g)", (double)bad_s[i]);
      expect_status(ATT(out, W, a, b, c, 2, 3, 4, 5, bad_s[i], NULL, ws), ATTN_E_TEMP, what);
      expect_status(ATT(out, NULL, a, b, c, 2, 3, 4, 5, bad_s[i], &mk, ws), ATTN_E_TEMP, what);
    }
    expect_status(ATT(out, NULL, a, b, c, 2, 3, 4, 5, 0.5f, NULL, NULL), ATTN_E_WORKSPACE,
                  "attention(fused, workspace=NULL)");
    expect_status(ATT(out, W, a, b, c, 2, 3, 4, 5, 0.5f, &mk, NULL), ATTN_OK,
                  "attention(weights, workspace=NULL)");
    expect_status_in(ATT(out, NULL, NULL, b, c, 2, 3, 4, 5, 0.5f, NULL, NULL), ATTN_E_NULL,
                     ATTN_E_WORKSPACE, "attention(Q=NULL, workspace=NULL)");
    expect_status_in(ATT(out, W, a, b, c, 2, 0, 4, 5, NAN, NULL, ws), ATTN_E_SIZE, ATTN_E_TEMP,
                     "attention(n_k=0, scale=NaN)");
    /* windows: 2 queries, 3 keys, so global positions may be 0 .. 2 */
    const int32_t g_ok[] = {0, 2}, g_down[] = {2, 0}, g_twice[] = {1, 1}, g_far[] = {3},
                  g_neg[] = {-1};
    const struct { attn_masks mk; int want; const char *what; } wins[] = {
        {{.has_window = 1, .window = 0}, ATTN_OK, "window 0"},
        {{.has_window = 1, .window = INT_MAX, .global = g_ok, .n_global = 2}, ATTN_OK, "window INT_MAX, globals 0 2"},
        {{.has_window = 0, .window = -5, .global = g_down, .n_global = 2}, ATTN_OK, "no window: the rest unread"},
        {{.has_window = 1, .window = -1}, ATTN_E_MASK, "window -1"},
        {{.has_window = 1, .window = INT_MIN}, ATTN_E_MASK, "window INT_MIN"},
        {{.has_window = 1, .window = 1, .global = g_down, .n_global = 2}, ATTN_E_MASK, "globals descending"},
        {{.has_window = 1, .window = 1, .global = g_twice, .n_global = 2}, ATTN_E_MASK, "a global twice"},
        {{.has_window = 1, .window = 1, .global = g_far, .n_global = 1}, ATTN_E_MASK, "a global past max(n_q, n_k)"},
        {{.has_window = 1, .window = 1, .global = g_neg, .n_global = 1}, ATTN_E_MASK, "a global < 0"},
        {{.has_window = 1, .window = 1, .global = g_ok, .n_global = -1}, ATTN_E_MASK, "n_global < 0"},
        {{.has_window = 1, .window = 1, .global = NULL, .n_global = 1}, ATTN_E_NULL, "global NULL, n_global 1"},
    };
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
      char what[96];
      snprintf(what, sizeof what, "attention(%s)", wins[i].what);
      expect_status(ATT(out, W, a, b, c, 2, 3, 4, 5, 0.5f, &wins[i].mk, NULL), wins[i].want, what);
      expect_status(ATT(out, NULL, a, b, c, 2, 3, 4, 5, 0.5f, &wins[i].mk, ws), wins[i].want, what);
    }
#undef ATT
    free(ws);
  }
  end();

  begin("attn_mha status codes");
  {
    /* n_q = 2, n_k = 3, d = 4, heads = 2 */
    float I[16], Y[8], Wt[12], Z[8], X[12];
    for (int i = 0; i < 16; i++) I[i] = i % 5 == 0;
    for (int i = 0; i < 12; i++) X[i] = (float)i / 12;
    const attn_mha_params P = {I, I, I, I, NULL, NULL, NULL, NULL};
    void *ws = wsbuf(attn_mha_workspace_size(2, 3, 4, 2, 1));
    expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 2, &P, NULL, ws), ATTN_OK, "mha(valid)");
    expect_status(attn_mha(NULL, Wt, Z, X, X, 2, 3, 4, 2, &P, NULL, ws), ATTN_E_NULL, "mha(Y=NULL)");
    expect_status(attn_mha(Y, Wt, Z, NULL, X, 2, 3, 4, 2, &P, NULL, ws), ATTN_E_NULL, "mha(Xq=NULL)");
    expect_status(attn_mha(Y, Wt, Z, X, NULL, 2, 3, 4, 2, &P, NULL, ws), ATTN_E_NULL, "mha(Xkv=NULL)");
    expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 2, NULL, NULL, ws), ATTN_E_NULL, "mha(params=NULL)");
    for (int w = 0; w < 4; w++) {
      attn_mha_params Pb = P;
      const float **slot[4] = {&Pb.Wq, &Pb.Wk, &Pb.Wv, &Pb.Wo};
      *slot[w] = NULL;
      char what[32];
      snprintf(what, sizeof what, "mha(W%c=NULL)", "qkvo"[w]);
      expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 2, &Pb, NULL, ws), ATTN_E_NULL, what);
    }
    for (int i = 0; i < 3; i++) {
      const int s = bad_sizes[i];
      expect_status(attn_mha(Y, Wt, Z, X, X, s, 3, 4, 2, &P, NULL, ws), ATTN_E_SIZE, "mha(n_q<=0)");
      expect_status(attn_mha(Y, Wt, Z, X, X, 2, s, 4, 2, &P, NULL, ws), ATTN_E_SIZE, "mha(n_k<=0)");
      expect_status_in(attn_mha(Y, Wt, Z, X, X, 2, 3, s, 2, &P, NULL, ws), ATTN_E_SIZE,
                       ATTN_E_HEADS, "mha(d_model<=0)");
      CHECK(attn_mha_workspace_size(s, 3, 4, 2, 0) == 0, "mha workspace for n_q=%d is not 0", s);
    }
    const int bad_heads[] = {0, -1, 3, 8, INT_MIN};
    for (int i = 0; i < 5; i++) {
      char what[32];
      snprintf(what, sizeof what, "mha(heads=%d)", bad_heads[i]);
      expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, bad_heads[i], &P, NULL, ws), ATTN_E_HEADS, what);
      CHECK(attn_mha_workspace_size(2, 3, 4, bad_heads[i], 1) == 0,
            "mha workspace for heads=%d is not 0", bad_heads[i]);
    }
    expect_status(attn_mha(Y, NULL, NULL, X, X, 2, 3, 4, 2, &P, NULL, NULL), ATTN_E_WORKSPACE,
                  "mha(workspace=NULL)");
    expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 2, &P, NULL, NULL), ATTN_E_WORKSPACE,
                  "mha(weights, workspace=NULL)");
    /* heads x n_q x n_k weights overflow 64 bits: cannot be valid */
    expect_status(attn_mha(Y, Wt, Z, X, X, INT_MAX, INT_MAX, INT_MAX, INT_MAX, &P, NULL, NULL),
                  ATTN_E_SIZE, "mha(INT_MAX sizes)");
    CHECK(attn_mha_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX, 1) == 0,
          "mha workspace for INT_MAX sizes is not 0");
    expect_status_in(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 0, NULL, NULL, ws), ATTN_E_NULL,
                     ATTN_E_HEADS, "mha(params=NULL, heads=0)");
    expect_status_in(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 3, &P, NULL, NULL), ATTN_E_HEADS,
                     ATTN_E_WORKSPACE, "mha(heads=3, workspace=NULL)");
    const int32_t twice[] = {1, 1};
    const attn_masks bad_window = {.has_window = 1, .window = -1},
                     bad_global = {.has_window = 1, .window = 1, .global = twice, .n_global = 2};
    expect_status(attn_mha(Y, Wt, Z, X, X, 2, 3, 4, 2, &P, &bad_window, ws), ATTN_E_MASK, "mha(window -1)");
    expect_status(attn_mha(Y, NULL, Z, X, X, 2, 3, 4, 2, &P, &bad_global, ws), ATTN_E_MASK,
                  "mha(a global twice)");
    free(ws);
  }
  end();
}


static void test_backward_status_codes(void) {
  float a[64], b[64], c[64], g[3][64];
  for (int i = 0; i < 64; i++) a[i] = b[i] = c[i] = (float)i / 64;
  const int bad_sizes[] = {0, -1, INT_MIN};
  const float bad_t[] = {0.0f, -0.0f, -1.0f, NAN, INFINITY, -INFINITY};

  begin("attn_softmax_backward status codes");
  expect_status(attn_softmax_backward(NULL, a, b, 2, 2, 1), ATTN_E_NULL, "softmax_backward(dX=NULL)");
  expect_status(attn_softmax_backward(c, NULL, b, 2, 2, 1), ATTN_E_NULL, "softmax_backward(Y=NULL)");
  expect_status(attn_softmax_backward(c, a, NULL, 2, 2, 1), ATTN_E_NULL, "softmax_backward(dY=NULL)");
  for (int i = 0; i < 3; i++) {
    expect_status(attn_softmax_backward(c, a, b, bad_sizes[i], 2, 1), ATTN_E_SIZE, "softmax_backward(rows<=0)");
    expect_status(attn_softmax_backward(c, a, b, 2, bad_sizes[i], 1), ATTN_E_SIZE, "softmax_backward(cols<=0)");
  }
  expect_status(attn_softmax_backward(c, a, b, INT_MAX, INT_MAX, 1), ATTN_E_SIZE,
                "softmax_backward(INT_MAX sizes)");
  for (int i = 0; i < 6; i++)
    expect_status(attn_softmax_backward(c, a, b, 2, 2, bad_t[i]), ATTN_E_TEMP, "softmax_backward(bad T)");
  end();

  begin("attn_attention_lse and attn_attention_backward status codes");
  {
    /* n_q = 2, n_k = 3, d_k = 4, d_v = 5 */
    void *ws = wsbuf(attn_attention_backward_workspace_size(2, 3, 4, 5));
    void *wf = wsbuf(attn_attention_workspace_size(2, 3, 4, 5, 0));
    float out[10], lse[2];
    expect_status(attn_attention_lse(out, lse, a, b, c, 2, 3, 4, 5, 0.5f, NULL, wf), ATTN_OK, "lse(valid)");
    expect_status(attn_attention_lse(out, NULL, a, b, c, 2, 3, 4, 5, 0.5f, NULL, wf), ATTN_E_NULL, "lse(lse=NULL)");
    expect_status(attn_attention_lse(out, lse, a, b, c, 2, 3, 4, 5, 0.5f, NULL, NULL), ATTN_E_WORKSPACE,
                  "lse(workspace=NULL)");
    expect_status(attn_attention_lse(out, lse, a, b, c, 0, 3, 4, 5, 0.5f, NULL, wf), ATTN_E_SIZE, "lse(n_q=0)");
    expect_status(attn_attention_lse(out, lse, a, b, c, 2, 3, 4, 5, NAN, NULL, wf), ATTN_E_TEMP, "lse(scale=NaN)");
#define BWD(q, k, v, o, x, w, l, nq, nk, dk, dv, s, m, y) \
  attn_attention_backward(g[0], g[1], g[2], q, k, v, o, x, w, l, nq, nk, dk, dv, s, m, y)
    float W[6] = {0.5f, 0.5f, 0, 1, 0, 0};
    expect_status(BWD(a, b, c, out, a, W, NULL, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_OK, "backward(weights)");
    expect_status(BWD(a, b, c, out, a, NULL, lse, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_OK, "backward(fused)");
    expect_status(BWD(a, b, c, out, a, NULL, NULL, 2, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_NULL,
                  "backward(weights and lse NULL)");
    const float *ins[5] = {a, b, c, out, a};
    for (int p = 0; p < 5; p++) {
      const float *x[5];
      for (int q = 0; q < 5; q++) x[q] = q == p ? NULL : ins[q];
      expect_status(BWD(x[0], x[1], x[2], x[3], x[4], W, NULL, 2, 3, 4, 5, 0.5f, NULL, ws),
                    ATTN_E_NULL, "backward(an input NULL)");
    }
    for (int p = 0; p < 3; p++) {
      float *outs[3] = {g[0], g[1], g[2]};
      outs[p] = NULL;
      expect_status(attn_attention_backward(outs[0], outs[1], outs[2], a, b, c, out, a, W, NULL, 2,
                                            3, 4, 5, 0.5f, NULL, ws),
                    ATTN_E_NULL, "backward(a gradient NULL)");
    }
    for (int i = 0; i < 3; i++) {
      const int s = bad_sizes[i];
      expect_status(BWD(a, b, c, out, a, W, NULL, s, 3, 4, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "backward(n_q<=0)");
      expect_status(BWD(a, b, c, out, a, W, NULL, 2, s, 4, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "backward(n_k<=0)");
      expect_status(BWD(a, b, c, out, a, W, NULL, 2, 3, s, 5, 0.5f, NULL, ws), ATTN_E_SIZE, "backward(d_k<=0)");
      expect_status(BWD(a, b, c, out, a, W, NULL, 2, 3, 4, s, 0.5f, NULL, ws), ATTN_E_SIZE, "backward(d_v<=0)");
      CHECK(attn_attention_backward_workspace_size(s, 3, 4, 5) == 0 &&
                attn_attention_backward_workspace_size(2, 3, 4, s) == 0,
            "backward workspace size for size %d is not 0", s);
    }
    expect_status(BWD(a, b, c, out, a, W, NULL, INT_MAX, INT_MAX, INT_MAX, INT_MAX, 0.5f, NULL, ws),
                  ATTN_E_SIZE, "backward(INT_MAX sizes)");
    CHECK(attn_attention_backward_workspace_size(INT_MAX, INT_MAX, INT_MAX, INT_MAX) == 0,
          "backward workspace size for INT_MAX sizes is not 0");
    /* 200000^2 weights cannot exist; the fused path has none */
    expect_status(BWD(a, b, c, out, a, W, NULL, 200000, 200000, 1, 1, 0.5f, NULL, ws), ATTN_E_SIZE,
                  "backward(weights of 200000 x 200000)");
    for (int i = 0; i < 6; i++)
      expect_status(BWD(a, b, c, out, a, W, NULL, 2, 3, 4, 5, bad_t[i], NULL, ws), ATTN_E_TEMP,
                    "backward(bad scale)");
    expect_status(BWD(a, b, c, out, a, W, NULL, 2, 3, 4, 5, 0.5f, NULL, NULL), ATTN_E_WORKSPACE,
                  "backward(workspace=NULL)");
#undef BWD
    free(ws), free(wf);
  }
  end();

  begin("attn_mha_backward status codes");
  {
    /* n_q = 2, n_k = 3, d = 4, heads = 2 */
    float I[16], X[12], dY[8], dXq[8], dXkv[12], gW[4][16], gb[4][4];
    for (int i = 0; i < 16; i++) I[i] = i % 5 == 0;
    for (int i = 0; i < 12; i++) X[i] = (float)i / 12;
    for (int i = 0; i < 8; i++) dY[i] = (float)i / 8;
    const attn_mha_params P = {I, I, I, I, NULL, NULL, NULL, NULL};
    const attn_mha_grads G = {gW[0], gW[1], gW[2], gW[3], gb[0], gb[1], gb[2], gb[3]};
    void *ws = wsbuf(attn_mha_backward_workspace_size(2, 3, 4, 2, 1));
    expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws), ATTN_OK,
                  "mha_backward(valid)");
    expect_status(attn_mha_backward(NULL, dXkv, &G, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws), ATTN_E_NULL,
                  "mha_backward(dXq=NULL)");
    expect_status(attn_mha_backward(dXq, NULL, &G, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws), ATTN_E_NULL,
                  "mha_backward(dXkv=NULL with n_k != n_q)");
    expect_status(attn_mha_backward(dXq, NULL, &G, X, X + 4, dY, 2, 2, 4, 2, &P, NULL, 1, ws), ATTN_E_NULL,
                  "mha_backward(dXkv=NULL with Xkv != Xq)");
    expect_status(attn_mha_backward(dXq, NULL, &G, X, X, dY, 2, 2, 4, 2, &P, NULL, 1, ws), ATTN_OK,
                  "mha_backward(self, dXkv=NULL)");
    expect_status(attn_mha_backward(dXq, dXkv, NULL, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws), ATTN_E_NULL,
                  "mha_backward(grads=NULL)");
    expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, NULL, 2, 3, 4, 2, &P, NULL, 1, ws), ATTN_E_NULL,
                  "mha_backward(dY=NULL)");
    for (int w = 0; w < 4; w++) {
      attn_mha_grads Gb = G;
      float **slot[4] = {&Gb.dWq, &Gb.dWk, &Gb.dWv, &Gb.dWo};
      *slot[w] = NULL;
      expect_status(attn_mha_backward(dXq, dXkv, &Gb, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws),
                    ATTN_E_NULL, "mha_backward(a dW NULL)");
    }
    const attn_mha_grads no_bias = {gW[0], gW[1], gW[2], gW[3], NULL, NULL, NULL, NULL};
    expect_status(attn_mha_backward(dXq, dXkv, &no_bias, X, X, dY, 2, 3, 4, 2, &P, NULL, 1, ws),
                  ATTN_OK, "mha_backward(bias gradients not wanted)");
    const int bad_heads[] = {0, -1, 3, 8, INT_MIN};
    for (int i = 0; i < 5; i++) {
      expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, dY, 2, 3, 4, bad_heads[i], &P, NULL, 1, ws),
                    ATTN_E_HEADS, "mha_backward(bad heads)");
      CHECK(attn_mha_backward_workspace_size(2, 3, 4, bad_heads[i], 0) == 0,
            "mha_backward workspace for heads=%d is not 0", bad_heads[i]);
    }
    for (int i = 0; i < 3; i++) {
      const int s = bad_sizes[i];
      expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, dY, s, 3, 4, 2, &P, NULL, 1, ws),
                    ATTN_E_SIZE, "mha_backward(n_q<=0)");
      CHECK(attn_mha_backward_workspace_size(2, s, 4, 2, 1) == 0,
            "mha_backward workspace for n_k=%d is not 0", s);
    }
    expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, dY, INT_MAX, INT_MAX, INT_MAX, INT_MAX, &P,
                                    NULL, 1, NULL),
                  ATTN_E_SIZE, "mha_backward(INT_MAX sizes)");
    expect_status(attn_mha_backward(dXq, dXkv, &G, X, X, dY, 2, 3, 4, 2, &P, NULL, 0, NULL),
                  ATTN_E_WORKSPACE, "mha_backward(workspace=NULL)");
    free(ws);
  }
  end();
}

const test_group TEST_GROUPS[] = {
    {"status_codes", test_status_codes, 1},
    {"backward_status", test_backward_status_codes, 1},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

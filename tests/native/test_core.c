/* test_core.c: src/core.c, src/check.c and src/layout.c: status names, the
 * SIMD switch, counted memory, the NaN and infinity scan, the struct layouts
 * the JS reads. (The checker's statuses, entry by entry: test_contract.c.) */
#include "harness.h"

/* ==== status names, SIMD switch, counted memory ========================= */

static void test_status_names(void) {
  begin("attn_status_name");
  const int codes[] = {ATTN_OK, ATTN_E_NULL, ATTN_E_SIZE, ATTN_E_HEADS,
                       ATTN_E_TEMP, ATTN_E_WORKSPACE, ATTN_E_MASK};
  const int n = sizeof codes / sizeof codes[0];
  for (int i = 0; i < n; i++) {
    const char *s = attn_status_name(codes[i]);
    CHECK(s && s[0], "code %d has no name", codes[i]);
    for (int j = 0; j < i && s; j++) {
      const char *t = attn_status_name(codes[j]);
      CHECK(!t || strcmp(s, t) != 0, "codes %d and %d share the name \"%s\"",
            codes[i], codes[j], s);
    }
  }
  CHECK(strcmp(attn_status_name(ATTN_OK), "ok") == 0, "code 0 is not \"ok\"");
  CHECK(attn_status_name(-99) != NULL && attn_status_name(12345) != NULL,
        "an unknown code gives NULL");
  end();

  begin("attn_simd_enabled follows attn__set_simd");
  attn__set_simd(0);
  CHECK(attn_simd_enabled() == 0, "scalar path selected, reports %d",
        attn_simd_enabled());
  attn__set_simd(1);
  CHECK(attn_simd_enabled() == 1,
        "SIMD path selected in a native GCC/clang build, reports %d",
        attn_simd_enabled());
  end();
}

static void test_memory(void) {
  begin("attn_alloc / attn_free count bytes");
  const size_t base = attn_memory_in_use();
  const size_t sizes[] = {1, 3, 16, 17, 1000, 65536};
  enum { N = sizeof sizes / sizeof sizes[0] };
  unsigned char *p[N];
  size_t total = 0;
  for (int i = 0; i < N; i++) {
    p[i] = attn_alloc(sizes[i]);
    CHECK(p[i] != NULL, "attn_alloc(%zu) returned NULL", sizes[i]);
    if (!p[i]) continue;
    CHECK(((uintptr_t)p[i] & 15) == 0,
          "attn_alloc(%zu) = %p is not 16-byte aligned (workspaces need it)",
          sizes[i], (void *)p[i]);
    memset(p[i], 0xAB, sizes[i]); /* all of it is ours (ASan checks) */
    total += sizes[i];
    CHECK(attn_memory_in_use() == base + total,
          "after attn_alloc(%zu): in use %zu, expected %zu", sizes[i],
          attn_memory_in_use(), base + total);
  }
  for (int i = N - 1; i >= 0; i--) {
    if (!p[i]) continue;
    attn_free(p[i]);
    total -= sizes[i];
    CHECK(attn_memory_in_use() == base + total,
          "after attn_free of %zu bytes: in use %zu, expected %zu", sizes[i],
          attn_memory_in_use(), base + total);
  }
  attn_free(NULL);
  CHECK(attn_memory_in_use() == base, "attn_free(NULL) changed the count");
  end();

  begin("attn_alloc of impossible sizes returns NULL and counts nothing");
  const size_t huge[] = {SIZE_MAX, SIZE_MAX - 8, SIZE_MAX / 2};
  for (int i = 0; i < 3; i++) {
    void *q = attn_alloc(huge[i]);
    CHECK(q == NULL, "attn_alloc(%zu) returned %p", huge[i], q);
    if (q) attn_free(q);
    CHECK(attn_memory_in_use() == base, "attn_alloc(%zu) changed the count",
          huge[i]);
  }
  end();
}


/* ==== attn_first_nonfinite ============================================== */

static void test_first_nonfinite(void) {
  rng_t r = rng_for("first_nonfinite");
  /* around the lane width and the scan's blocks of 64 */
  const size_t ns[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 63, 64, 65, 127, 128, 129, 191, 192, 200, 1000};
  const float finite[] = {0.0f, -0.0f, 1.0f, -2.5f, FLT_MAX, -FLT_MAX, FLT_MIN, FLT_TRUE_MIN, -1e-40f, 3e38f};
  const float bad[] = {NAN, -NAN, INFINITY, -INFINITY};
  const char *bad_name[] = {"NaN", "-NaN", "+inf", "-inf"};
  for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
    const size_t n = ns[a];
    begin("attn_first_nonfinite n=%zu", n);
    float *x = fbuf(n); /* exact size: the scan must not read past n */
    for (size_t i = 0; i < n; i++) x[i] = finite[rng_next(&r) % 10] * (float)(1 + i % 3);
    for (size_t i = 0; i < n; i++)
      if (!isfinite(x[i])) x[i] = FLT_MAX; /* 3e38 * 2 overflowed */
    for (int allow = 0; allow < 2; allow++) {
      CHECK(attn_first_nonfinite(x, n, allow) == n, "all finite (allow -inf %d): got %zu, want %zu",
            allow, attn_first_nonfinite(x, n, allow), n);
      /* one bad value at every position (every 7th past 200) */
      for (size_t p = 0; p < n; p += n > 200 ? 7 : 1)
        for (int b = 0; b < 4; b++) {
          const float keep = x[p];
          x[p] = bad[b];
          const size_t want = ref_first_nonfinite(x, n, allow), got = attn_first_nonfinite(x, n, allow);
          CHECK(got == want, "%s at %zu (allow -inf %d): got %zu, want %zu", bad_name[b], p, allow,
                got, want);
          x[p] = keep;
        }
      /* an allowed -inf followed by a NaN further on, in the same block and the next */
      if (n >= 3) {
        const size_t p = rng_next(&r) % (n - 2), q = p + 1 + rng_next(&r) % (n - p - 1);
        const float kp = x[p], kq = x[q];
        x[p] = -INFINITY, x[q] = NAN;
        CHECK(attn_first_nonfinite(x, n, allow) == (allow ? q : p),
              "-inf at %zu then NaN at %zu (allow -inf %d): got %zu", p, q, allow,
              attn_first_nonfinite(x, n, allow));
        x[p] = kp, x[q] = kq;
      }
    }
    CHECK(attn_first_nonfinite(NULL, 0, 0) == 0, "NULL with n = 0 is not 0");
    free(x);
    end();
  }
}

/* ==== the struct layouts the JS reads (src/layout.c) ====================== */

/* Every entry names a struct or one of its fields with a kind; structs come
 * first and every field's struct is listed; the values are this build's
 * sizeof and offsetof (checked for a few), every field inside its struct. */
static void test_layout(void) {
  begin("attn_layout_name / attn_layout_value: well formed, this build's offsets");
  char structs[16][32];
  int n_structs = 0, fields = 0;
  for (int i = 0; attn_layout_name(i); i++) {
    const char *name = attn_layout_name(i), *dot = strchr(name, '.'), *space = strchr(name, ' ');
    const int value = attn_layout_value(i);
    CHECK(value >= 0 && value % 4 == 0, "%s = %d is not a whole number of 32-bit words", name, value);
    if (!dot) {
      CHECK(!space && fields == 0 && n_structs < 16 && strlen(name) < 32,
            "%s: a struct after the fields, or with a kind", name);
      if (n_structs < 16) snprintf(structs[n_structs++], 32, "%s", name);
      continue;
    }
    fields++;
    CHECK(space && space > dot, "%s has no kind", name);
    if (!space) continue;
    const char *kind = space + 1;
    int known = !strcmp(kind, "i32") || !strcmp(kind, "f32") || !strcmp(kind, "ptr") || !strcmp(kind, "size");
    int owner = -1;
    for (int k = 0; k < n_structs; k++) {
      if ((size_t)(dot - name) == strlen(structs[k]) && !strncmp(name, structs[k], (size_t)(dot - name)))
        owner = k;
      known |= !strcmp(kind, structs[k]);
    }
    CHECK(known, "%s: unknown kind", name);
    CHECK(owner >= 0, "%s: its struct is not listed", name);
    for (int k = 0; owner >= 0 && k < i; k++)
      if (!strcmp(attn_layout_name(k), structs[owner]))
        CHECK(value + 4 <= attn_layout_value(k), "%s at %d runs past its struct (%d bytes)", name, value,
              attn_layout_value(k));
  }
  CHECK(n_structs == 7 && fields > 0, "%d structs, %d fields", n_structs, fields);
  const struct {
    const char *name;
    int value;
  } known[] = {{"attn_masks", (int)sizeof(attn_masks)},
               {"attn_masks.n_global i32", (int)offsetof(attn_masks, n_global)},
               {"attn_tf_model.cfg attn_tf_config", (int)offsetof(attn_tf_model, cfg)},
               {"attn_tf_model.step i32", (int)offsetof(attn_tf_model, step)},
               {"attn_tf_param.offset size", (int)offsetof(attn_tf_param, offset)},
               {"attn_adamw.weight_decay f32", (int)offsetof(attn_adamw, weight_decay)}};
  for (int k = 0; k < N_OF(known); k++) {
    int found = 0;
    for (int i = 0; attn_layout_name(i); i++)
      if (!strcmp(attn_layout_name(i), known[k].name)) {
        found = 1;
        CHECK(attn_layout_value(i) == known[k].value, "%s = %d, this build's is %d", known[k].name,
              attn_layout_value(i), known[k].value);
      }
    CHECK(found, "no entry %s", known[k].name);
  }
  end();
}

const test_group TEST_GROUPS[] = {
    {"status_names", test_status_names, 0},
    {"memory", test_memory, 0},
    {"first_nonfinite", test_first_nonfinite, 1},
    {"layout", test_layout, 0},
};
const int N_TEST_GROUPS = N_OF(TEST_GROUPS);

/* layout.c: the layouts of the structs the JavaScript side writes and reads
 * in wasm memory, reported by the module itself (attn_layout_name,
 * attn_layout_value), so that web/api/layout.js learns every offset from the
 * build it runs and no layout is written twice.
 *
 * Entry "attn_masks" is sizeof(attn_masks); entry "attn_masks.add ptr" is
 * offsetof(attn_masks, add), a field of kind ptr. Kinds: i32 (int), f32
 * (float), ptr (any pointer), size (size_t), or the name of a struct of this
 * list (a struct inside a struct). The static asserts keep every kind true
 * and every field on a 4-byte boundary: the JS writes 32-bit words.
 */
#include <stddef.h>

#include "internal.h"

/* X(struct, field, kind) for every field the JS touches, struct by struct. */
#define ATTN_JS_FIELDS(X)                                                                 \
  X(attn_masks, add, ptr) X(attn_masks, key_padding, ptr) X(attn_masks, causal, i32)      \
  X(attn_masks, has_window, i32) X(attn_masks, window, i32) X(attn_masks, global, ptr)    \
  X(attn_masks, n_global, i32) X(attn_masks, first_query, i32)                            \
  X(attn_mha_params, Wq, ptr) X(attn_mha_params, Wk, ptr) X(attn_mha_params, Wv, ptr)     \
  X(attn_mha_params, Wo, ptr) X(attn_mha_params, bq, ptr) X(attn_mha_params, bk, ptr)     \
  X(attn_mha_params, bv, ptr) X(attn_mha_params, bo, ptr)                                 \
  X(attn_mha_grads, dWq, ptr) X(attn_mha_grads, dWk, ptr) X(attn_mha_grads, dWv, ptr)     \
  X(attn_mha_grads, dWo, ptr) X(attn_mha_grads, dbq, ptr) X(attn_mha_grads, dbk, ptr)     \
  X(attn_mha_grads, dbv, ptr) X(attn_mha_grads, dbo, ptr)                                 \
  X(attn_tf_config, vocab, i32) X(attn_tf_config, context, i32)                           \
  X(attn_tf_config, d_model, i32) X(attn_tf_config, heads, i32)                           \
  X(attn_tf_config, layers, i32) X(attn_tf_config, mlp, i32)                              \
  X(attn_tf_config, layer_norm, i32)                                                      \
  X(attn_tf_model, cfg, attn_tf_config) X(attn_tf_model, params, ptr)                     \
  X(attn_tf_model, grads, ptr) X(attn_tf_model, m, ptr) X(attn_tf_model, v, ptr)          \
  X(attn_tf_model, off, ptr) X(attn_tf_model, step, i32)                                  \
  X(attn_tf_param, name, ptr) X(attn_tf_param, layer, i32) X(attn_tf_param, rows, i32)    \
  X(attn_tf_param, cols, i32) X(attn_tf_param, offset, size)                              \
  X(attn_adamw, lr, f32) X(attn_adamw, beta1, f32) X(attn_adamw, beta2, f32)              \
  X(attn_adamw, eps, f32) X(attn_adamw, weight_decay, f32)

#define ATTN_JS_STRUCTS(X)                                                                \
  X(attn_masks) X(attn_mha_params) X(attn_mha_grads) X(attn_tf_config) X(attn_tf_model)   \
  X(attn_tf_param) X(attn_adamw)

/* The C types each kind stands for. */
#define KIND_i32 int: 1
#define KIND_f32 float: 1
#define KIND_size size_t: 1
#define KIND_attn_tf_config attn_tf_config: 1
#define KIND_ptr                                                                          \
  const float *: 1, float *: 1, const uint8_t *: 1, uint8_t *: 1, const int32_t *: 1,      \
      const char *: 1
#define IS_KIND(S, f, kind) _Generic(((S *)0)->f, KIND_##kind, default: 0)

#define ASSERT_FIELD(S, f, kind)                                                          \
  _Static_assert(IS_KIND(S, f, kind), #S "." #f " is not of kind " #kind);                \
  _Static_assert(offsetof(S, f) % 4 == 0, #S "." #f " is not on a 32-bit word");
ATTN_JS_FIELDS(ASSERT_FIELD)
#define ASSERT_STRUCT(S) _Static_assert(sizeof(S) % 4 == 0, #S " is not whole 32-bit words");
ATTN_JS_STRUCTS(ASSERT_STRUCT)
#if defined(__wasm32__)
_Static_assert(sizeof(void *) == 4 && sizeof(size_t) == 4,
               "the JS reads pointers and sizes as one 32-bit word");
#endif

static const struct {
  const char *name;
  int32_t value;
} LAYOUT[] = {
#define STRUCT_ENTRY(S) {#S, (int32_t)sizeof(S)},
#define FIELD_ENTRY(S, f, kind) {#S "." #f " " #kind, (int32_t)offsetof(S, f)},
    ATTN_JS_STRUCTS(STRUCT_ENTRY) ATTN_JS_FIELDS(FIELD_ENTRY)};
enum { N_LAYOUT = sizeof LAYOUT / sizeof *LAYOUT };

const char *attn_layout_name(int i) { return i >= 0 && i < N_LAYOUT ? LAYOUT[i].name : NULL; }

int attn_layout_value(int i) { return i >= 0 && i < N_LAYOUT ? LAYOUT[i].value : -1; }

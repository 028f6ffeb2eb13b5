/* ceiling.c: the practical peak of wasm SIMD on one core. Twelve
 * independent f32x4 chains, each step a multiply then an add (SIMD128 has
 * no FMA), all in registers: enough chains to hide the latency, so the loop
 * is limited by how many vector ops the core issues per cycle. Built with
 * -mrelaxed-simd, each step is one f32x4.relaxed_madd instead: the relaxed
 * ceiling (bench/ceiling.mjs builds both).
 * Returns a value that depends on every lane so nothing is optimized away. */
#include <wasm_simd128.h>

#if defined(__wasm_relaxed_simd__)
#define MADD(x, m, a) wasm_f32x4_relaxed_madd(x, m, a)
#else
#define MADD(x, m, a) wasm_f32x4_add(wasm_f32x4_mul(x, m), a)
#endif

#define CHAINS 12

__attribute__((export_name("ceiling_run")))
float ceiling_run(int iterations, float mul, float add) {
  v128_t m = wasm_f32x4_splat(mul), a = wasm_f32x4_splat(add);
  v128_t acc[CHAINS];
  for (int c = 0; c < CHAINS; c++) acc[c] = wasm_f32x4_splat((float)c);
  for (int i = 0; i < iterations; i++) {
    for (int c = 0; c < CHAINS; c++)
      acc[c] = MADD(acc[c], m, a);
  }
  v128_t s = acc[0];
  for (int c = 1; c < CHAINS; c++) s = wasm_f32x4_add(s, acc[c]);
  return wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1) +
         wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3);
}

/* Flops done by one call: CHAINS chains x 4 lanes x 2 ops per iteration. */
__attribute__((export_name("ceiling_flops_per_iteration")))
int ceiling_flops_per_iteration(void) { return CHAINS * 4 * 2; }

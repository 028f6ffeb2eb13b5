// configs.mjs: what the bench runs, and how many flops each config counts.
// Flops count multiply and add separately and ignore softmax and biases:
//   SDPA: Q K^T (2 N^2 d) + P V (2 N^2 d)            = 4 N^2 d
//   SDPA causal: query i sees keys j <= i, about half = 2 N^2 d
//   MHA:  4 projections (2 N D^2 each) + attention   = 8 N D^2 + 4 N^2 D
// A causal row counts the products its mask leaves (as the gradients section
// and FlashAttention's benchmarks do), whatever an engine computes: engines
// that mask the full product (onnxruntime-web, tfjs, this project's weights
// path) do twice that arithmetic, a kernel that skips hidden tiles (this
// project's fused path) about that much. Every engine's time is to the same
// causal result, so vs ORT is a ratio of times either way.

export const FLOP_FORMULAS = {
  sdpa: '4*N^2*d', causal: '2*N^2*d (half of 4*N^2*d: what the mask leaves)', mha: '4*N^2*D + 8*N*D^2', fused: '4*N^2*d',
};

export function flops(c) {
  if (c.kind === 'mha') return 4 * c.N * c.N * c.D + 8 * c.N * c.D * c.D;
  return (4 * c.N * c.N * c.d) / (c.causal ? 2 : 1);
}

export function label(c) {
  if (c.kind === 'mha') return `MHA N=${c.N} D=${c.D} h=${c.heads}`;
  return `${c.kind === 'fused' ? 'fused' : 'SDPA'}${c.causal ? ' causal' : ''} N=${c.N} d=${c.d}`;
}

/** The configs in run order; quick mode drops the 65,536 run. */
export function configs({ quick }) {
  const list = [64, 256, 1024, 4096].map((N) => ({ kind: 'sdpa', N, d: 64 }));
  // Causal self-attention (a decoder's): query i sees keys j <= i.
  for (const N of [1024, 4096]) list.push({ kind: 'sdpa', N, d: 64, causal: true });
  list.push({ kind: 'mha', N: 256, D: 512, heads: 8 });
  // The fused (weights-off) path at lengths where N x N scores no longer fit.
  for (const N of quick ? [16384] : [16384, 65536]) list.push({ kind: 'fused', N, d: 64 });
  return list;
}

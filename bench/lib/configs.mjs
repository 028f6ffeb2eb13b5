// configs.mjs: what the bench runs, and how many flops each config counts.
// Flops count multiply and add separately and ignore softmax and biases:
//   SDPA: Q K^T (2 N^2 d) + P V (2 N^2 d)            = 4 N^2 d
//   MHA:  4 projections (2 N D^2 each) + attention   = 8 N D^2 + 4 N^2 D

export const FLOP_FORMULAS = { sdpa: '4*N^2*d', mha: '4*N^2*D + 8*N*D^2', fused: '4*N^2*d' };

export function flops(c) {
  if (c.kind === 'mha') return 4 * c.N * c.N * c.D + 8 * c.N * c.D * c.D;
  return 4 * c.N * c.N * c.d;
}

export function label(c) {
  if (c.kind === 'mha') return `MHA N=${c.N} D=${c.D} h=${c.heads}`;
  return `${c.kind === 'fused' ? 'fused' : 'SDPA'} N=${c.N} d=${c.d}`;
}

/** The configs in run order; quick mode drops the 65,536 run. */
export function configs({ quick }) {
  const list = [64, 256, 1024, 4096].map((N) => ({ kind: 'sdpa', N, d: 64 }));
  list.push({ kind: 'mha', N: 256, D: 512, heads: 8 });
  // The fused (weights-off) path at lengths where N x N scores no longer fit.
  for (const N of quick ? [16384] : [16384, 65536]) list.push({ kind: 'fused', N, d: 64 });
  return list;
}

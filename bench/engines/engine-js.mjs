// engine-js.mjs: the plain JavaScript loops as a bench engine.
import { sdpa, mha } from './plain-js.mjs';
import { flops } from '../lib/configs.mjs';

// The loops run at ~1 GFLOP/s: N = 16,384 would take over a minute a run,
// and --quick stops at 1,024 (4,096 takes seconds).
const MAX_N = 4096;

/** The JavaScript engine the loops run on: Node's version, or the browser's. */
export const runtimeVersion = () => globalThis.process?.version ?? navigator.userAgent.match(/Chrom\w+\/[\d.]+/)?.[0] ?? 'browser';
const QUICK_MAX_N = 1024;

export async function load({ quick } = {}) {
  return {
    version: runtimeVersion(),
    skip(cfg) {
      if (cfg.N > (quick ? QUICK_MAX_N : MAX_N)) {
        return `about ${Math.round(flops(cfg) / 1e9)} s a run at ~1 GFLOP/s${quick ? ' (--quick)' : ''}`;
      }
      return null;
    },
    prepare(cfg, x, { weights }) {
      if (cfg.kind === 'mha') return () => ({ output: mha(x) });
      const scale = 1 / Math.sqrt(x.d);
      return () => sdpa(x.Q, x.K, x.V, x.N, x.d, x.d, scale, { weights, causal: !!cfg.causal });
    },
  };
}

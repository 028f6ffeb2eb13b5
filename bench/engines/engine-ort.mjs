// engine-ort.mjs: onnxruntime-web, wasm backend, one thread (its SIMD build
// is the only one it ships), in this Node process.
import { sdpaModel, mhaModel } from './onnx-model.mjs';

// Above this length the scores need over 4 GiB in wasm32 (N^2 floats,
// several copies): beyond what ORT can address.
const MAX_N = 16384;

export async function load({ quick } = {}) {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const sessions = new Map();
  const session = async (key, build) => {
    if (!sessions.has(key)) sessions.set(key, await ort.InferenceSession.create(build(), options));
    return sessions.get(key);
  };
  const tensor = (data, rows, cols) => new ort.Tensor('float32', data, [rows, cols]);
  return {
    version: ort.env.versions.web,
    skip(cfg) {
      if (cfg.N > MAX_N) return `N x N scores = ${(cfg.N * cfg.N * 4) / 2 ** 30} GiB each, past wasm32's 4 GiB`;
      if (quick && cfg.kind === 'fused') return 'skipped in --quick (needs ~2 GiB)';
      return null;
    },
    async prepare(cfg, x, { weights }) {
      if (cfg.kind === 'mha') {
        const s = await session(`mha-${x.N}-${x.D}`, () => mhaModel(x));
        return async () => {
          const r = await s.run({ Xq: tensor(x.Xq, x.N, x.D), Xkv: tensor(x.Xkv, x.N, x.D) });
          return { output: r.Y.data };
        };
      }
      // causal: one model per N, its N x N mask an initializer (made here,
      // outside the timed calls, with the session)
      const s = cfg.causal
        ? await session(`sdpa-causal-${x.N}-${x.d}-${weights}`, () => sdpaModel({ d: x.d, weights, causalN: x.N }))
        : await session(`sdpa-${x.d}-${weights}`, () => sdpaModel({ d: x.d, weights }));
      return async () => {
        const r = await s.run({ Q: tensor(x.Q, x.N, x.d), K: tensor(x.K, x.N, x.d), V: tensor(x.V, x.N, x.d) });
        return { output: r.O.data, weights: r.P?.data };
      };
    },
  };
}

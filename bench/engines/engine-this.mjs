// engine-this.mjs: this project's API (web/attention.js), one build
// (relaxed, simd or scalar), the full engine or (parts: 'attention') the
// attention part alone. Runs in Node and in the browser bench's page.

const PACKAGE = new URL('../../package.json', import.meta.url);

async function packageVersion() {
  if (PACKAGE.protocol !== 'file:') return (await (await fetch(PACKAGE)).json()).version;
  const { readFileSync } = await import('node:fs');
  return JSON.parse(readFileSync(PACKAGE, 'utf8')).version;
}

// The scalar build runs the fused path at ~1/5 of SIMD's speed: a 65,536
// run would take minutes.
const SCALAR_MAX_N = 16384;

// The API keeps the wasm exports private; the bench needs the instance's
// memory to measure the engine's footprint, so it watches the one
// WebAssembly.instantiate the loader makes and keeps the exports.
async function loadWatched(loadAttention, options) {
  const original = WebAssembly.instantiate;
  let exports = null;
  WebAssembly.instantiate = async function watched(...args) {
    const result = await original.apply(this, args);
    exports ??= (result.instance ?? result).exports;
    return result;
  };
  try {
    return { attn: await loadAttention(options), exports };
  } finally {
    WebAssembly.instantiate = original;
  }
}

export async function load({ build, quick, parts = 'all', waitForTiles = true } = {}) {
  const { loadAttention } = await import('../../web/attention.js');
  const { attn, exports } = await loadWatched(loadAttention, { build, parts });
  if (attn.build !== build) throw new Error(`asked for the ${build} build, the API loaded ${attn.build}`);
  // The relaxed build times its two register tiles after loading; every
  // row is timed with the one it keeps (cold start does not wait: a first
  // result does not).
  const t0 = performance.now();
  const tiles = waitForTiles ? await attn.tuned : null;
  const tuneMs = performance.now() - t0;
  const simd = attn.simd;
  return {
    version: await packageVersion(),
    attn, // the API and the raw exports, for the backward section (backward.mjs)
    exports,
    tiles, // the register tile it picked (or has), and how long after loading
    tuneMs,
    skip(cfg, { weights }) {
      if (!simd && cfg.N > (quick ? 4096 : SCALAR_MAX_N)) return 'scalar build: minutes a run';
      if (weights && cfg.kind === 'fused') return 'weights are N x N';
      return null;
    },
    prepare(cfg, x, { weights, into = false }) {
      if (cfg.kind === 'mha') {
        // The parameters stay resident, as they do in onnxruntime-web (model
        // initializers): per call only X goes in and Y comes out.
        const X = (a) => attn.matrix(x.N, x.D, a);
        const W = (a) => attn.matrix(x.D, x.D, a);
        const Xq = X(x.Xq);
        const Xkv = x.Xkv === x.Xq ? null : X(x.Xkv); // self-attention: X goes in once
        const layer = attn.multiHeadAttentionLayer({
          heads: x.heads, Wq: W(x.Wq), Wk: W(x.Wk), Wv: W(x.Wv), Wo: W(x.Wo), bq: x.bq, bk: x.bk, bv: x.bv, bo: x.bo,
        });
        let r = null; // with into, the previous call's result: its arrays are filled again
        return () => {
          r = layer.run(Xq, Xkv, into ? { weights: false, into: r } : { weights: false });
          return { output: r.output.data };
        };
      }
      const [Q, K, V] = [x.Q, x.K, x.V].map((a) => attn.matrix(x.N, x.d, a));
      const causal = !!cfg.causal;
      let r = null;
      return () => {
        r = attn.attention(Q, K, V, into ? { weights, causal, into: r } : { weights, causal });
        return { output: r.output.data, weights: r.weights?.data };
      };
    },
    /** Current size of the instance's linear memory, in bytes. */
    memoryBytes: () => exports.memory.buffer.byteLength,
    /** Scratch bytes the fused kernel asks for (attn_attention_workspace_size). */
    workspaceBytes: (cfg) => exports.attn_attention_workspace_size(cfg.N, cfg.N, cfg.d, cfg.d, 0) >>> 0,
  };
}

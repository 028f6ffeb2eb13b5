// compare.mjs: a focused head-to-head for tuning, e.g.
//   node bench/compare.mjs sdpa:256 sdpa:1024 mha:256
// This project (SIMD) against onnxruntime-web only, interleaved, medians.
import { ENGINES } from './engines/engines.mjs';
import { sdpaInputs, mhaInputs } from './lib/inputs.mjs';
import { flops, label } from './lib/configs.mjs';

const wanted = process.argv.slice(2);
const cfgs = (wanted.length ? wanted : ['sdpa:256', 'sdpa:1024', 'mha:256']).map((w) => {
  const [kind, n] = w.split(':');
  return kind === 'mha' ? { kind, N: +n, D: 512, heads: 8 } : { kind: 'sdpa', N: +n, d: 64 };
});
const engines = {};
for (const id of ['wasm-simd', 'ort']) engines[id] = await ENGINES.find((e) => e.id === id).load({});
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
for (const cfg of cfgs) {
  const inputs = cfg.kind === 'mha' ? mhaInputs(cfg) : sdpaInputs(cfg);
  for (const weights of cfg.kind === 'mha' ? [false] : [false, true]) {
    const runs = {};
    for (const [id, e] of Object.entries(engines)) runs[id] = await e.prepare(cfg, inputs, { weights });
    const times = Object.fromEntries(Object.keys(runs).map((id) => [id, []]));
    for (let r = 0; r < 40; r++) {
      for (const [id, run] of Object.entries(runs)) {
        const t0 = performance.now();
        await run();
        if (r >= 10) times[id].push(performance.now() - t0);
      }
    }
    const ms = Object.fromEntries(Object.entries(times).map(([id, t]) => [id, median(t)]));
    const gf = (t) => (flops(cfg) / t / 1e6).toFixed(1);
    console.log(`${label(cfg)} weights ${weights ? 'on ' : 'off'}  this ${ms['wasm-simd'].toFixed(3)} ms (${gf(ms['wasm-simd'])} GF/s)` +
      `  ort ${ms.ort.toFixed(3)} ms (${gf(ms.ort)})  ratio ${(ms.ort / ms['wasm-simd']).toFixed(2)}x`);
  }
}

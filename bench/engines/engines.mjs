// engines.mjs: every engine the bench compares, by id. Each load() imports
// its library itself, so a fresh process can time import-to-first-result.
// The relaxed build loads only where the engine validates relaxed SIMD
// (Chromium; Node 20 with --experimental-wasm-relaxed-simd, which
// `npm run bench` passes).
export const ENGINES = [
  { id: 'wasm-relaxed', label: 'attention-wasm relaxed', load: (o) => import('./engine-this.mjs').then((m) => m.load({ ...o, build: 'relaxed' })) },
  { id: 'wasm-simd', label: 'attention-wasm SIMD', load: (o) => import('./engine-this.mjs').then((m) => m.load({ ...o, build: 'simd' })) },
  { id: 'wasm-scalar', label: 'attention-wasm scalar', load: (o) => import('./engine-this.mjs').then((m) => m.load({ ...o, build: 'scalar' })) },
  { id: 'ort', label: 'onnxruntime-web', load: (o) => import('./engine-ort.mjs').then((m) => m.load(o)) },
  { id: 'tfjs', label: 'tfjs-wasm', load: (o) => import('./engine-tfjs.mjs').then((m) => m.load(o)) },
  { id: 'js', label: 'plain JS', load: (o) => import('./engine-js.mjs').then((m) => m.load(o)) },
];

export const BASELINE = 'ort';

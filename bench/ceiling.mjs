// ceiling.mjs: compiles ceiling.c with emcc and measures the wasm SIMD peak.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

const SOURCE = new URL('./ceiling.c', import.meta.url);

// Built outside the repo (bench/ holds sources only), keyed by the source.
function build() {
  const src = readFileSync(SOURCE);
  const dir = path.join(os.tmpdir(), 'attention-wasm-bench');
  const out = path.join(dir, `ceiling-${createHash('sha1').update(src).digest('hex').slice(0, 12)}.wasm`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('emcc', ['-O3', '-msimd128', '--no-entry', '-sSTANDALONE_WASM', SOURCE.pathname, '-o', out], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') },
    });
  }
  return readFileSync(out);
}

/** Best GFLOP/s over `runs` calls of ~`ms` each, after warm-up (the first
 *  calls run in V8's baseline tier). Returns { gflops } or { error }. */
export async function measureCeiling({ runs = 7, ms = 80 } = {}) {
  let bytes;
  try {
    bytes = build();
  } catch (e) {
    return { error: `emcc failed: ${e.message.split('\n')[0]}` };
  }
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const { ceiling_run: run, ceiling_flops_per_iteration: perIter } = instance.exports;
  let iterations = 1e6;
  for (let i = 0; i < 3; i++) run(iterations, 0.999, 0.001);
  const t = performance.now();
  run(iterations, 0.999, 0.001);
  iterations = Math.ceil((iterations * ms) / Math.max(performance.now() - t, 0.1));
  let best = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run(iterations, 0.999, 0.001);
    const s = (performance.now() - t0) / 1e3;
    best = Math.max(best, (iterations * perIter()) / s / 1e9);
  }
  return { gflops: best, method: '12 independent f32x4 mul+add chains in registers, best of ' + runs };
}

// payload.mjs: gzip bytes of what each engine ships to a browser.
//   attention-wasm: both .wasm builds + the loader (web/attention.js and its
//     modules in web/api/, as the one minified ES module esbuild makes of them,
//     which is what a bundler or a CDN serves).
//   onnxruntime-web: the wasm-only browser bundle (Node loads ort.node.min.mjs
//     plus onnxruntime-common instead, ~the same JS) + the SIMD module it
//     loads (ort-wasm-simd-threaded .mjs + .wasm, the only build it ships).
//   tfjs-wasm: tfjs-core + the wasm backend (minified browser bundles) + the
//     non-threaded SIMD .wasm it loads with one thread.
//   plain JS: the loops file.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { buildSync } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (pkg) => path.dirname(require.resolve(pkg));

// The loader as one minified module (a name, not a path: read() bundles it).
const LOADER = 'web/attention.js (esbuild --bundle --minify)';
function read(file) {
  if (file !== LOADER) return readFileSync(file);
  const out = buildSync({
    entryPoints: [path.join(root, 'web/attention.js')], bundle: true, minify: true, format: 'esm',
    external: ['node:*'], write: false, logLevel: 'silent',
  });
  return Buffer.from(out.outputFiles[0].contents);
}

function files() {
  const ort = dist('onnxruntime-web');
  const tfw = dist('@tensorflow/tfjs-backend-wasm');
  const tfc = dist('@tensorflow/tfjs-core');
  const ours = ['build/attention.simd.wasm', 'build/attention.wasm'].map((f) => path.join(root, f)).concat(LOADER);
  return {
    'wasm-simd': ours,
    'wasm-scalar': ours,
    ort: ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'].map((f) => path.join(ort, f)),
    tfjs: [path.join(tfc, 'tf-core.min.js'), path.join(tfw, 'tf-backend-wasm.min.js'), path.join(tfw, 'tfjs-backend-wasm-simd.wasm')],
    js: [path.join(root, 'bench/plain-js.mjs')],
  };
}

/** { [engine id]: { files, bytes, gzipBytes } }; a missing file gives { error }. */
export function measurePayload() {
  const out = {};
  for (const [id, list] of Object.entries(files())) {
    try {
      const data = list.map(read);
      out[id] = {
        files: list.map((f) => (f === LOADER ? f : path.relative(root, f))),
        bytes: data.reduce((s, b) => s + b.length, 0),
        gzipBytes: data.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0),
      };
    } catch (e) {
      out[id] = { error: e.message };
    }
  }
  return out;
}

// payload.mjs: gzip bytes of what each engine ships to a browser.
//   node bench/sections/payload.mjs           prints attention-wasm's rows (every build, both parts)
//   node bench/sections/payload.mjs --write   measures every engine's and writes bench/RESULTS.md's "payload" section
//   (npm run bench's forward section measures and writes the same)
//   attention-wasm, per build: the one .wasm a page loads (the loader fetches
//     only the build it picks) + the loader (web/attention.js and its modules
//     in web/api/, as the one minified ES module esbuild makes of them, which
//     is what a bundler or a CDN serves; without '#read-file', which a page
//     never imports: only a file: URL needs it).
//   attention-wasm's attention part (id 'wasm-*:attention', parts:
//     'attention'): build/attention-only*.wasm + the same loader without the
//     training part's JavaScript (api/training.js, which only parts: 'all'
//     imports: bundlers make it a chunk such a page never loads) and without
//     api/tiles.js (imported only for the full relaxed engine's second tile).
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
const root = fileURLToPath(new URL('../..', import.meta.url));
const dist = (pkg) => path.dirname(require.resolve(pkg));

// The loader as one minified module (names, not paths: read() bundles them):
// all of it, or the attention part's (api/training.js and api/tiles.js left out).
const LOADER = 'web/attention.js (esbuild --bundle --minify)';
const LOADER_ATTENTION = "web/attention.js, parts: 'attention' (esbuild --bundle --minify, without api/training.js and api/tiles.js)";
function read(file) {
  if (file !== LOADER && file !== LOADER_ATTENTION) return readFileSync(file);
  const out = buildSync({
    entryPoints: [path.join(root, 'web/attention.js')], bundle: true, minify: true, format: 'esm', platform: 'browser',
    external: file === LOADER ? ['#read-file'] : ['#read-file', './api/training.js', './api/tiles.js'], write: false, logLevel: 'silent',
  });
  return Buffer.from(out.outputFiles[0].contents);
}

function files() {
  const ort = dist('onnxruntime-web');
  const tfw = dist('@tensorflow/tfjs-backend-wasm');
  const tfc = dist('@tensorflow/tfjs-core');
  const ours = (file) => [path.join(root, 'build', file), file.startsWith('attention-only') ? LOADER_ATTENTION : LOADER];
  return {
    'wasm-relaxed': ours('attention.relaxed.wasm'),
    'wasm-simd': ours('attention.simd.wasm'),
    'wasm-scalar': ours('attention.wasm'),
    'wasm-relaxed:attention': ours('attention-only.relaxed.wasm'),
    'wasm-simd:attention': ours('attention-only.simd.wasm'),
    'wasm-scalar:attention': ours('attention-only.wasm'),
    ort: ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'].map((f) => path.join(ort, f)),
    tfjs: [path.join(tfc, 'tf-core.min.js'), path.join(tfw, 'tf-backend-wasm.min.js'), path.join(tfw, 'tfjs-backend-wasm-simd.wasm')],
    js: [path.join(root, 'bench/engines/plain-js.mjs')],
  };
}

/** { [engine id]: { files, bytes, gzipBytes } }; a missing file gives { error }. */
export function measurePayload() {
  const out = {};
  for (const [id, list] of Object.entries(files())) {
    try {
      const data = list.map(read);
      out[id] = {
        files: list.map((f) => (f === LOADER || f === LOADER_ATTENTION ? f : path.relative(root, f))),
        bytes: data.reduce((s, b) => s + b.length, 0),
        gzipBytes: data.reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0),
      };
    } catch (e) {
      out[id] = { error: e.message };
    }
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  const { payloadSection } = await import('../lib/markdown.mjs');
  const { writeResults } = await import('../lib/results.mjs');
  const { name, title, body } = payloadSection(measurePayload());
  writeResults(name, { title, body, command: 'node bench/sections/payload.mjs --write' });
  console.log(`bench/RESULTS.md: section "${name}" written`);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log('attention-wasm payload, gzip -9 of each file, summed (raw in parentheses; KB = 1024 bytes):');
  for (const [id, p] of Object.entries(measurePayload()).filter(([id]) => id.startsWith('wasm-'))) {
    console.log(`  ${id.padEnd(22)} ${p.error ? `n/a: ${p.error}` : `${kb(p.gzipBytes).padStart(8)} = ${p.gzipBytes} bytes (${kb(p.bytes)}): ${p.files.join(' + ')}`}`);
  }
}

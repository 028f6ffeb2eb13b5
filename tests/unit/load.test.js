// load.test.js: where loadAttention gets its engine, and what bundlers see.
//   - a compiled module: attn.module makes more instances (a worker's, with
//     neither compile nor fetch), checked to be a module of the parts asked for;
//   - wasmBinary and module never build a URL; a relative wasmUrl is the
//     caller's (the page's, or in Node the working directory's);
//   - the build is the one the module is (attn_simd_enabled), never a guess;
//   - '#read-file' (package.json "imports"): Node's fs and url (where
//     process.getBuiltinModule does not lend them), null anywhere else, where
//     a file: URL is an Error that says why; a browser bundle of the loader
//     names no node: module;
//   - every .wasm is referenced as one literal new URL('../build/<file>',
//     import.meta.url), the form Vite, webpack 5, Parcel and Rollup copy.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build as esbuild } from 'esbuild';

import { ROOT, randMatrix, rng } from './helpers.js'; // helpers also builds build/ if missing
import { BUILDS, partExports, relaxedSimdSupported } from '../../web/api/load.js';
import { loadAttention } from '../../web/attention.js';

const bytesOf = (file) => readFileSync(join(ROOT, 'build', file));
const API = pathToFileURL(join(ROOT, 'web/attention.js')).href;
const rs = rng(26001);
const [Q, K, V] = [randMatrix(rs, 5, 8), randMatrix(rs, 7, 8), randMatrix(rs, 7, 3)];

/**
 * The imports of a .wasm, read from its bytes ("module.name"): what
 * WebAssembly.Module.imports says, also for a build this engine cannot
 * compile (relaxed SIMD on Node 20 without the flag).
 */
function importsOf(bytes) {
  let at = 8;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      value += (b & 127) * 2 ** shift;
      if (b < 128) return value;
    }
  };
  const name = () => {
    const n = leb();
    return bytes.subarray(at, (at += n)).toString();
  };
  while (at < bytes.length) {
    const [id, size] = [bytes[at++], leb()];
    if (id !== 2) {
      at += size;
      continue;
    }
    return Array.from({ length: leb() }, () => {
      const what = `${name()}.${name()}`;
      assert.equal(bytes[at++], 0, `${what} is not a function import`);
      leb(); // its type
      return what;
    });
  }
  return [];
}

/** Every URL constructed while fn runs (the loader's, the test's own included). */
async function urlsBuiltBy(fn) {
  const Real = globalThis.URL;
  const built = [];
  globalThis.URL = class extends Real {
    constructor(...args) {
      super(...args);
      built.push(String(args[0]));
    }
  };
  try {
    return { result: await fn(), built };
  } finally {
    globalThis.URL = Real;
  }
}

describe('the source of the engine', () => {
  it('module: attn.module makes more instances, each with its own memory, the same results', async () => {
    const first = await loadAttention({ parts: 'attention' });
    assert.ok(first.module instanceof WebAssembly.Module);
    const [a, b] = await Promise.all([1, 2].map(() => loadAttention({ module: first.module, parts: 'attention' })));
    assert.equal(a.module, first.module, 'the same compiled module, not a copy');
    const layer = a.multiHeadAttentionLayer({ heads: 1, Wq: [[1]], Wk: [[1]], Wv: [[1]], Wo: [[1]] });
    assert.ok(a.memoryInUse() > 0);
    assert.equal(b.memoryInUse(), 0, 'a resident layer of one instance is not in the other');
    layer.dispose();
    assert.deepEqual(a.attention(Q, K, V), first.attention(Q, K, V));
    assert.deepEqual(b.attention(Q, K, V, { causal: true }), first.attention(Q, K, V, { causal: true }));
    assert.equal(a.build, first.build);
    // the full engine's module makes a full engine, or an attention-only one
    const full = await loadAttention();
    assert.equal((await loadAttention({ module: full.module })).parts, 'all');
    assert.deepEqual((await loadAttention({ module: full.module, parts: 'attention' })).attention(Q, K, V), a.attention(Q, K, V));
  });

  it('module: a worker given attn.module computes with neither compile nor fetch', async () => {
    const page = await loadAttention({ parts: 'attention' });
    const worker = `
      import { parentPort } from 'node:worker_threads';
      const { loadAttention } = await import(${JSON.stringify(API)});
      parentPort.once('message', async ({ module, parts, Q, K, V }) => {
        WebAssembly.compile = WebAssembly.compileStreaming = () => { throw new Error('compiled again'); };
        globalThis.fetch = () => { throw new Error('fetched'); };
        try {
          const attn = await loadAttention({ module, parts });
          parentPort.postMessage({ build: attn.build, parts: attn.parts, result: attn.attention(Q, K, V) });
        } catch (err) {
          parentPort.postMessage({ error: err.message });
        }
      });`;
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(worker)}`));
    try {
      const reply = new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
      w.postMessage({ module: page.module, parts: 'attention', Q, K, V });
      const got = await reply;
      assert.equal(got.error, undefined);
      assert.equal(got.build, page.build);
      assert.equal(got.parts, 'attention');
      assert.deepEqual(got.result, page.attention(Q, K, V), 'bit for bit the page\'s result');
    } finally {
      await w.terminate();
    }
  });

  it('module: checked to be a WebAssembly.Module of the parts asked for', async () => {
    const small = new WebAssembly.Module(bytesOf('attention-only.simd.wasm'));
    await assert.rejects(loadAttention({ module: bytesOf('attention-only.simd.wasm') }), { name: 'TypeError', message: /module must be a WebAssembly\.Module/ });
    await assert.rejects(loadAttention({ module: small }),
      { name: 'Error', message: /module is the attention part alone \(attention-only\*\.wasm\).*load it with parts: 'attention'/ });
    // a module of something else: the empty module
    const probe = new WebAssembly.Module(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0));
    await assert.rejects(loadAttention({ module: probe, parts: 'attention' }), /module is not an attention-wasm engine: it does not export attn_status_name/);
  });

  it("the build is the module's own; a build option it contradicts is an Error", async () => {
    const names = ['simd', 'scalar', ...(relaxedSimdSupported() ? ['relaxed'] : [])];
    for (const build of names) {
      const bytes = bytesOf(BUILDS[build]);
      assert.equal((await loadAttention({ wasmBinary: bytes })).build, build, `wasmBinary of ${BUILDS[build]}`);
      assert.equal((await loadAttention({ module: new WebAssembly.Module(bytes) })).build, build);
      assert.equal((await loadAttention({ wasmBinary: bytes, build })).build, build);
    }
    await assert.rejects(loadAttention({ wasmBinary: bytesOf(BUILDS.simd), build: 'scalar' }),
      /the 'scalar' build was asked for, but wasmBinary is the 'simd' build/);
    await assert.rejects(loadAttention({ wasmBinary: bytesOf(BUILDS.scalar), simd: true }),
      /the 'simd' build was asked for, but wasmBinary is the 'scalar' build/);
  });

  it('wasmBinary and module never build a URL, not even with a wasmUrl that would fail', async () => {
    const bytes = bytesOf('attention-only.simd.wasm');
    for (const options of [
      { wasmBinary: bytes, parts: 'attention', wasmUrl: 'http://127.0.0.1:9/nothing-here.wasm' },
      { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), parts: 'attention' },
      { module: new WebAssembly.Module(bytes), parts: 'attention', wasmUrl: '::not a url::' },
    ]) {
      const { result: attn, built } = await urlsBuiltBy(() => loadAttention(options));
      assert.deepEqual(built, [], `URLs built: ${built}`);
      assert.deepEqual(attn.attention(Q, K, V).output.rows, 5);
    }
    // without them, the default URL is built: the spy sees it
    const { built } = await urlsBuiltBy(() => loadAttention({ parts: 'attention', build: 'scalar' }));
    assert.ok(built.includes('../build/attention-only.wasm'), `URLs built: ${built}`);
    await assert.rejects(loadAttention({ wasmBinary: 'attention.wasm' }), { name: 'TypeError', message: /wasmBinary must be the \.wasm bytes/ });
    await assert.rejects(loadAttention({ wasmBinary: Uint8Array.of(1, 2, 3) }), /wasmBinary is not a valid WebAssembly module/);
  });

  it('a relative wasmUrl is relative to the working directory in Node, not to the package', () => {
    const load = (cwd, wasmUrl) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', `
      const { loadAttention } = await import(${JSON.stringify(API)});
      const attn = await loadAttention({ wasmUrl: ${JSON.stringify(wasmUrl)}, parts: 'attention' });
      console.log(JSON.stringify({ build: attn.build, rows: attn.attention([[1]], [[1]], [[2]]).output.data[0] }));`],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    assert.deepEqual(load(join(ROOT, 'build'), 'attention-only.wasm'), { build: 'scalar', rows: 2 });
    assert.deepEqual(load(ROOT, './build/attention-only.simd.wasm'), { build: 'simd', rows: 2 });
    assert.throws(() => load(join(ROOT, 'web'), 'attention-only.simd.wasm'),
      (err) => /could not load file:\/\/.*\/web\/attention-only\.simd\.wasm \(ENOENT\)/.test(err.stderr),
      'resolved against web/, the working directory, so not found');
  });

  describe('a relative wasmUrl on a page is relative to the page', () => {
    let server;
    let base;
    const requests = [];
    before(async () => {
      server = createServer((req, res) => {
        requests.push(req.url);
        if (req.url !== '/posts/wasm/engine.wasm') return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/wasm' }).end(bytesOf('attention-only.simd.wasm'));
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${server.address().port}`;
    });
    after(() => server.close());

    it("resolves against document.baseURI and fetches it", async () => {
      globalThis.document = { baseURI: `${base}/posts/one-figure.html` };
      try {
        const attn = await loadAttention({ wasmUrl: 'wasm/engine.wasm', parts: 'attention' });
        assert.equal(attn.build, 'simd');
        assert.deepEqual(requests, ['/posts/wasm/engine.wasm']);
        await assert.rejects(loadAttention({ wasmUrl: 'wasm/missing.wasm', parts: 'attention' }),
          new RegExp(`could not load ${base}/posts/wasm/missing\\.wasm \\(HTTP 404\\)`));
      } finally {
        delete globalThis.document;
      }
    });
  });

  it('options: parts, unknown names and wrong kinds are errors that name them', async () => {
    await assert.rejects(loadAttention({ parts: 'training' }), { name: 'RangeError', message: /parts must be 'attention' or 'all', got 'training'/ });
    await assert.rejects(loadAttention({ parts: ['attention'] }), { name: 'TypeError', message: /parts must be 'attention' or 'all'/ });
    await assert.rejects(loadAttention({ part: 'attention' }), { name: 'RangeError', message: /unknown option 'part'; the options are parts, build, simd, module, wasmBinary, wasmUrl/ });
    await assert.rejects(loadAttention(null), { name: 'TypeError', message: /options must be an object/ });
    await assert.rejects(loadAttention({ wasmUrl: 42 }), { name: 'TypeError', message: /wasmUrl must be a string or a URL/ });
    await assert.rejects(loadAttention({ simd: 'yes' }), { name: 'TypeError', message: /simd must be true or false/ });
  });

  it('each part exports exactly src/exports.txt\'s list for it (what the loader checks a module against)', () => {
    const text = readFileSync(join(ROOT, 'src/exports.txt'), 'utf8');
    const parts = {};
    let part = null;
    for (const line of text.split('\n')) {
      part = /^#\s*\[(\w+)\]/.exec(line)?.[1] ?? part;
      const name = line.replace(/#.*/, '').trim();
      if (name) (parts[part] ??= []).push(name.replace(/^_/, ''));
    }
    assert.deepEqual(Object.keys(parts), ['attention', 'training']);
    assert.deepEqual(partExports('attention'), parts.attention);
    assert.deepEqual(partExports('all'), [...parts.attention, ...parts.training]);
    const exported = (file) => WebAssembly.Module.exports(new WebAssembly.Module(bytesOf(file)))
      .filter((e) => e.kind === 'function' && e.name.startsWith('attn_')).map((e) => e.name).sort();
    for (const build of ['simd', 'scalar', ...(relaxedSimdSupported() ? ['relaxed'] : [])]) {
      assert.deepEqual(exported(BUILDS[build]), partExports('all').sort(), BUILDS[build]);
      assert.deepEqual(exported(BUILDS[build].replace('attention', 'attention-only')), partExports('attention').sort());
    }
    // and imports only the growth notice: the relaxed link (wasm-ld --import-undefined) would
    // turn a function missing from a part into an import, which the loader would stub
    for (const file of ['attention', 'attention-only'].flatMap((n) => ['.simd', '', '.relaxed'].map((b) => `${n}${b}.wasm`))) {
      assert.deepEqual(importsOf(bytesOf(file)), ['env.emscripten_notify_memory_growth'], file);
    }
  });
});

describe('#read-file, and what bundlers see', () => {
  it("'#read-file' is Node's fs and url in Node, and null anywhere else", async () => {
    assert.match(import.meta.resolve('#read-file'), /\/web\/api\/read-file\.node\.js$/);
    const { default: node } = await import('#read-file');
    assert.deepEqual(node.fs.readFileSync(new URL('../../build/attention-only.wasm', import.meta.url)), bytesOf('attention-only.wasm'));
    assert.equal(typeof node.url.pathToFileURL, 'function');
    assert.equal((await import('../../web/api/read-file.js')).default, null);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.imports['#read-file'], { node: './web/api/read-file.node.js', default: './web/api/read-file.js' });
  });

  // A fresh Node that has no process.getBuiltinModule (as before 20.16 and 22.3): `code` with loadAttention from `api`.
  const withoutLend = (api, code, cwd = ROOT) => execFileSync(process.execPath, ['--input-type=module', '-e', `
    delete process.getBuiltinModule;
    const { loadAttention } = await import(${JSON.stringify(api)});
    ${code}`], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  it("a Node without process.getBuiltinModule reads the .wasm through '#read-file'", () => {
    const out = withoutLend(API, `
      const attn = await loadAttention({ parts: 'attention', build: 'scalar' });
      const rel = await loadAttention({ parts: 'attention', wasmUrl: 'build/attention-only.simd.wasm' });
      console.log(attn.build, rel.build, attn.attention([[1]], [[1]], [[5]]).output.data[0]);`);
    assert.equal(out.trim(), 'scalar simd 5');
  });

  // What esbuild, Vite's production build (Rollup) and webpack do alike:
  // resolve '#read-file' under the browser's conditions, make a chunk of a
  // dynamic import().
  async function browserBundle() {
    const out = await esbuild({
      entryPoints: [join(ROOT, 'web/attention.js')], bundle: true, splitting: true, format: 'esm', platform: 'browser',
      outdir: '/virtual', write: false, metafile: true, logLevel: 'silent',
    });
    const name = (path) => path.split('/').pop();
    const files = Object.fromEntries(out.outputFiles.map((f) => [name(f.path), f.text]));
    const imports = Object.fromEntries(Object.entries(out.metafile.outputs).map(([path, o]) => [name(path), o.imports]));
    return { files, imports, meta: out.metafile };
  }

  it('a browser-platform esbuild bundle of web/attention.js resolves everything and names no node: module', async () => {
    const { files, meta } = await browserBundle();
    for (const [name, text] of Object.entries(files)) assert.doesNotMatch(text, /node:/, name);
    const inputs = Object.keys(meta.inputs);
    assert.ok(inputs.includes('web/api/read-file.js') && !inputs.some((f) => f.includes('read-file.node')), `inputs: ${inputs}`);
  });

  it('that bundle, where no Node built-ins are lent, says why a file: URL cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attention-browser-bundle-'));
    try {
      await esbuild({ entryPoints: [join(ROOT, 'web/attention.js')], bundle: true, format: 'esm', platform: 'browser',
        outfile: join(dir, 'web/attention.js'), logLevel: 'silent' });
      assert.throws(() => withoutLend(pathToFileURL(join(dir, 'web/attention.js')).href, 'await loadAttention();'),
        (err) => /cannot read file:\/\/\S+\/build\/attention\.\w+\.?wasm here \(a file: URL, which only Node reads\); serve the \.wasm over http\(s\)/.test(err.stderr));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the training part's JavaScript is a chunk of its own, which parts: 'attention' never loads", async () => {
    const { files, imports } = await browserBundle();
    // what a page loads for parts: 'attention': the entry and what it imports statically
    const loaded = new Set();
    const visit = (file) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const i of imports[file]) if (i.kind === 'import-statement') visit(i.path.split('/').pop());
    };
    visit('attention.js');
    const code = [...loaded].map((f) => files[f]).join('\n');
    for (const name of ['attn_tf_train_step', 'attn_attention_backward', 'attn_tf_decode', 'trainStep', 'beamSearch']) {
      assert.ok(!code.includes(name), `${name} is in what parts: 'attention' loads (${[...loaded]})`);
    }
    const rest = Object.keys(files).filter((f) => !loaded.has(f)).map((f) => files[f]).join('\n');
    assert.ok(rest.includes('attn_tf_train_step') && rest.includes('attn_attention_backward'), 'the training chunk');
  });

  it("every .wasm is one literal new URL('../build/<file>', import.meta.url): the files package.json ships", () => {
    const source = readFileSync(join(ROOT, 'web/attention.js'), 'utf8');
    const literal = [...source.matchAll(/new URL\('\.\.\/build\/([\w.-]+\.wasm)', import\.meta\.url\)/g)].map((m) => m[1]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const shipped = pkg.files.filter((f) => f.endsWith('.wasm')).map((f) => f.replace('build/', ''));
    assert.deepEqual([...literal].sort(), [...shipped].sort());
    assert.equal(literal.length, 6);
    for (const file of ['web/attention.js', 'web/api/load.js']) {
      assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /new URL\(`/, `${file}: a URL from a template string, which bundlers cannot follow`);
    }
    assert.equal(pkg.exports['./build/*.wasm'], './build/*.wasm', "the .wasm files are exported (Vite's ?url import)");
  });
});

// bundlers.test.js: issue 27, findings 1-4. A tiny app built from `npm pack`
// by Vite, webpack 5 and esbuild, each in a fresh project with its bundler
// from the npm registry, with exactly the lines docs/embedding.md's
// "Bundlers" section gives (esbuild's copy step included), opened in Chromium:
//   - the engine (`import { loadAttention } from 'attention-wasm'`) computes
//     the seed notebook's attention weights (np.random.seed(42); Q = X·W_Q,
//     ...), within 1e-6 of the float64 reference; so does an engine from
//     `wasmBinary` (bytes the app fetched) and one from a page-relative
//     `wasmUrl`, which fetch no .wasm of their own (finding 3); with Vite,
//     that .wasm is the package's, through a `?url` import (finding 2);
//   - the figures (`import 'attention-wasm/figures'`; webpack's app imports
//     'attention-wasm/figures/soft-dictionary' and '.../induction' alone, and
//     no other figure is defined): the soft dictionary draws and reacts to
//     its keyboard control, the induction figure fetches no worker until its
//     Start is pressed, then trains in its worker (the step count rises);
//   - no console error, no failed request; the .wasm files fetched are the
//     app's engine, the figures' (the attention part) and, once Start is
//     pressed, the full engine the page compiles for the worker.
// Vite: `vite build` served by `vite preview`, and the dev server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

import { FIGURES } from '../../web/figures/registry.js';
import { RandomState } from '../unit/mt19937.js';
import * as ref from '../unit/reference.js';
import { SCREENSHOTS, expectChange, ready, spyOnWorkers, start, workersOf } from '../browser/harness.js';
import { blocks, section } from './docs.js';
import { addFromRegistry, install } from './install.js';

// The versions checked (the registry's newest when this was written).
const VERSIONS = { vite: '8.3.8', webpack: '5.112.2', 'webpack-cli': '7.3.1', esbuild: '0.28.2' };
const at = (...names) => names.map((n) => `${n}@${VERSIONS[n]}`);

// The seed notebook's inputs, as numpy draws them.
const rs = new RandomState(42);
const NOTEBOOK = { X: rs.rand(3, 4), W_Q: rs.rand(4, 4), W_K: rs.rand(4, 4), W_V: rs.rand(4, 4) };
const WANT = (() => {
  const x = ref.matrix(3, 4, NOTEBOOK.X);
  const [Q, K, V] = ['W_Q', 'W_K', 'W_V'].map((w) => ref.matmul(x, ref.matrix(4, 4, NOTEBOOK[w])));
  return Array.from(ref.attention(Q, K, V).weights.data);
})();
// float32 through two products of 4 terms and a softmax of 3 (seed-notebook.test.js)
const TOL = 1e-6;

const [ENGINE_IMPORT, ALL_FIGURES] = blocks('Bundlers', 'js')[0].trim().split('\n').map((l) => l.replace(/ *\/\/.*$/, ''));
const ONE_FIGURE = blocks('Bundlers', 'js')[1].trim();
const ONE_TAGS = ['attention-soft-dictionary', 'attention-induction'];

// The app: the engine's numbers into #weights, and two figures. `hosted`: the
// line that sets \`hosted\`, the address of a .wasm the app loads itself.
const APP = (figures, hosted) => `${ENGINE_IMPORT}
${figures}
${hosted}
import { X, W_Q, W_K, W_V } from './notebook.js';

// The seed notebook's attention weights, from an engine loaded with \`options\`.
async function weights(options) {
  const attn = await loadAttention(options);
  const x = attn.matrix(3, 4, X);
  const [Q, K, V] = [W_Q, W_K, W_V].map((W) => attn.matmul(x, attn.matrix(4, 4, W)));
  return { build: attn.build, weights: Array.from(attn.attention(Q, K, V).weights.data) };
}

const out = document.querySelector('#weights');
try {
  const bytes = await (await fetch(hosted)).arrayBuffer();
  out.textContent = JSON.stringify({
    hosted: new URL(hosted, document.baseURI).href,
    engines: {
      default: await weights(),
      wasmBinary: await weights({ wasmBinary: bytes, parts: 'attention' }),
      wasmUrl: await weights({ wasmUrl: hosted, parts: 'attention' }),
    },
  });
} catch (err) {
  out.textContent = \`error: \${err.message}\`;
}
`;
const PAGE = (script) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A consumer</title><link rel="icon" href="data:,"></head>
<body><main>
<pre id="weights" style="white-space: pre-wrap"></pre>
<attention-soft-dictionary><p>Attention as a soft dictionary.</p></attention-soft-dictionary>
<attention-induction steps="100"><p>A tiny transformer learns to copy.</p></attention-induction>
</main>
${script}
</body></html>
`;

// Each bundler: what it is installed with, the app's figures, the page (its
// place in the project, and how it loads the app), the .wasm the app loads
// itself (a copy beside the page; with Vite, the package's own through a ?url
// import), and where the harness's server (of the projects' folder) serves
// that page (Vite: its own servers).
const BESIDE = "const hosted = 'engine.wasm';";
const BUNDLERS = {
  vite: {
    deps: at('vite'),
    figures: ALL_FIGURES,
    page: ['index.html', '<script type="module" src="/src/index.js"></script>'],
    hosted: `${blocks('Vite', 'js')[0].split('\n')[0]}\nconst hosted = wasmUrl;`,
  },
  webpack: {
    deps: at('webpack', 'webpack-cli'),
    figures: `${ONE_FIGURE}\nimport 'attention-wasm/figures/induction';`,
    page: ['dist/index.html', '<script defer src="main.js"></script>'],
    hosted: BESIDE,
    served: '/webpack/dist/index.html',
  },
  esbuild: {
    deps: at('esbuild'),
    figures: ALL_FIGURES,
    page: ['public/index.html', '<script type="module" src="js/index.js"></script>'],
    hosted: BESIDE,
    served: '/esbuild/public/index.html',
  },
};
const COMMANDS = { vite: 'Vite', webpack: 'webpack', esbuild: 'esbuild' };

const run = promisify(execFile);
let tmp;
let server;
const builds = {}; // name -> promise of the project's folder, built
const children = [];

/** Install and build `name`'s project as the README says; -> its folder. */
async function build(name) {
  const { deps, figures, page: [html, script], hosted } = BUNDLERS[name];
  const dir = join(tmp, name);
  const pkg = install(tmp, dir);
  addFromRegistry(dir, deps);
  const write = (path, contents) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  };
  write('src/index.js', APP(figures, hosted));
  write('src/notebook.js', Object.entries(NOTEBOOK).map(([k, v]) => `export const ${k} = ${JSON.stringify(Array.from(v))};\n`).join(''));
  write(html, PAGE(script));
  if (hosted === BESIDE) write(join(dirname(html), 'engine.wasm'), readFileSync(join(pkg, 'build/attention-only.simd.wasm')));
  for (const commands of blocks(COMMANDS[name], 'sh')) {
    try {
      await run('bash', ['-euc', commands], { cwd: dir, timeout: 180_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
    } catch (err) {
      throw new Error(`${name}: the README's commands failed:\n${commands}\n${err.stdout}${err.stderr}`);
    }
  }
  return dir;
}

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/** Start Vite (`vite preview`, or the dev server) in `dir`; -> its URL once it answers. */
async function vite(dir, ...args) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  // (asked over HTTP, not read off its banner: with CI set, Vite colours the port)
  const child = spawn(process.execPath, [join(dir, 'node_modules/vite/bin/vite.js'), ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  children.push(child);
  let said = '';
  child.stdout.on('data', (d) => { said += d; });
  child.stderr.on('data', (d) => { said += d; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vite ${args.join(' ')} exited (${child.exitCode}):\n${said}`);
    if (Date.now() > deadline) { child.kill(); await exited; throw new Error(`vite ${args.join(' ')} did not answer at ${url} in 60 s:\n${said}`); }
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(5_000) })).ok) return url;
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'attention-bundlers-'));
  // the installs one after the other (synchronous: one npm cache), the builds at once
  for (const name of Object.keys(BUNDLERS)) {
    builds[name] = build(name);
    builds[name].catch(() => {}); // (its test reports it)
  }
  server = await start({ root: tmp });
});
after(async () => {
  await Promise.allSettled(Object.values(builds)); // (a build still writing would outlive the folder's removal)
  for (const child of children) child.kill();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Open `url` and check the app there; `tags`: the figures it defines. */
async function checkApp(url, name, { tags = null } = {}) {
  const { page, problems, requests, context } = await server.open(url, { prepare: (p) => p.addInitScript(spyOnWorkers) });
  let hosted; // the .wasm the app loads itself
  const wasm = () => {
    const all = requests.filter((u) => /\.wasm$/.test(u));
    const own = all.filter((u) => u === hosted).length;
    return { own, package: all.filter((u) => u !== hosted), all: all.join(', ') };
  };
  try {
    await page.waitForFunction(() => document.querySelector('#weights').textContent !== '', null, { timeout: 30_000 });
    const text = await page.textContent('#weights');
    assert.doesNotMatch(text, /^error/, `${name}: the engine failed`);
    const got = JSON.parse(text);
    hosted = got.hosted;
    for (const [how, { weights }] of Object.entries(got.engines)) {
      weights.forEach((w, i) => assert.ok(Math.abs(w - WANT[i]) <= TOL, `${name}, ${how}: weight ${i} is ${w}, the float64 reference ${WANT[i]}`));
    }
    assert.equal(got.engines.default.build, 'relaxed', 'Chromium runs the relaxed build');
    assert.equal(got.engines.wasmBinary.build, 'simd', 'the bytes given are the SIMD build');

    if (tags) {
      const defined = await page.evaluate(() => [...document.querySelectorAll('*')].map((e) => e.localName)
        .filter((t) => t.startsWith('attention-') && customElements.get(t)));
      assert.deepEqual(defined.sort(), [...tags].sort(), 'only the figures imported are defined');
      assert.equal(await page.evaluate(() => customElements.get('attention-cost')), undefined);
    }
    await expectChange(page, 'attention-soft-dictionary', async (el) => {
      await el.locator('g.qh').focus();
      await page.keyboard.press('ArrowDown');
    });

    const induction = await ready(page, 'attention-induction');
    await induction.evaluate((e) => e.settled());
    assert.deepEqual((await workersOf(page)).started, [], 'a worker was started before Start was pressed');
    let w = wasm();
    assert.equal(w.own, 2, `${hosted}: fetched by the app for wasmBinary, and by the wasmUrl engine (${w.all})`);
    assert.equal(w.package.length, 2, `the app's engine and the figures' (attention part), one .wasm each, and nothing else (${w.all})`);

    await induction.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('attention-induction').msg?.step > 0, null, { timeout: 30_000 });
    const [worker, ...more] = (await workersOf(page)).started;
    assert.deepEqual(more, [], 'one worker');
    assert.equal(requests.filter((u) => u === worker).length, 1, `the worker's script ${worker}, fetched once`);
    w = wasm();
    assert.equal(w.package.length, 3, `and the full engine, which the page compiles for the worker (${w.all})`);
    if (name !== 'webpack') { // (whose names are hashes)
      assert.ok(w.package.every((u) => /\.relaxed\b/.test(u)), `each engine fetched its relaxed build only (${w.all})`);
    }
    await page.screenshot({ path: `${SCREENSHOTS}consumer-${name}.png`, fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

describe('bundlers', () => {
  test('the README names the versions checked', () => {
    const checked = /Checked with ([^]*?) by\s+`tests\/consumers\/bundlers\.test\.js`/.exec(section('Bundlers'))?.[1] ?? '';
    for (const [name, v] of Object.entries(VERSIONS)) {
      assert.match(checked, new RegExp(`\\b${name} ${v.split('.').slice(0, 2).join('\\.')}\\b`, 'i'), `${name} ${v}`);
    }
  });

  test(`Vite ${VERSIONS.vite}: vite build, served by vite preview`, async () => {
    const dir = await builds.vite;
    const assets = readdirSync(join(dir, 'dist/assets'));
    assert.equal(assets.filter((f) => /^attention(-only)?(\.relaxed|\.simd)?-[\w-]+\.wasm$/.test(f)).length, 6, 'the six .wasm files, copied');
    assert.equal(assets.filter((f) => /\.worker-[\w-]+\.js$/.test(f)).length, FIGURES.filter((f) => f.worker).length, 'every worker, copied');
    await checkApp(await vite(dir, 'preview'), 'vite');
  });

  test(`Vite ${VERSIONS.vite}: the dev server`, async () => {
    const dir = await builds.vite;
    await checkApp(await vite(dir), 'vite-dev');
  });

  test(`webpack ${VERSIONS.webpack}: each figure imported alone`, async () => {
    const dir = await builds.webpack;
    const out = readdirSync(join(dir, 'dist'));
    assert.equal(out.filter((f) => /^[0-9a-f]+\.wasm$/.test(f)).length, 6, 'the six .wasm files, emitted');
    const code = out.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dir, 'dist', f), 'utf8')).join('\n');
    for (const { tag } of FIGURES) assert.equal(code.includes(`"${tag}"`), ONE_TAGS.includes(tag), `${tag}: bundled only when imported`);
    await checkApp(BUNDLERS.webpack.served, 'webpack', { tags: ONE_TAGS });
  });

  test(`esbuild ${VERSIONS.esbuild}, with the README's copy step`, async () => {
    await builds.esbuild;
    await checkApp(BUNDLERS.esbuild.served, 'esbuild');
  });
});

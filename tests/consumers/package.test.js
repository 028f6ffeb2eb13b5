// package.test.js: issue 2, item 8. `npm pack` gives a tarball that works
// when installed into an empty project: `import { loadAttention } from
// 'attention-wasm'` in Node computes attention, with both builds and both
// parts (the full engine, and parts: 'attention'); the .wasm files are
// exported subpaths; a CommonJS project loads it with `await import()`.
// Issue 27, finding 8: it carries web/embed/ (the snippets and their README)
// and every file its READMEs link or show (the screenshots), its pages' files,
// and every file its .d.ts name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ROOT, assertClose, attentionBound, ref } from '../unit/helpers.js'; // helpers also builds build/ if missing
import { FIGURES } from '../../web/figures/registry.js';

const npm = (args, cwd, env = {}) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, timeout: 60_000 });

// What the consumer runs: one attention per build, printed as JSON.
const CONSUMER = `
import { loadAttention } from 'attention-wasm';
const Q = [[1, 0, 2], [0.5, -1, 0]];
const K = [[1, 1, 0], [0, 2, 1], [-1, 0, 1], [0.25, 0.5, 0.75]];
const V = [[1, 2], [3, 4], [5, 6], [7, 8]];
const out = {};
for (const [simd, parts] of [[true, 'all'], [false, 'all'], [true, 'attention'], [false, 'attention']]) {
  const attn = await loadAttention({ simd, parts });
  const r = attn.attention(Q, K, V, { causal: false });
  out[(simd ? 'simd' : 'scalar') + (parts === 'all' ? '' : '/attention')] = {
    simd: attn.simd,
    parts: attn.parts,
    trains: (() => {
      try {
        const model = attn.createTransformer({ vocab: 3, context: 2, dModel: 2, heads: 1, layers: 1 });
        model.dispose();
        return model.vocab === 3;
      } catch (e) {
        return e.message;
      }
    })(),
    output: { rows: r.output.rows, cols: r.output.cols, data: Array.from(r.output.data) },
    weights: { rows: r.weights.rows, cols: r.weights.cols, data: Array.from(r.weights.data) },
    isFloat32: r.output.data instanceof Float32Array,
    memoryInUse: attn.memoryInUse(),
  };
}
console.log(JSON.stringify(out));
`;

// The README's two lines for a CommonJS project.
const COMMONJS = `
(async () => {
  const { loadAttention } = await import('attention-wasm');
  const attn = await loadAttention({ build: 'simd', parts: 'attention' });
  console.log(JSON.stringify({ build: attn.build, parts: attn.parts, rows: attn.attention([[1, 0]], [[1, 0]], [[2, 3]]).output.cols }));
})();
`;

describe('npm package', () => {
  let tmp;
  let tarball;
  let packed;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-pack-'));
    // A private npm cache: nothing read from or written to the user's.
    const env = { npm_config_cache: join(tmp, 'cache'), npm_config_update_notifier: 'false' };
    [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT, env));
    tarball = join(tmp, packed.filename);
    const project = join(tmp, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(project, 'main.mjs'), CONSUMER);
    // A CommonJS project (npm init's default): the README's two lines.
    const cjs = join(tmp, 'commonjs');
    mkdirSync(cjs);
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'commonjs-consumer', private: true }));
    writeFileSync(join(cjs, 'main.js'), COMMONJS);
    writeFileSync(join(cjs, 'require.js'), "require('attention-wasm'); console.log('required');\n");
    // A local tarball with no dependencies installs without the network.
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball];
    for (const dir of [project, cjs]) {
      try {
        npm([...args, '--offline'], dir, env);
      } catch {
        npm(args, dir, env);
      }
    }
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('packs the API, every .wasm build, the types and the license, and no tests', () => {
    const files = packed.files.map((f) => f.path);
    const api = readdirSync(join(ROOT, 'web/api')).map((f) => `web/api/${f}`);
    const wasm = ['attention', 'attention-only'].flatMap((name) => ['.simd', '.relaxed', ''].map((b) => `build/${name}${b}.wasm`));
    for (const f of ['web/attention.js', ...api, 'web/attention.d.ts', ...wasm, 'package.json', 'LICENSE']) {
      assert.ok(files.includes(f), `${f} is missing from the tarball (${files.length} files)`);
    }
    const stray = files.filter((f) => /^(tests|node_modules|bench|build\/native|build\/emcache)\//.test(f) && !/^bench\/[A-Z]+\.md$/.test(f)); // the READMEs link bench/README.md and bench/RESULTS.md
    assert.deepEqual(stray, [], 'files that a published package should not carry');
  });

  it('packs web/embed/ (the snippets and their README) and the figures\' types', () => {
    const files = packed.files.map((f) => f.path);
    const embed = execFileSync('git', ['ls-files', 'web/embed'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.ok(embed.includes('web/embed/README.md') && embed.includes('web/embed/example.html'), 'git ls-files web/embed');
    const built = ['web/embed/hugo/data/attention_figures.json', 'web/embed/jekyll/_data/attention_figures.json',
      'dist/attention-figures.d.ts', 'dist/figure-element.d.ts', ...FIGURES.map((f) => `dist/figures/${f.name}.d.ts`)];
    const missing = [...embed, ...built].filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], 'missing from the tarball');
  });

  it('every file the package\'s Markdown files link or show, the embed pages load and the .d.ts name is in the package', () => {
    const files = new Set(packed.files.map((f) => f.path));
    const pkg = join(tmp, 'consumer/node_modules/attention-wasm');
    const text = (file) => readFileSync(join(pkg, file), 'utf8');
    const local = (target) => !/^([a-z]+:|#|\/)/i.test(target); // not a URL, an anchor or a site path
    const refs = [];
    for (const readme of [...files].filter((f) => f.endsWith('.md'))) {
      for (const [, target] of text(readme).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) refs.push([readme, target]);
    }
    for (const page of [...files].filter((f) => /^web\/embed\/[^/]+\.html$/.test(f))) {
      for (const [, target] of text(page).matchAll(/\b(?:src|href)="([^"]+)"/g)) refs.push([page, target]);
    }
    for (const dts of [...files].filter((f) => f.endsWith('.d.ts'))) {
      // a file named in a comment (DESIGN.md was one, not in the package), from the package's root
      for (const [, target] of text(dts).matchAll(/([\w./-]+\.md)\b/g)) refs.push([dts, posix.relative(posix.dirname(dts), target)]);
    }
    assert.ok(refs.some(([, t]) => t.endsWith('.png')), 'the READMEs show screenshots');
    const broken = refs.filter(([from, target]) => local(target) && !files.has(posix.normalize(posix.join(posix.dirname(from), target.split('#')[0]))));
    assert.deepEqual(broken, [], '[file, what it names] not in the tarball');
  });

  it("import { loadAttention } from 'attention-wasm' computes attention in an empty project (both builds, both parts)", () => {
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: join(tmp, 'consumer'), encoding: 'utf8', timeout: 30_000 }));
    const Q = [[1, 0, 2], [0.5, -1, 0]];
    const K = [[1, 1, 0], [0, 2, 1], [-1, 0, 1], [0.25, 0.5, 0.75]];
    const V = [[1, 2], [3, 4], [5, 6], [7, 8]];
    const want = ref.attention(Q, K, V);
    const bound = attentionBound(Q, K, V, {}, want);
    for (const name of ['simd', 'scalar', 'simd/attention', 'scalar/attention']) {
      const r = out[name];
      const full = !name.endsWith('/attention');
      assert.equal(r.simd, name.startsWith('simd'), `${name}: attn.simd`);
      assert.equal(r.parts, full ? 'all' : 'attention');
      if (full) assert.equal(r.trains, true, `${name}: createTransformer`);
      else assert.match(r.trains, /createTransformer is in the training part.*loadAttention\(\{ parts: 'all' \}\)/);
      assert.ok(r.isFloat32, `${name}: results are Float32Arrays`);
      assert.equal(r.memoryInUse, 0);
      const f32 = (M) => ({ ...M, data: Float32Array.from(M.data) });
      assertClose(f32(r.output), want.output, bound.output, `${name}: output from the installed package`);
      assertClose(f32(r.weights), want.weights, bound.weights, `${name}: weights from the installed package`);
    }
  });

  it('exports the .wasm files as subpaths (what Vite\'s ?url import and bundlers resolve)', () => {
    const resolve = (what) => execFileSync(process.execPath, ['--input-type=module', '-e', `console.log(import.meta.resolve(${JSON.stringify(what)}))`],
      { cwd: join(tmp, 'consumer'), encoding: 'utf8' }).trim();
    for (const file of ['attention.simd.wasm', 'attention-only.relaxed.wasm', 'attention-only.wasm']) {
      assert.match(resolve(`attention-wasm/build/${file}`), new RegExp(`consumer/node_modules/attention-wasm/build/${file.replaceAll('.', '\\.')}$`));
    }
  });

  it('is ESM only: a CommonJS project loads it with await import(); require() works only where Node can require ES modules', () => {
    const run = (file) => execFileSync(process.execPath, [file], { cwd: join(tmp, 'commonjs'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
    assert.deepEqual(JSON.parse(run('main.js')), { build: 'simd', parts: 'attention', rows: 2 });
    // Node loads ES modules from require() since 20.19 and 22.12 (this package has no top-level await)
    const [major, minor] = process.versions.node.split('.').map(Number);
    const requireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
    if (requireEsm) assert.match(run('require.js'), /^required$/m);
    else assert.throws(() => run('require.js'), (err) => /ERR_REQUIRE_ESM/.test(err.stderr));
  });

  it('resolves to the installed copy, not the repository', () => {
    const where = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('attention-wasm'))"],
      { cwd: join(tmp, 'consumer'), encoding: 'utf8' }).trim();
    assert.match(where, /consumer\/node_modules\/attention-wasm\/web\/attention\.js$/);
  });
});

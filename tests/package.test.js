// package.test.js: issue 2, item 8. `npm pack` gives a tarball that works
// when installed into an empty project: `import { loadAttention } from
// 'attention-wasm'` in Node computes attention, with both builds.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ROOT, assertClose, attentionBound, ref } from './helpers.js'; // helpers also builds build/ if missing

const npm = (args, cwd, env = {}) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env }, timeout: 60_000 });

// What the consumer runs: one attention per build, printed as JSON.
const CONSUMER = `
import { loadAttention } from 'attention-wasm';
const Q = [[1, 0, 2], [0.5, -1, 0]];
const K = [[1, 1, 0], [0, 2, 1], [-1, 0, 1], [0.25, 0.5, 0.75]];
const V = [[1, 2], [3, 4], [5, 6], [7, 8]];
const out = {};
for (const simd of [true, false]) {
  const attn = await loadAttention({ simd });
  const r = attn.attention(Q, K, V, { causal: false });
  out[simd ? 'simd' : 'scalar'] = {
    simd: attn.simd,
    output: { rows: r.output.rows, cols: r.output.cols, data: Array.from(r.output.data) },
    weights: { rows: r.weights.rows, cols: r.weights.cols, data: Array.from(r.weights.data) },
    isFloat32: r.output.data instanceof Float32Array,
    memoryInUse: attn.memoryInUse(),
  };
}
console.log(JSON.stringify(out));
`;

describe('npm package', () => {
  let tmp;
  let tarball;
  let packed;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-pack-'));
    // A private npm cache: nothing read from or written to the user's.
    const env = { npm_config_cache: join(tmp, 'cache'), npm_config_update_notifier: 'false' };
    [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], ROOT, env));
    tarball = join(tmp, packed.filename);
    const project = join(tmp, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(project, 'main.mjs'), CONSUMER);
    // A local tarball with no dependencies installs without the network.
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball];
    try {
      npm([...args, '--offline'], project, env);
    } catch {
      npm(args, project, env);
    }
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('packs the API, both .wasm builds, the types and the license, and no tests', () => {
    const files = packed.files.map((f) => f.path);
    const api = readdirSync(join(ROOT, 'web/api')).map((f) => `web/api/${f}`);
    for (const f of ['web/attention.js', ...api, 'web/attention.d.ts', 'build/attention.simd.wasm', 'build/attention.wasm', 'package.json', 'LICENSE']) {
      assert.ok(files.includes(f), `${f} is missing from the tarball (${files.length} files)`);
    }
    const stray = files.filter((f) => /^(tests|node_modules|bench|build\/native|build\/emcache)\//.test(f));
    assert.deepEqual(stray, [], 'files that a published package should not carry');
  });

  it("import { loadAttention } from 'attention-wasm' computes attention in an empty project (both builds)", () => {
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: join(tmp, 'consumer'), encoding: 'utf8', timeout: 30_000 }));
    const Q = [[1, 0, 2], [0.5, -1, 0]];
    const K = [[1, 1, 0], [0, 2, 1], [-1, 0, 1], [0.25, 0.5, 0.75]];
    const V = [[1, 2], [3, 4], [5, 6], [7, 8]];
    const want = ref.attention(Q, K, V);
    const bound = attentionBound(Q, K, V, {}, want);
    for (const name of ['simd', 'scalar']) {
      const r = out[name];
      assert.equal(r.simd, name === 'simd', `${name}: attn.simd`);
      assert.ok(r.isFloat32, `${name}: results are Float32Arrays`);
      assert.equal(r.memoryInUse, 0);
      const f32 = (M) => ({ ...M, data: Float32Array.from(M.data) });
      assertClose(f32(r.output), want.output, bound.output, `${name}: output from the installed package`);
      assertClose(f32(r.weights), want.weights, bound.weights, `${name}: weights from the installed package`);
    }
  });

  it('resolves to the installed copy, not the repository', () => {
    const where = execFileSync(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('attention-wasm'))"],
      { cwd: join(tmp, 'consumer'), encoding: 'utf8' }).trim();
    assert.match(where, /consumer\/node_modules\/attention-wasm\/web\/attention\.js$/);
  });
});

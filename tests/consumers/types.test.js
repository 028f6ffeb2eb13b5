// types.test.js: issue 27, finding 8's types. A TypeScript project with
// attention-wasm installed from `npm pack` type-checks, with tsc from npm
// (TypeScript 5, what most projects have, and 7, the latest), under the
// resolutions projects use ("nodenext" for Node, "bundler" for Vite and the
// like, and TypeScript 5's "node", which reads package.json's typesVersions):
//   - 'attention-wasm/figures' and 'attention-wasm/figures/<name>' have types:
//     every figure's element with every prop as a typed property, its
//     HTMLElementTagNameMap entry, engine() and typeset();
//   - a misspelt or foreign property, or a value of the wrong type, is the
//     error tsc should report, on its line, and nothing else is;
//   - one figure's module types its own tag only.
// TypeScript is installed by the test from the npm registry (cached in
// tests/artifacts/npm-cache, so a second run needs no network).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { figureClasses, interfaceName } from '../../scripts/figure-types.mjs';
import { install } from './install.js';

/** The TypeScript versions checked, as npm installs them (one folder each). */
const TYPESCRIPTS = { 'typescript-5': 'typescript@5.9.3', 'typescript-7': 'typescript@7.0.2' };
const RESOLUTIONS = {
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  // TypeScript 5's default for most older projects, which reads no "exports" (TypeScript 7 dropped it)
  node10: { module: 'esnext', moduleResolution: 'node', only: 'typescript-5' },
};
const CACHE = fileURLToPath(new URL('../artifacts/npm-cache', import.meta.url));

const { figures } = await figureClasses();

// Every prop of every figure, set to its default and read back as its type.
const valueType = (p) => (p.type === 'enum' ? p.values.map((v) => JSON.stringify(v)).join(' | ') : p.type);
const EVERY_PROP = figures.map(({ name, tag, cls }) => `{
  const el: ${interfaceName(name)} = document.createElement('${tag}');
${Object.entries(cls.props).map(([k, p]) => `  el.${k} = ${JSON.stringify(p.default)};\n  { const v: ${valueType(p)} = el.${k}; void v; }`).join('\n')}
}`).join('\n');

const GOOD = `import { engine, typeset } from 'attention-wasm/figures';
import type { ${figures.map((f) => interfaceName(f.name)).join(', ')}, AttentionFigureElement } from 'attention-wasm/figures';
import 'attention-wasm/figures/multi-head-it';
import type { AttentionCostElement as Cost } from 'attention-wasm/figures/cost';
import type { AttentionResult, MultiHeadResult, PoolLayer, PoolTransformer } from 'attention-wasm';
import { attentionPool } from 'attention-wasm';

const dict = document.createElement('attention-soft-dictionary');
dict.temperature = 2;
const t: number = dict.temperature;
const q: string = dict.query;
const it = document.querySelector('attention-multi-head-it');
if (it) {
  it.heads = 1; // a number-like enum value may be given as a number
  it.adjective = 'wide';
  const heads: '1' | '2' = it.heads;
  void heads;
}
const cost: Cost | null = document.querySelector('attention-cost');
if (cost) cost.d = 64;
document.createElement('attention-susan-mary').positions = true;
document.createElement('attention-heatmap').data = { tokens: ['a'], attention: [[[[1]]]] };
const base: AttentionFigureElement = dict;
await base.ready;
const summary: string = base.summary;
const attn = await engine();
const out: Float32Array = attn.attention([[1, 0]], [[1, 0]], [[2, 3]]).output.data;
let reused: AttentionResult | null = null;
reused = attn.attention([[1, 0]], [[1, 0]], [[2, 3]], { into: reused });
const layer = attn.multiHeadAttentionLayer({ heads: 1, Wq: [[1]], Wk: [[1]], Wv: [[1]], Wo: [[1]] });
let mh: MultiHeadResult | null = null;
mh = layer.run([[1]], null, { weights: false, into: mh });
const pool = await attentionPool({ workers: 2, parts: 'all' });
const split: AttentionResult = await pool.attention([[1, 0]], [[1, 0]], [[2, 3]], { causal: true, weights: false });
const grads: Float32Array = (await pool.attentionBackward([[1]], [[1]], [[1]], [[1]])).dK.data;
const dp: PoolTransformer = await pool.createTransformer({ vocab: 4, context: 2, dModel: 2, heads: 1, layers: 1 });
const lossBefore: number = await dp.trainStep([[0, 1, 2]], { lr: 0.01 });
const kept: PoolLayer = await pool.multiHeadAttentionLayer({ heads: 1, Wq: [[1]], Wk: [[1]], Wv: [[1]], Wo: [[1]] });
const run: MultiHeadResult = await kept.run([[1]], null, { weights: false });
await kept.dispose();
const held: number[] = await pool.memoryInUse();
await pool.close();
await typeset(document.body);
void [t, q, summary, out, reused, mh, split, grads, lossBefore, run, held];
${EVERY_PROP}
export {};
`;

// Each line that tsc must reject, with the error it must give.
const BAD = [
  ["import 'attention-wasm/figures';", null],
  ["const dict = document.createElement('attention-soft-dictionary');", null],
  ['dict.temprature = 2;', 'TS2551'], // "Did you mean 'temperature'?"
  ["dict.temperature = 'hot';", 'TS2322'],
  ["const it = document.createElement('attention-multi-head-it');", null],
  ["it.adjective = 'blue';", 'TS2322'],
  ['it.heads = 3;', 'TS2322'],
  ["document.createElement('attention-notation').temperature = 2;", 'TS2339'],
  ["document.createElement('attention-susan-mary').positions = 'yes';", 'TS2322'],
  ['export {};', null],
];
// One figure's module: its own tag is typed, another figure's is a plain HTMLElement.
const SINGLE = [
  ["import 'attention-wasm/figures/soft-dictionary';", null],
  ["document.createElement('attention-soft-dictionary').temperature = 2;", null],
  ["document.createElement('attention-cost').budget = 10;", 'TS2339'],
  ['export {};', null],
];

/** tsc's errors as [file, line, code], sorted. */
function check(tsc, dir) {
  const r = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: dir, encoding: 'utf8', timeout: 180_000 });
  assert.ok(r.status === 0 || r.status === 1 || r.status === 2, `tsc failed to run: ${r.stderr || r.error}`);
  const errors = [...r.stdout.matchAll(/^(\w+\.ts)\((\d+),\d+\): error (TS\d+)/gm)].map(([, file, line, code]) => [file, Number(line), code]);
  return { errors, output: r.stdout };
}
const expected = (file, lines) => lines.flatMap(([, code], i) => (code ? [[file, i + 1, code]] : []));

describe('TypeScript consumers', () => {
  let tmp;
  const tscs = {};
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'attention-wasm-types-'));
    const project = join(tmp, 'consumer');
    install(tmp, project);
    for (const [folder, spec] of Object.entries(TYPESCRIPTS)) {
      const dir = join(tmp, folder);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
      execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', spec], {
        cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000,
        env: { ...process.env, npm_config_cache: CACHE, npm_config_update_notifier: 'false' },
      });
      tscs[folder] = join(dir, 'node_modules/typescript/bin/tsc');
    }
    // two programs per resolution (each tsc run reads the DOM's types again): the whole
    // package's (good.ts, bad.ts), and one figure's module alone (single.ts)
    const PROGRAMS = { all: { 'good.ts': GOOD, 'bad.ts': BAD.map(([l]) => l).join('\n') }, single: { 'single.ts': SINGLE.map(([l]) => l).join('\n') } };
    for (const [resolution, { only, ...options }] of Object.entries(RESOLUTIONS)) {
      for (const [program, files] of Object.entries(PROGRAMS)) {
        const dir = join(project, `${resolution}-${program}`);
        mkdirSync(dir);
        for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
          compilerOptions: { ...options, target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, types: [] },
          files: Object.keys(files),
        }));
      }
    }
  });
  after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

  for (const ts of Object.keys(TYPESCRIPTS)) {
    for (const [resolution, { only = ts }] of Object.entries(RESOLUTIONS)) {
      if (only !== ts) continue;
      const dir = (name) => join(tmp, 'consumer', `${resolution}-${name}`);
      let all; // good.ts and bad.ts, checked by one tsc run
      const checked = (file) => {
        all ??= check(tscs[ts], dir('all'));
        return { errors: all.errors.filter(([f]) => f === file), output: all.output };
      };
      test(`${ts}, ${resolution}: every figure's element, its props, its tag, engine() and typeset() type-check`, () => {
        const { errors, output } = checked('good.ts');
        assert.deepEqual(errors, [], output);
        assert.doesNotMatch(output, /good\.ts/);
      });
      test(`${ts}, ${resolution}: a wrong property or value is the error tsc should give, on its line`, () => {
        const { errors, output } = checked('bad.ts');
        assert.deepEqual(errors, expected('bad.ts', BAD), output);
        assert.equal(output.trim().split('\n').filter((l) => /error TS/.test(l) && !l.startsWith('bad.ts(')).length, 0, output);
      });
      test(`${ts}, ${resolution}: 'attention-wasm/figures/<name>' types its own tag only`, () => {
        const { errors, output } = check(tscs[ts], dir('single'));
        assert.deepEqual(errors, expected('single.ts', SINGLE), output);
      });
    }
  }
});

// relaxed.test.js: every numeric suite (each test file that runs per build
// through forEachBuild) on the relaxed SIMD build too. Node 20 validates
// relaxed SIMD only behind --experimental-wasm-relaxed-simd, so the suites run
// again in a child Node with that flag and ATTN_TEST_BUILDS=relaxed (the SIMD
// and scalar builds have run in this process already). Where this Node has
// relaxed SIMD without the flag, forEachBuild covers it in process and the
// child is not needed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT } from './helpers.js';
import { relaxedSimdSupported } from '../../web/attention.js';

const FLAG = '--experimental-wasm-relaxed-simd';
const TESTS = join(ROOT, 'tests/unit');
const suites = readdirSync(TESTS)
  .filter((f) => f.endsWith('.test.js') && /\bforEachBuild\(/.test(readFileSync(join(TESTS, f), 'utf8')))
  .map((f) => join('tests/unit', f));

test(`every numeric suite on the relaxed build (${suites.length} files, node ${FLAG})`, {
  skip: relaxedSimdSupported() && 'this Node validates relaxed SIMD: forEachBuild runs the relaxed build in process',
  timeout: 30 * 60_000,
}, () => {
  assert.ok(suites.length >= 5, `numeric suites found: ${suites}`);
  // A runner of its own (without NODE_TEST_CONTEXT, which the parent runner
  // sets, it would report to the parent in its private protocol).
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const r = spawnSync(process.execPath, [FLAG, '--test', '--test-concurrency=1', '--test-reporter=tap', ...suites], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20, env: { ...env, ATTN_TEST_BUILDS: 'relaxed' },
  });
  const count = (what) => Number(r.stdout.match(new RegExp(`^# ${what} (\\d+)$`, 'm'))?.[1] ?? NaN);
  const failures = r.stdout.split('\n').filter((l) => /^\s*not ok /.test(l)).slice(0, 20);
  console.log(`relaxed build: ${count('pass')} passed, ${count('fail')} failed in ${suites.join(', ')}`);
  assert.equal(r.status, 0, `child exited ${r.status}:\n${failures.join('\n')}\n${r.stderr.slice(-2000)}`);
  assert.equal(count('fail'), 0);
  assert.ok(count('pass') > 100, `only ${count('pass')} tests passed`);
  // Every suite really ran on the relaxed build (ATTN_TEST_BUILDS would throw otherwise).
  assert.match(r.stdout, /\[relaxed\]/);
});

// native.test.js: the C kernels natively, under AddressSanitizer and
// UndefinedBehaviorSanitizer (the fuzz run is tests/fuzz/fuzz.test.js).
//
//   node scripts/test.mjs native        (npm run test:native builds first)
//
// (a) Compiles the sources of src/sources.txt and tests/native/harness.c
//     once, links one program per test file (tests/native/test_<area>.c, one
//     area of src/ each) and runs them, two at a time: fails if a case
//     fails, a sanitizer fires, or memory leaks. A program that calls none of
//     the training part's functions (src/exports.txt) is linked with the
//     attention part alone, which so must stand alone (no reference into the
//     training part); the others with both parts. The fuzz harnesses
//     likewise.
// (b) The C contract: every function declared in src/attention.h is
//     exported (src/exports.txt) and called with bad arguments by the
//     contract test (test_contract.c), which returns exactly the statuses
//     attention.h lists for it ("Statuses:"), each of them at least once.
// Environment: CC (the compiler), KEEP_BUILD=1 (keep the temporary build dir).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SANITIZER_REPORT, SAN_ENV, buildDir, cSources, listFile, partObjects, pool, root, run, srcDir, tail, works } from './c-build.js';

const nativeDir = join(root, 'tests/native');
const TEST_FILES = readdirSync(nativeDir).filter((f) => /^test_\w+\.c$/.test(f)).sort();
let contractOutput = null; // test_contract's stdout, for (b)

test('native C tests under ASan and UBSan, one program per area of src/', { timeout: 600_000 }, async (t) => {
  const cc = process.env.CC || ['cc', 'gcc', 'clang'].find(works);
  assert.ok(cc, 'no C compiler found (tried cc, gcc, clang); install one: apt-get install -y gcc');
  const build = buildDir('native');
  try {
    const flags = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-fsanitize=address,undefined',
      '-fno-sanitize-recover=all', '-g', '-O1', `-I${srcDir}`];
    // The kernels and the harness once, then one link per test file.
    const objects = await pool([...cSources(), join(nativeDir, 'harness.c')], 2, async (file) => {
      const obj = join(build.dir, `${basename(file, '.c')}.o`);
      const r = await run(cc, [...flags, '-c', file, '-o', obj]);
      assert.equal(r.code, 0, `compiling ${file} failed:\n${r.cmd}\n${tail(r.stderr)}`);
      return obj;
    });
    const [harness, kernels] = [objects.at(-1), objects.slice(0, -1)];
    const results = await pool(TEST_FILES, 2, async (file) => {
      const exe = join(build.dir, basename(file, '.c'));
      const { part, objects: linked } = partObjects(join(nativeDir, file), kernels);
      const cc1 = await run(cc, [...flags, join(nativeDir, file), ...linked, harness, '-lm', '-o', exe]);
      if (cc1.code !== 0) return { file, part, cc1 };
      return { file, part, cc1, r: await run(exe, [], { env: SAN_ENV, timeoutMs: 300_000 }) };
    });
    const alone = results.filter((x) => x.part === 'the attention part alone').map((x) => x.file);
    assert.ok(['test_attention.c', 'test_softmax.c', 'test_linear.c', 'test_gemm.c'].every((f) => alone.includes(f)),
      `programs linked with the attention part alone: ${alone}`);
    for (const { file, part, cc1, r } of results) {
      await t.test(file, (st) => {
        assert.equal(cc1.code, 0, `compiling ${file} (with ${part}) failed:\n${cc1.cmd}\n${tail(cc1.stderr)}`);
        st.diagnostic(`linked with ${part}`);
        const failures = r.stdout.split('\n').filter((l) => l.startsWith('FAIL')).slice(0, 40).join('\n');
        const summary = r.stdout.trim().split('\n').at(-1) ?? '';
        st.diagnostic(`${cc}: ${summary} (${(r.ms / 1000).toFixed(1)} s)`);
        for (const note of r.stdout.split('\n').filter((l) => l.startsWith('note '))) st.diagnostic(note);
        assert.ok(!r.timedOut, `${file} timed out`);
        assert.ok(!SANITIZER_REPORT.test(r.stderr), `a sanitizer fired:\n${tail(r.stderr, 80)}`);
        assert.match(summary, /^\d+ passed, 0 failed$/, `${file} failed:\n${failures}\n${tail(r.stderr, 40)}`);
        assert.equal(r.code, 0, `${file} exited with ${r.code ?? r.signal}\n${tail(r.stdout)}\n${tail(r.stderr)}`);
        if (file === 'test_contract.c') contractOutput = r.stdout;
      });
    }
  } finally {
    build.done();
  }
});

/**
 * The functions attention.h declares, each with the statuses its comment
 * lists ("Statuses: ATTN_E_..."; null when it has no such line), and the
 * value of every status.
 */
function headerContract() {
  const header = readFileSync(join(srcDir, 'attention.h'), 'utf8');
  const codes = Object.fromEntries([...header.matchAll(/\b(ATTN_E_\w+) = (-\d+)/g)].map((m) => [m[1], Number(m[2])]));
  const functions = new Map();
  let from = 0;
  for (const m of header.matchAll(/^[a-z][\w ]*?\**\s*\b(attn_\w+)\(/gm)) {
    // the comment right above the declaration, if any
    const before = header.slice(from, m.index);
    const comment = /\/\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(before)?.[1] ?? '';
    const listed = /Statuses:([\s\S]*)$/.exec(comment)?.[1];
    functions.set(m[1], listed === undefined ? null : new Set([...listed.matchAll(/ATTN_E_\w+/g)].map((c) => codes[c[0]])));
    from = header.indexOf(';', m.index) + 1;
  }
  return functions;
}

test('the C contract: every declared function exported, covered, returning exactly its listed statuses', (t) => {
  const declared = headerContract();
  const exported = listFile('exports.txt').map((name) => name.replace(/^_/, ''));
  assert.deepEqual([...declared.keys()].sort(), [...exported].sort(), 'attention.h declares what src/exports.txt exports');
  assert.ok(contractOutput, 'test_contract.c did not run (see the native tests above)');
  const lines = contractOutput.split('\n');
  const covered = new Set(lines.filter((l) => l.startsWith('covers ')).map((l) => l.slice(7)));
  const returned = new Map();
  for (const l of lines.filter((x) => x.startsWith('returns '))) {
    const [, fn, code] = l.split(' ');
    if (!returned.has(fn)) returned.set(fn, new Set());
    returned.get(fn).add(Number(code));
  }
  for (const [fn, listed] of declared) {
    assert.ok(covered.has(fn), `test_contract.c has no row for ${fn}`);
    const got = [...(returned.get(fn) ?? [])].sort();
    if (listed === null) {
      assert.deepEqual(got, [], `${fn} returns statuses (${got}) but attention.h lists none for it`);
      continue;
    }
    assert.deepEqual(got, [...listed].sort(), `${fn}: the statuses its rows expect, against attention.h's "Statuses:"`);
  }
  const pairs = [...returned.values()].reduce((n, codes) => n + codes.size, 0);
  t.diagnostic(`${declared.size} functions, ${[...declared.values()].filter(Boolean).length} with statuses `
    + `(${pairs} function-status pairs), ${lines.filter((l) => l.startsWith('returns ')).length} rows expecting a status`);
});

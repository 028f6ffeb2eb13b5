// native.test.js: the C kernels natively, under AddressSanitizer and
// UndefinedBehaviorSanitizer, and a bounded libFuzzer run of every harness.
//
//   node --test tests/native.test.js
//
// (a) Compiles the sources of src/sources.txt and tests/native/harness.c
//     once, links one program per test file (tests/native/test_<area>.c, one
//     area of src/ each) and runs them, two at a time: fails if a case
//     fails, a sanitizer fires, or memory leaks. A program that calls none of
//     the training part's functions (src/exports.txt) is linked with the
//     attention part alone, which so must stand alone (no reference into the
//     training part); the others with both parts. The fuzz harnesses of (c)
//     likewise.
// (b) The C contract: every function declared in src/attention.h is
//     exported (src/exports.txt) and called with bad arguments by the
//     contract test (test_contract.c), which returns exactly the statuses
//     attention.h lists for it ("Statuses:"), each of them at least once.
// (c) Builds tests/fuzz/fuzz_<fn>.c with clang -fsanitize=fuzzer,address,
//     undefined and runs each against a temporary copy of its corpus
//     (tests/fuzz/corpus/<fn>/, so the repository is not modified) for
//     FUZZ_SECONDS seconds (default 6; 11 harnesses, two at a time). A crash
//     fails the test; its reproducer is kept in tests/artifacts/fuzz/.
//     Without clang and libFuzzer this test fails and says what to install.
// Environment: CC (compiler for (a)), FUZZ_SECONDS, FUZZ_RUNS (cap per
// harness, default 500000), KEEP_BUILD=1 (keep the temporary build dir).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const srcDir = join(root, 'src');
const INSTALL_HINT = 'apt-get install -y clang libclang-rt-14-dev';
const HARNESSES = ['matmul', 'softmax_rows', 'positional_encoding', 'first_nonfinite', 'attention', 'mha',
  'softmax_backward', 'attention_backward', 'mha_backward', 'linear_attention', 'transformer'];
const FUZZ_SECONDS = Number(process.env.FUZZ_SECONDS ?? 6);
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 500000);
const SAN_ENV = {
  ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0:allocator_may_return_null=1',
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
};
const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: UndefinedBehaviorSanitizer/;

/**
 * A list file of src/ (sources.txt, exports.txt) by part, {attention: names,
 * training: names}: a line "# [name]" starts part `name`; other comments and
 * blank lines are dropped.
 */
function listParts(name) {
  const parts = {};
  let part = null;
  for (const line of readFileSync(join(srcDir, name), 'utf8').split('\n')) {
    part = /^#\s*\[(\w+)\]/.exec(line)?.[1] ?? part;
    const entry = line.replace(/#.*/, '').trim();
    if (entry) (parts[part] ??= []).push(entry);
  }
  assert.deepEqual(Object.keys(parts), ['attention', 'training'], `src/${name}: the attention part, then the training part`);
  return parts;
}
const listFile = (name) => Object.values(listParts(name)).flat();

/** The C sources: the one list build.sh reads too (and every .c file of src/ is on it). */
function cSources() {
  const files = listFile('sources.txt');
  const present = readdirSync(srcDir).filter((f) => f.endsWith('.c'));
  assert.deepEqual([...files].sort(), present.sort(), 'src/sources.txt lists every .c file of src/, once');
  return files.map((f) => join(srcDir, f));
}

/** The objects a program from `file` links with: the attention part's alone unless it calls the training part. */
function partObjects(file, objects) {
  const training = listParts('exports.txt').training.map((n) => n.replace(/^_/, ''));
  const code = readFileSync(file, 'utf8');
  if (training.some((fn) => new RegExp(`\\b${fn}\\b`).test(code))) return { part: 'both parts', objects };
  const attention = new Set(listParts('sources.txt').attention.map((f) => basename(f, '.c')));
  return { part: 'the attention part alone', objects: objects.filter((o) => attention.has(basename(o, '.o'))) };
}

function works(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs a command; resolves with its code, signal, output and time. */
function run(cmd, args, { timeoutMs = 120_000, env = {}, cwd = root } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - t0, cmd: [cmd, ...args].join(' ') });
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, stdout, stderr: String(err), timedOut, ms: Date.now() - t0, cmd });
    });
  });
}

/** Runs async jobs with at most `limit` at a time, results in order. */
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

const tail = (s, n = 60) => s.split('\n').slice(-n).join('\n');

function buildDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `attention-${name}-`));
  return {
    dir,
    done() {
      if (process.env.KEEP_BUILD) console.log(`kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

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

/** clang that can link libFuzzer, or null. */
async function findFuzzClang(dir) {
  const candidates = [process.env.FUZZ_CC, 'clang', 'clang-14', 'clang-15', 'clang-16', 'clang-17', 'clang-18']
    .filter(Boolean).filter(works);
  const probe = join(dir, 'probe.c');
  writeFileSync(probe, '#include <stddef.h>\n#include <stdint.h>\n'
    + 'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\n'
    + 'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n');
  for (const cc of candidates) {
    const r = await run(cc, ['-fsanitize=fuzzer,address,undefined', probe, '-o', join(dir, 'probe')]);
    if (r.code === 0) return cc;
  }
  return null;
}

test('libFuzzer harnesses: build and bounded run', { timeout: 300_000 }, async (t) => {
  const build = buildDir('fuzz');
  try {
    const clang = await findFuzzClang(build.dir);
    assert.ok(clang, `clang with libFuzzer is needed for the fuzz run and was not found. Install it with:\n  ${INSTALL_HINT}`);

    // The kernels once, instrumented for coverage and the sanitizers; then
    // one link per harness.
    const common = ['-std=c11', '-g', '-O1', '-Wall', '-Wextra', '-Werror', '-fno-sanitize-recover=all', `-I${srcDir}`];
    const objects = await pool(cSources(), 2, async (file) => {
      const obj = join(build.dir, `${basename(file, '.c')}.o`);
      const r = await run(clang, [...common, '-fsanitize=fuzzer-no-link,address,undefined', '-c', file, '-o', obj]);
      assert.equal(r.code, 0, `compiling ${file} failed:\n${tail(r.stderr)}`);
      return obj;
    });
    const exes = await pool(HARNESSES, 2, async (name) => {
      const exe = join(build.dir, `fuzz_${name}`);
      const source = join(root, 'tests/fuzz', `fuzz_${name}.c`);
      const { part, objects: linked } = partObjects(source, objects);
      const r = await run(clang, [...common, '-fsanitize=fuzzer,address,undefined', source, ...linked, '-lm', '-o', exe]);
      assert.equal(r.code, 0, `building fuzz_${name} (with ${part}) failed:\n${tail(r.stderr)}`);
      return exe;
    });

    const results = await pool(HARNESSES, 2, async (name, i) => {
      const corpus = join(build.dir, `corpus_${name}`);
      mkdirSync(corpus);
      const seeds = join(root, 'tests/fuzz/corpus', name);
      if (existsSync(seeds)) cpSync(seeds, corpus, { recursive: true });
      const artifacts = join(build.dir, `artifacts_${name}`);
      mkdirSync(artifacts);
      const r = await run(exes[i], [`-max_total_time=${FUZZ_SECONDS}`, `-runs=${FUZZ_RUNS}`, '-timeout=10',
        '-rss_limit_mb=2048', '-max_len=4096', '-print_final_stats=1', `-artifact_prefix=${artifacts}/`, corpus],
      { timeoutMs: (FUZZ_SECONDS + 60) * 1000, env: SAN_ENV });
      const crashes = readdirSync(artifacts);
      const kept = [];
      if (crashes.length) {
        const keep = join(root, 'tests/artifacts/fuzz', name);
        mkdirSync(keep, { recursive: true });
        for (const f of crashes) {
          copyFileSync(join(artifacts, f), join(keep, f));
          kept.push(join('tests/artifacts/fuzz', name, f));
        }
      }
      return { name, r, kept };
    });

    for (const { name, r, kept } of results) {
      await t.test(`fuzz_${name}`, (st) => {
        const stat = (key) => r.stderr.match(new RegExp(`stat::${key}:\\s*(\\d+)`))?.[1];
        const execs = stat('number_of_executed_units');
        st.diagnostic(`fuzz_${name}: ${execs ?? '?'} executions in ${(r.ms / 1000).toFixed(1)} s, `
          + `${stat('average_exec_per_sec') ?? '?'}/s, corpus +${stat('new_units_added') ?? '?'}`);
        const why = r.stderr.split('\n').filter((l) => /fuzz check failed|ERROR: |runtime error|SUMMARY/.test(l)).join('\n');
        assert.ok(!r.timedOut, `fuzz_${name} did not stop in time`);
        assert.equal(kept.length, 0, `fuzz_${name} found a crash: ${why}\nreproducer: ${kept.join(', ')}\n`
          + `reproduce: build as in tests/native.test.js, then ./fuzz_${name} ${kept[0] ?? ''}\n${tail(r.stderr, 40)}`);
        assert.equal(r.code, 0, `fuzz_${name} exited with ${r.code ?? r.signal}:\n${tail(r.stderr, 40)}`);
        assert.ok(Number(execs) > 0, `fuzz_${name} ran no inputs:\n${tail(r.stderr, 20)}`);
      });
    }
  } finally {
    build.done();
  }
});

// fuzz.test.js: a bounded libFuzzer run of every harness.
//
//   node scripts/test.mjs fuzz          (npm run test:fuzz builds first)
//
// Builds tests/fuzz/fuzz_<fn>.c with clang -fsanitize=fuzzer,address,
// undefined (a harness that calls none of the training part's functions
// links with the attention part alone, as the native tests do) and runs
// each against a temporary copy of its corpus (tests/fuzz/corpus/<fn>/, so
// the repository is not modified) for FUZZ_SECONDS seconds (default 3; 11
// harnesses, two at a time). A crash fails the test; its reproducer is kept
// in tests/artifacts/fuzz/. Without clang and libFuzzer this test fails and
// says what to install.
// Environment: FUZZ_CC (the clang to try first), FUZZ_SECONDS, FUZZ_RUNS (cap
// per harness, default 500000), KEEP_BUILD=1 (keep the temporary build dir).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SAN_ENV, buildDir, cSources, partObjects, pool, root, run, srcDir, tail, works } from '../native/c-build.js';

const INSTALL_HINT = 'apt-get install -y clang libclang-rt-14-dev';
const HARNESSES = ['matmul', 'softmax_rows', 'positional_encoding', 'first_nonfinite', 'attention', 'mha',
  'softmax_backward', 'attention_backward', 'mha_backward', 'linear_attention', 'transformer'];
const FUZZ_SECONDS = Number(process.env.FUZZ_SECONDS ?? 3);
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 500000);

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
          + `reproduce: build as in tests/fuzz/README.md, then ./fuzz_${name} ${kept[0] ?? ''}\n${tail(r.stderr, 40)}`);
        assert.equal(r.code, 0, `fuzz_${name} exited with ${r.code ?? r.signal}:\n${tail(r.stderr, 40)}`);
        assert.ok(Number(execs) > 0, `fuzz_${name} ran no inputs:\n${tail(r.stderr, 20)}`);
      });
    }
  } finally {
    build.done();
  }
});

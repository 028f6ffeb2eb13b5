// run.mjs: `npm run bench`. Every engine in one Node process, the same
// seeded inputs, interleaved rounds, medians. See bench/README.md.
//   --quick      few rounds, no N = 65,536 (a smoke test)
//   --json FILE  also write every result as JSON
//   --only forward | --only backward   one section (backward: bench/backward.mjs)
// Exits 1 when this project's engine fails or a result is wrong (never on time).
import { writeFileSync } from 'node:fs';
import { ENGINES, BASELINE } from './engines.mjs';
import { configs, flops, label, FLOP_FORMULAS } from './configs.mjs';
import { sdpaInputs, mhaInputs } from './inputs.mjs';
import { reference, maxAbsError } from './accuracy.mjs';
import { interleave } from './timing.mjs';
import { measureCeiling } from './ceiling.mjs';
import { measureColdStart } from './cold-start.mjs';
import { measurePayload } from './payload.mjs';
import { machineInfo } from './machine.mjs';
import * as report from './report.mjs';
import { backwardProblems, runBackward } from './backward.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonIndex = args.indexOf('--json');
const jsonFile = jsonIndex >= 0 ? args[jsonIndex + 1] : null;
if (jsonIndex >= 0 && !jsonFile) throw new Error('--json needs a file name');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : null;
if (onlyIndex >= 0 && !['forward', 'backward'].includes(only)) throw new Error('--only needs forward or backward');

const labels = Object.fromEntries(ENGINES.map((e) => [e.id, e.label]));
const errorText = (e) => String(e?.message ?? e).split('\n')[0];

// Rounds: ~budget ms of samples per engine and config; a fused run takes
// seconds, so one sample there. A first call over warmMs counts as a sample
// (a 30 s run at 65,536 on hot code gains nothing from a second); below it
// the first call is warm-up only, as it carries one-time costs (ORT's first
// N = 16,384 call takes ~3x longer while its memory grows by 2 GiB).
const policy = (cfg) => ({
  budgetMs: quick ? 100 : 1500,
  minRounds: quick || cfg.kind === 'fused' ? 1 : 3,
  maxRounds: quick ? 3 : 30,
  warmMs: quick ? 200 : 10000,
});

async function loadEngines() {
  const loaded = {};
  for (const spec of ENGINES) {
    try {
      loaded[spec.id] = await spec.load({ quick });
    } catch (e) {
      loaded[spec.id] = { unavailable: `failed to load: ${errorText(e)}` };
    }
  }
  return loaded;
}

// The largest fused config runs on a fresh instance so that its wasm
// memory shows this config's peak alone; a small call first warms it.
async function freshForMemory(cfg) {
  const engine = await ENGINES.find((e) => e.id === 'wasm-simd').load({ quick });
  const small = { kind: 'sdpa', N: 256, d: cfg.d };
  engine.prepare(small, sdpaInputs(small), { weights: false })();
  return { engine, before: engine.memoryBytes() };
}

async function runConfig(cfg, engines, memoryProbe) {
  const x = cfg.kind === 'mha' ? mhaInputs(cfg) : sdpaInputs(cfg);
  const ref = reference(cfg, x);
  const rows = [];
  const variants = [];
  for (const spec of ENGINES) {
    const engine = spec.id === 'wasm-simd' && memoryProbe ? memoryProbe.engine : engines[spec.id];
    for (const weights of cfg.kind === 'sdpa' ? [false, true] : [false]) {
      const row = { config: label(cfg), cfg, engine: spec.id, label: spec.label, weights };
      rows.push(row);
      row.na = engine.unavailable ?? engine.skip(cfg, { weights });
      if (row.na) continue;
      try {
        variants.push({ row, run: await engine.prepare(cfg, x, { weights }) });
      } catch (e) {
        row.na = `prepare failed: ${errorText(e)}`;
      }
    }
  }
  const timed = await interleave(variants, policy(cfg));
  variants.forEach(({ row }, i) => {
    const t = timed[i];
    if (t.error) return (row.na = `failed: ${t.error}`);
    Object.assign(row, {
      medianMs: t.medianMs, samples: t.samples, rounds: t.samples.length, batch: t.batch,
      gflops: flops(cfg) / t.medianMs / 1e6, maxAbsErr: maxAbsError(t.first, ref, cfg.N),
    });
  });
  return rows;
}

function memoryReport(cfg, probe) {
  const total = probe.engine.memoryBytes();
  const ioBytes = 4 * 4 * cfg.N * cfg.d; // Q, K, V in and the output
  return {
    N: cfg.N, d: cfg.d, wasmMemoryBytes: total, grewBytes: total - probe.before, ioBytes,
    ownBytes: total - ioBytes, workspaceBytes: probe.engine.workspaceBytes(cfg),
    method: 'memory.buffer.byteLength of a fresh instance after the runs, minus Q, K, V and output bytes',
  };
}

// Speed relative to onnxruntime-web and to the ceiling, per row.
function addRatios(rows, ceiling) {
  for (const r of rows) {
    if (r.na) continue;
    const ort = rows.find((o) => o.config === r.config && o.engine === BASELINE && o.weights === r.weights && !o.na);
    r.vsOrt = ort ? ort.medianMs / r.medianMs : null;
    r.ofCeiling = ceiling.gflops ? r.gflops / ceiling.gflops : null;
  }
}

// Float32 results average values in [-1, 1]: the errors seen are ~1e-7, and
// a broken kernel shows up as 1e-2 or NaN.
const MAX_ERROR = 1e-4;

/** Reasons to exit non-zero, so that --quick serves as a smoke test: this
 *  project's engine did not load, a run threw, or a result is wrong. */
function problems(results, engines) {
  const out = [];
  for (const id of ['wasm-simd', 'wasm-scalar']) {
    if (engines[id].unavailable) out.push(`${labels[id]}: ${engines[id].unavailable}`);
  }
  for (const r of results) {
    const where = `${r.config}, ${r.label}, weights ${r.weights ? 'on' : 'off'}`;
    if (r.na?.startsWith('failed') || r.na?.startsWith('prepare failed')) out.push(`${where}: ${r.na}`);
    if (!r.na && !(r.maxAbsErr <= MAX_ERROR)) out.push(`${where}: error ${r.maxAbsErr} > ${MAX_ERROR}`);
  }
  return out;
}

async function main() {
  const machine = machineInfo();
  report.printMachine(machine);
  const ceiling = await measureCeiling({ runs: quick ? 3 : 7 });
  report.printCeiling(ceiling);
  const out = { date: new Date().toISOString(), quick, machine, ceiling };
  const found = [];
  if (only !== 'backward') {
    Object.assign(out, await forward(ceiling));
    found.push(...problems(out.results, out.engines));
    delete out.engines;
  }
  if (only !== 'forward') {
    const loadThis = (simd) => ENGINES.find((e) => e.id === (simd ? 'wasm-simd' : 'wasm-scalar')).load({ quick });
    out.backward = await runBackward({ quick, ceiling, loadThis });
    found.push(...backwardProblems(out.backward));
  }
  if (jsonFile) {
    writeFileSync(jsonFile, JSON.stringify(out, null, 2) + '\n');
    console.log(`\nJSON written to ${jsonFile}`);
  }
  if (found.length) {
    console.error(`\nbench: ${found.length} problem(s):\n  ${found.join('\n  ')}`);
    process.exitCode = 1;
  }
}

// The forward section: every engine on every config, cold start, payload, fused memory.
async function forward(ceiling) {
  const payload = measurePayload();
  const cold = Object.fromEntries(ENGINES.map((e) => [e.id, measureColdStart(e.id, quick ? 1 : 3)]));

  const engines = await loadEngines();
  const list = configs({ quick });
  const memoryCfg = list.filter((c) => c.kind === 'fused').at(-1);
  let memory = null;
  const results = [];
  for (const cfg of list) {
    const t = performance.now();
    let probe = null;
    if (cfg === memoryCfg && !engines['wasm-simd'].unavailable) probe = await freshForMemory(cfg);
    results.push(...(await runConfig(cfg, engines, probe)));
    if (probe) memory = memoryReport(cfg, probe);
    process.stderr.write(`  ${label(cfg)}: ${((performance.now() - t) / 1e3).toFixed(1)} s\n`);
  }
  addRatios(results, ceiling);

  report.printResults(results);
  report.printColdStart(cold, labels);
  report.printPayload(payload, labels);
  report.printMemory(memory);
  return {
    flopFormulas: FLOP_FORMULAS, results: results.map(({ cfg, ...r }) => ({ ...r, ...cfg })), coldStart: cold, payload, memory,
    engines,
  };
}

await main();

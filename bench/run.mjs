// run.mjs: `npm run bench`. Every engine in one Node process, the same
// seeded inputs, interleaved rounds, medians. See bench/README.md.
//   --quick      few rounds, no N = 65,536 (a smoke test)
//   --json FILE  also write every result as JSON
//   --only forward | backward | efficient | train | gpt | pool   one section
//                (backward.mjs, efficient.mjs: the recent advances, train.mjs, gpt.mjs, pool.mjs: every core)
//   --full-262k  also full attention at N = 262,144 in the efficient section (minutes)
//   --filter RE  only the forward configs whose label matches (e.g. 'MHA|SDPA N=1024 ')
//   --write      also write the tables of every section run to bench/RESULTS.md (node-* sections;
//                a full run: not with --quick or --filter)
// Exits 1 when this project's engine fails or a result is wrong (never on time).
import { writeFileSync } from 'node:fs';
import { ENGINES } from './engines/engines.mjs';
import { configs, label, FLOP_FORMULAS } from './lib/configs.mjs';
import { sdpaInputs } from './lib/inputs.mjs';
import { addRatios, labels, loadEngines, problems, runConfig, runKernelAlone } from './sections/forward.mjs';
import { measureCeilings } from './lib/ceiling.mjs';
import { ATTENTION_PART_IDS, measureColdStart } from './sections/cold-start.mjs';
import { measurePayload } from './sections/payload.mjs';
import { machineInfo } from './lib/machine.mjs';
import { efficientProblems, printEfficient, runEfficient } from './sections/efficient.mjs';
import * as report from './lib/report.mjs';
import { backwardProblems, runBackward } from './sections/backward.mjs';
import { relaxedSimdSupported } from '../web/attention.js';
import { printTrain, runTrain, trainProblems } from './sections/train.mjs';
import { printGpt, runGpt, gptProblems } from './sections/gpt.mjs';
import { poolProblems, printPool, runPool } from './sections/pool.mjs';
import { sections } from './lib/markdown.mjs';
import { writeResults } from './lib/results.mjs';
import os from 'node:os';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const jsonIndex = args.indexOf('--json');
const jsonFile = jsonIndex >= 0 ? args[jsonIndex + 1] : null;
if (jsonIndex >= 0 && !jsonFile) throw new Error('--json needs a file name');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : null;
const SECTIONS = ['forward', 'backward', 'efficient', 'train', 'gpt', 'pool'];
if (onlyIndex >= 0 && !SECTIONS.includes(only)) throw new Error(`--only takes one section: ${SECTIONS.join(', ')}`);
const wants = (section) => !only || only === section;
const full262k = args.includes('--full-262k');
const filterIndex = args.indexOf('--filter');
const filter = filterIndex >= 0 ? new RegExp(args[filterIndex + 1]) : null;
const write = args.includes('--write');
if (write && (quick || filter)) throw new Error('--write records full runs only: not with --quick or --filter');

// The largest fused config runs on a fresh instance so that its wasm
// memory shows this config's peak alone; a small call first warms it.
async function freshForMemory(cfg) {
  const engine = await ENGINES.find((e) => e.id === 'wasm-simd').load({ quick });
  const small = { kind: 'sdpa', N: 256, d: cfg.d };
  engine.prepare(small, sdpaInputs(small), { weights: false })();
  return { engine, before: engine.memoryBytes() };
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

async function main() {
  const machine = machineInfo();
  const load = os.loadavg()[0];
  report.printMachine(machine);
  const out = { date: new Date().toISOString(), quick, machine };
  const found = [];
  if (wants('forward') || wants('backward')) {
    ({ simd: out.ceiling, relaxed: out.relaxedCeiling } = await measureCeilings({ blocks: quick ? 5 : 10 }));
    report.printCeiling(out.ceiling, out.relaxedCeiling);
  }
  if (wants('forward')) {
    Object.assign(out, await forward(out.ceiling, out.relaxedCeiling));
    found.push(...problems(out.results, out.engines, undefined, out.kernel));
    delete out.engines;
  }
  if (wants('backward')) {
    const loadThis = (build) => ENGINES.find((e) => e.id === `wasm-${build}`).load({ quick });
    const builds = relaxedSimdSupported() ? ['relaxed', 'simd', 'scalar'] : ['simd', 'scalar'];
    out.backward = await runBackward({ quick, ceiling: out.ceiling, relaxedCeiling: out.relaxedCeiling, loadThis, builds });
    found.push(...backwardProblems(out.backward));
  }
  if (wants('efficient')) {
    out.efficient = await runEfficient({ quick, full262k });
    printEfficient(out.efficient);
    found.push(...efficientProblems(out.efficient));
  }
  if (wants('train')) {
    out.train = await runTrain({ quick });
    printTrain(out.train);
    found.push(...trainProblems(out.train));
  }
  if (wants('gpt')) {
    out.gpt = await runGpt({ quick });
    printGpt(out.gpt);
    found.push(...gptProblems(out.gpt));
  }
  if (wants('pool')) {
    out.pool = await runPool({ quick, progress: (line) => process.stderr.write(`${line}\n`) });
    printPool(out.pool);
    found.push(...poolProblems(out.pool));
  }
  if (jsonFile) {
    writeFileSync(jsonFile, JSON.stringify(out, null, 2) + '\n');
    console.log(`\nJSON written to ${jsonFile}`);
  }
  if (write && found.length) console.error('\nbench/RESULTS.md not written: the run found problems (below)');
  if (write && !found.length) {
    const command = `npm run bench -- ${args.join(' ')}`;
    for (const { name, title, body } of sections(out, { where: 'node' })) {
      writeResults(name, { title, body, command, machine, date: out.date, load });
      console.log(`bench/RESULTS.md: section "${name}" written`);
    }
  }
  if (found.length) {
    console.error(`\nbench: ${found.length} problem(s):\n  ${found.join('\n  ')}`);
    process.exitCode = 1;
  }
}

// The forward section: every engine on every config, cold start, payload, fused memory.
async function forward(ceiling, relaxedCeiling) {
  const payload = measurePayload();
  const cold = Object.fromEntries([...ENGINES.map((e) => e.id), ...ATTENTION_PART_IDS].map((id) => [id, measureColdStart(id, quick ? 1 : 3)]));

  const engines = await loadEngines({ quick });
  const list = configs({ quick }).filter((c) => !filter || filter.test(label(c)));
  const memoryCfg = list.filter((c) => c.kind === 'fused').at(-1);
  let memory = null;
  const results = [];
  for (const cfg of list) {
    const t = performance.now();
    let probe = null;
    if (cfg === memoryCfg && !engines['wasm-simd'].unavailable) probe = await freshForMemory(cfg);
    results.push(...(await runConfig(cfg, engines, { quick, memoryProbe: probe })));
    if (probe) memory = memoryReport(cfg, probe);
    process.stderr.write(`  ${label(cfg)}: ${((performance.now() - t) / 1e3).toFixed(1)} s\n`);
  }
  addRatios(results, ceiling, relaxedCeiling);
  const kernel = await runKernelAlone(list, engines, { quick, ceiling, relaxedCeiling });

  report.printResults(results);
  report.printKernelAlone(kernel);
  const relaxed = engines['wasm-relaxed'];
  if (!relaxed.unavailable) console.log(`  (the relaxed build timed its two register tiles after loading and kept ${relaxed.tiles}, ${relaxed.tuneMs.toFixed(0)} ms after: web/api/tiles.js)`);
  report.printColdStart(cold, labels);
  report.printPayload(payload, labels);
  report.printMemory(memory);
  return {
    flopFormulas: FLOP_FORMULAS, results: results.map(({ cfg, ...r }) => ({ ...r, ...cfg })), kernel, coldStart: cold, payload, memory,
    engines,
  };
}

await main();

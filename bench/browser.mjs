// browser.mjs: `npm run bench:browser`. The sections of `npm run bench`
// with the same engines (this project's relaxed, SIMD and scalar builds,
// onnxruntime-web, tfjs-wasm, plain JS, ruvector-attention-wasm) in one
// headless Chromium page (Debian's, its default flags: relaxed SIMD is on),
// the same seeded inputs, interleaved rounds, medians; prints the same tables.
// The page (browser-page.mjs) runs the Node sections' own code.
//   --quick        few rounds, no N = 65,536 (a smoke test)
//   --json FILE    also write every result as JSON
//   --filter RE    only the forward configs whose label matches (e.g. 'MHA|SDPA N=1024 ')
//   --only forward | backward | efficient | train | gpt | pool   one section
//   --full-262k    also full attention at N = 262,144 in the efficient section (minutes)
//   --write        also write the tables of every section run to bench/RESULTS.md (chromium-* sections;
//                  a full run: not with --quick or --filter)
// Not in the browser: cold start, payload (npm run bench measures both) and
// the forward fused memory.
// Exits 1 when this project's engine fails or a result is wrong (never on time).
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../tests/browser/harness.js';
import { configs, label, FLOP_FORMULAS } from './lib/configs.mjs';
import { addRatios, labels, problems } from './sections/forward.mjs';
import { ceilingModules } from './lib/ceiling.mjs';
import { machineInfo } from './lib/machine.mjs';
import { backwardProblems, printBackward } from './sections/backward.mjs';
import { efficientProblems, printEfficient } from './sections/efficient.mjs';
import { printTrain, trainProblems } from './sections/train.mjs';
import { gptProblems, printGpt } from './sections/gpt.mjs';
import { poolProblems, printPool } from './sections/pool.mjs';
import * as report from './lib/report.mjs';
import { sections } from './lib/markdown.mjs';
import { writeResults } from './lib/results.mjs';
import os from 'node:os';

const args = process.argv.slice(2);
const value = (flag) => {
  const i = args.indexOf(flag);
  if (i >= 0 && !args[i + 1]) throw new Error(`${flag} needs a value`);
  return i >= 0 ? args[i + 1] : null;
};
const quick = args.includes('--quick');
const jsonFile = value('--json');
const filter = value('--filter') ? new RegExp(value('--filter')) : null;
const only = value('--only');
const SECTIONS = ['forward', 'backward', 'efficient', 'train', 'gpt', 'pool'];
if (only && !SECTIONS.includes(only)) throw new Error(`--only takes one section: ${SECTIONS.join(', ')}`);
const wants = (section) => !only || only === section;
const full262k = args.includes('--full-262k');
const write = args.includes('--write');
if (write && (quick || filter)) throw new Error('--write records full runs only: not with --quick or --filter');
const load = os.loadavg()[0];

const server = await serve({ port: 0 });
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
try {
  const page = await (await browser.newContext()).newPage();
  page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) console.error(`page: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) console.error(`page: HTTP ${r.status()} ${r.url()}`); });
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'info') process.stderr.write(`${m.text()}\n`); }); // progress
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/browser.html`);
  await page.waitForFunction(() => window.bench);

  const machine = machineInfo();
  report.printMachine(machine);
  console.log(`browser: Chromium ${browser.version()} (${CHROMIUM_EXECUTABLE}, headless, default flags)`);
  const ceilings = async () => {
    const modules = Object.entries(ceilingModules()).map(([kind, m]) => [kind, m.bytes ? { ...m, bytes: Array.from(m.bytes) } : m]);
    try {
      return await page.evaluate(([m, o]) => window.bench.ceilings(m, o), [Object.fromEntries(modules), { blocks: quick ? 5 : 10 }]);
    } catch (e) {
      const error = e.message.split('\n')[0];
      return { simd: { error }, relaxed: { error } };
    }
  };
  const out = { date: new Date().toISOString(), quick, machine, browser: browser.version() };
  let simdCeiling = null, relaxedCeiling = null;
  if (wants('forward') || wants('backward')) {
    ({ simd: simdCeiling, relaxed: relaxedCeiling } = await ceilings());
    report.printCeiling(simdCeiling, relaxedCeiling);
    Object.assign(out, { ceiling: simdCeiling, relaxedCeiling });
  }
  const found = [];
  if (wants('forward')) {
    const engines = await page.evaluate((q) => window.bench.load({ quick: q }), quick);
    console.log('engines: ' + Object.entries(engines).map(([id, e]) => `${labels[id]} ${e.unavailable ?? e.version}`).join('; '));
    const results = [];
    for (const cfg of configs({ quick }).filter((c) => !filter || filter.test(label(c)))) {
      const t = performance.now();
      results.push(...(await page.evaluate(([c, q]) => window.bench.run(c, { quick: q }), [cfg, quick])));
      process.stderr.write(`  ${label(cfg)}: ${((performance.now() - t) / 1e3).toFixed(1)} s\n`);
    }
    addRatios(results, simdCeiling, relaxedCeiling);
    const kernelCfgs = configs({ quick }).filter((c) => !filter || filter.test(label(c)));
    const kernel = await page.evaluate((o) => window.bench.kernel(o), { cfgs: kernelCfgs, quick, ceiling: simdCeiling, relaxedCeiling });
    report.printResults(results);
    report.printKernelAlone(kernel);
    Object.assign(out, { flopFormulas: FLOP_FORMULAS, engines, results: results.map(({ cfg, ...r }) => ({ ...r, ...cfg })), kernel });
    found.push(...problems(results, engines, ['wasm-relaxed', 'wasm-simd', 'wasm-scalar'], kernel));
  }
  if (wants('backward')) {
    out.backward = await page.evaluate((o) => window.bench.backward(o), { quick, ceiling: simdCeiling, relaxedCeiling });
    printBackward(out.backward);
    found.push(...backwardProblems(out.backward));
  }
  if (wants('efficient')) {
    out.efficient = await page.evaluate((o) => window.bench.efficient(o), { quick, full262k });
    printEfficient(out.efficient);
    found.push(...efficientProblems(out.efficient));
  }
  if (wants('train')) {
    out.train = await page.evaluate((o) => window.bench.train(o), { quick });
    printTrain(out.train);
    found.push(...trainProblems(out.train));
  }
  if (wants('gpt')) {
    out.gpt = await page.evaluate((o) => window.bench.gpt(o), { quick });
    printGpt(out.gpt);
    found.push(...gptProblems(out.gpt));
  }
  if (wants('pool')) {
    out.pool = await page.evaluate((o) => window.bench.pool(o), { quick });
    printPool(out.pool);
    found.push(...poolProblems(out.pool));
  }
  if (wants('forward')) console.log('\nnot measured in the browser: cold start and payload (see npm run bench), the forward fused memory');

  if (jsonFile) {
    writeFileSync(jsonFile, JSON.stringify(out, null, 2) + '\n');
    console.log(`\nJSON written to ${jsonFile}`);
  }
  if (write && found.length) console.error('\nbench/RESULTS.md not written: the run found problems (below)');
  if (write && !found.length) {
    const command = `npm run bench:browser -- ${args.join(' ')}`;
    for (const { name, title, body } of sections(out, { where: 'chromium' })) {
      writeResults(name, { title, body, command, machine, browser: out.browser, date: out.date, load });
      console.log(`bench/RESULTS.md: section "${name}" written`);
    }
  }
  if (found.length) {
    console.error(`\nbench:browser: ${found.length} problem(s):\n  ${found.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await new Promise((r) => server.close(r));
}

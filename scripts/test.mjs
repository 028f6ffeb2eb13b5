// test.mjs: the test suite, one area at a time or all of it (npm test).
//   node scripts/test.mjs [area ...]     no area: every area, in one run
//   node scripts/test.mjs figure <name>  one figure's tests: its model's and its page's
//                                        (tests/figures/<name>/; npm run test:figure -- <name>)
// Areas (each a folder of tests/, or the files of one kind):
//   unit      the engine and API against float64 references, every build; the
//             figures' models and claims (tests/figures/*/*.test.js); the kit;
//             the article's and the embedding docs' claims (tests/site); the
//             figures' pictures and the snapshot command (tests/snapshot)
//   browser   pages and figures in pages (*.page.test.js): headless Chromium; the three
//             engines' checks (tests/browser/engines/: Chromium, Firefox ESR, WebKitGTK)
//   native    the C kernels natively under ASan and UBSan
//   fuzz      a bounded libFuzzer run of every harness
//   consumers the package as its users get it (npm pack): Node; Vite, webpack and esbuild apps;
//             Hugo and Jekyll sites; the figures from another origin
// Extra arguments after `--` go to node --test (e.g. -- --test-name-pattern=heatmap).
// TEST_CONCURRENCY=n runs n files at a time (by default one more than the cores).
// The slowest files start first (their times in the last run: scripts/slowest.mjs, which
// also prints the ten slowest tests at the end).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { lastDurations } from './slowest.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const tests = (dir) => readdirSync(join(ROOT, dir), { recursive: true })
  .filter((f) => f.endsWith('.test.js')).map((f) => join(dir, f)).sort();
const page = (f) => f.endsWith('.page.test.js');

export const AREAS = {
  unit: () => [...tests('tests/unit'), ...tests('tests/kit'), ...tests('tests/site'), ...tests('tests/figures').filter((f) => !page(f)),
    ...tests('tests/snapshot').filter((f) => !page(f))],
  browser: () => [...tests('tests/browser'), ...tests('tests/figures').filter(page), ...tests('tests/snapshot').filter(page)],
  native: () => tests('tests/native'),
  fuzz: () => tests('tests/fuzz'),
  consumers: () => tests('tests/consumers'),
};

/** One figure's tests (tests/figures/<name>/): its model's and its page's. */
export function figureTests(name) {
  if (!FIGURES.some((f) => f.name === name)) throw new Error(`test.mjs: no figure '${name}' (figures: ${FIGURES.map((f) => f.name).join(', ')})`);
  return tests(`tests/figures/${name}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dash = args.indexOf('--');
  const names = dash < 0 ? args : args.slice(0, dash);
  const extra = dash < 0 ? [] : args.slice(dash + 1);
  let files;
  if (names[0] === 'figure') {
    if (names.length !== 2) throw new Error('test.mjs: figure takes one name (npm run test:figure -- soft-dictionary)');
    files = figureTests(names[1]);
  } else {
    for (const n of names) if (!Object.hasOwn(AREAS, n)) throw new Error(`test.mjs: no area '${n}' (areas: ${Object.keys(AREAS).join(', ')}, figure <name>)`);
    files = (names.length ? names : Object.keys(AREAS)).flatMap((n) => AREAS[n]());
  }
  if (!files.length) throw new Error(`test.mjs: no tests in ${names.join(' ')}`); // (node --test would run every file it finds)
  // the slowest first, so that no long file starts last: by its time in the last run here,
  // else in the run recorded in tests/durations.json (a fresh clone's order), else by its
  // area: a fuzz, native or consumers file first, then the browser's, the unit's last
  const took = { ...JSON.parse(readFileSync(join(ROOT, 'tests/durations.json'), 'utf8')), ...lastDurations() };
  const browser = new Set(AREAS.browser());
  const guess = (f) => (/^tests\/(fuzz|native|consumers)\//.test(f) ? 3e6 : browser.has(f) ? 2e6 : 1e6);
  files = files.map((f, k) => [f, took[f] ?? guess(f), k]).sort((a, b) => b[1] - a[1] || a[2] - b[2]).map(([f]) => f);
  const reporter = process.stdout.isTTY ? 'spec' : 'tap';
  // a file more than the machine has cores at a time: a browser test waits on its browser
  // and its workers much of the time (with one per core, npm test kept 2 cores 47% busy)
  const concurrency = Number(process.env.TEST_CONCURRENCY) || availableParallelism() + 1;
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=900000',
    `--test-reporter=${reporter}`, '--test-reporter-destination=stdout', '--test-reporter=./scripts/slowest.mjs', '--test-reporter-destination=stdout',
    ...extra, ...files], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

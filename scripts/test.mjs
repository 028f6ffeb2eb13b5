// test.mjs: the test suite, one area at a time or all of it (npm test).
//   node scripts/test.mjs [area ...]     no area: every area, in one run
// Areas (each a folder of tests/, or the files of one kind):
//   unit      the engine and API against float64 references, every build; the
//             figures' models and claims (tests/figures/*/*.test.js); the kit;
//             the article's and the embedding docs' claims (tests/site); the
//             figures' pictures and the snapshot command (tests/snapshot)
//   browser   headless Chromium: pages, figures in pages (*.page.test.js)
//   native    the C kernels natively under ASan and UBSan
//   fuzz      a bounded libFuzzer run of every harness
//   consumers the package as its users get it (npm pack): Node; Vite, webpack and esbuild apps;
//             Hugo and Jekyll sites; the figures from another origin
// Extra arguments after `--` go to node --test (e.g. -- --test-name-pattern=heatmap).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dash = args.indexOf('--');
  const names = dash < 0 ? args : args.slice(0, dash);
  const extra = dash < 0 ? [] : args.slice(dash + 1);
  for (const n of names) if (!Object.hasOwn(AREAS, n)) throw new Error(`test.mjs: no area '${n}' (areas: ${Object.keys(AREAS).join(', ')})`);
  const files = (names.length ? names : Object.keys(AREAS)).flatMap((n) => AREAS[n]());
  if (!files.length) throw new Error(`test.mjs: no tests in ${names.join(', ')}`); // (node --test would run every file it finds)
  // two files at a time: the machine's two cores, each kept busy
  const child = spawn(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=900000', ...extra, ...files], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// cold-start.mjs: import-to-first-result time of one engine, in a fresh
// Node process so no engine profits from another's warm caches.
//   node bench/sections/cold-start.mjs ENGINE_ID   prints {"ms": ...}
//   node bench/sections/cold-start.mjs --parts [RUNS] [--json FILE]
//                                         attention-wasm's attention part
//                                         (parts: 'attention') against the
//                                         full engine, every build this Node
//                                         runs: RUNS (default 21) fresh
//                                         processes each, in rotating rounds;
//                                         prints the median and the spread
// ENGINE_ID is an id of engines.mjs, or one of ours with ':attention' (the
// attention part alone, loadAttention({ parts: 'attention' })).
// The clock starts before the engine's library is imported and stops when
// the first SDPA result (N = 64, d = 64, no weights) is in a Float32Array.
// An ENGINE_ID goes through its bench adapter (engines.mjs), as every engine
// does in npm run bench (ours reads package.json for its version, about a
// millisecond); --parts times the package alone, as its user runs it:
// import, loadAttention, three attn.matrix, attn.attention.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENGINES } from '../engines/engines.mjs';
import { sdpaInputs } from '../lib/inputs.mjs';
import { isPromise, median } from '../lib/timing.mjs';

const SELF = fileURLToPath(import.meta.url);
const CONFIG = { kind: 'sdpa', N: 64, d: 64 };

/** Our engines with the attention part alone, as ids ('wasm-simd:attention'). */
export const ATTENTION_PART_IDS = ENGINES.filter((e) => e.id.startsWith('wasm-')).map((e) => `${e.id}:attention`);

async function child(idWithPart) {
  const [id, parts] = idWithPart.split(':');
  const spec = ENGINES.find((e) => e.id === id);
  if (!spec || (parts !== undefined && (parts !== 'attention' || !id.startsWith('wasm-')))) {
    throw new Error(`unknown engine ${idWithPart}; one of ${[...ENGINES.map((e) => e.id), ...ATTENTION_PART_IDS].join(', ')}`);
  }
  const x = sdpaInputs(CONFIG);
  const t0 = performance.now();
  const engine = await spec.load({ ...(parts ? { parts } : {}), waitForTiles: false });
  const run = await engine.prepare(CONFIG, x, { weights: false });
  let r = run();
  if (isPromise(r)) r = await r;
  const ms = performance.now() - t0;
  if (!(r.output instanceof Float32Array)) throw new Error('no Float32Array out');
  process.stdout.write(JSON.stringify({ ms }));
}

// What a user of the package runs, timed the same way.
async function packageChild(build, parts) {
  const x = sdpaInputs(CONFIG);
  const t0 = performance.now();
  const { loadAttention } = await import('../../web/attention.js');
  const attn = await loadAttention({ build, parts });
  const [Q, K, V] = [x.Q, x.K, x.V].map((a) => attn.matrix(x.N, x.d, a));
  const r = attn.attention(Q, K, V, { weights: false });
  const ms = performance.now() - t0;
  if (!(r.output.data instanceof Float32Array) || attn.build !== build || attn.parts !== parts) throw new Error('not the engine asked for');
  process.stdout.write(JSON.stringify({ ms }));
}

const once = (...args) =>
  JSON.parse(execFileSync(process.execPath, [...process.execArgv, SELF, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).ms;

/** Median cold start over `repeats` fresh processes: { ms, runs } or { error }. */
export function measureColdStart(id, repeats) {
  const runs = [];
  try {
    for (let i = 0; i < repeats; i++) runs.push(once(id));
  } catch (e) {
    const lines = String(e.stderr || e.message).split('\n');
    return { error: lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] };
  }
  return { ms: median(runs), runs };
}

// Our engines, attention part and full, `runs` fresh processes each, in
// rounds that run every engine once in a rotated order (so a busy moment of
// a shared machine falls on all alike).
// (The loader is imported here only: a child must import it after its clock starts.)
async function compareParts(runs, jsonFile) {
  const { relaxedSimdSupported } = await import('../../web/attention.js');
  const builds = ['relaxed', 'simd', 'scalar'].filter((b) => b !== 'relaxed' || relaxedSimdSupported());
  const ids = builds.flatMap((b) => [`wasm-${b}:attention`, `wasm-${b}`]);
  const times = Object.fromEntries(ids.map((id) => [id, []]));
  for (let r = 0; r < runs; r++) {
    for (let i = 0; i < ids.length; i++) {
      const id = ids[(i + r) % ids.length];
      const [build, parts = 'all'] = id.replace('wasm-', '').split(':');
      times[id].push(once('--package', build, parts));
    }
  }
  const q = (xs, f) => [...xs].sort((a, b) => a - b)[Math.round(f * (xs.length - 1))];
  console.log(`cold start of the package, import to first result (SDPA N=64 d=64), node ${process.version}, ${runs} fresh processes each, ms: median [p10-p90] (min-max)`);
  for (const id of ids) {
    const xs = times[id];
    const f = (v) => v.toFixed(1);
    console.log(`  ${id.padEnd(22)} ${f(median(xs)).padStart(6)} [${f(q(xs, 0.1))}-${f(q(xs, 0.9))}] (${f(Math.min(...xs))}-${f(Math.max(...xs))})`);
  }
  if (jsonFile) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(jsonFile, `${JSON.stringify({ node: process.version, execArgv: process.execArgv, runs, times }, null, 2)}\n`);
  }
}

if (process.argv[1] === SELF) {
  const args = process.argv.slice(2);
  if (args[0] === '--parts') {
    const json = args.indexOf('--json');
    await compareParts(Number(args[1] > 0 ? args[1] : 21), json >= 0 ? args[json + 1] : null);
  } else if (args[0] === '--package') {
    await packageChild(args[1], args[2]);
  } else {
    await child(args[0]);
  }
}

// cold-start.mjs: import-to-first-result time of one engine, in a fresh
// Node process so no engine profits from another's warm caches.
//   node bench/cold-start.mjs ENGINE_ID   prints {"ms": ...}
// The clock starts before the engine's library is imported and stops when
// the first SDPA result (N = 64, d = 64, no weights) is in a Float32Array.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ENGINES } from './engines.mjs';
import { sdpaInputs } from './inputs.mjs';
import { isPromise, median } from './timing.mjs';

const SELF = fileURLToPath(import.meta.url);
const CONFIG = { kind: 'sdpa', N: 64, d: 64 };

async function child(id) {
  const spec = ENGINES.find((e) => e.id === id);
  if (!spec) throw new Error(`unknown engine ${id}; one of ${ENGINES.map((e) => e.id).join(', ')}`);
  const x = sdpaInputs(CONFIG);
  const t0 = performance.now();
  const engine = await spec.load();
  const run = await engine.prepare(CONFIG, x, { weights: false });
  let r = run();
  if (isPromise(r)) r = await r;
  const ms = performance.now() - t0;
  if (!(r.output instanceof Float32Array)) throw new Error('no Float32Array out');
  process.stdout.write(JSON.stringify({ ms }));
}

/** Median cold start over `repeats` fresh processes: { ms, runs } or { error }. */
export function measureColdStart(id, repeats) {
  const runs = [];
  try {
    for (let i = 0; i < repeats; i++) {
      const out = execFileSync(process.execPath, [...process.execArgv, SELF, id], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      runs.push(JSON.parse(out).ms);
    }
  } catch (e) {
    const lines = String(e.stderr || e.message).split('\n');
    return { error: lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] };
  }
  return { ms: median(runs), runs };
}

if (process.argv[1] === SELF) await child(process.argv[2]);

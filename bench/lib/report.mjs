// report.mjs: the printed tables.
import { FLOP_FORMULAS } from './configs.mjs';

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

function fmtMs(ms) {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(4);
}

export function printMachine(m) {
  const id = m.cpuId ? `CPU family ${m.cpuId.family}, model ${m.cpuId.model}, model name ${m.cpuId.name}` : m.cpu;
  console.log(`machine: ${id} (/proc/cpuinfo), ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}`);
  console.log(`node ${m.node} (V8 ${m.v8}); ${m.emcc ?? 'emcc: not found'}`);
  console.log('packages: ' + Object.entries(m.packages).map(([k, v]) => `${k} ${v ?? 'missing'}`).join(', '));
}

export function printCeiling(c, relaxed = null) {
  const spread = (x) => `blocks ${Math.min(...x.blocks).toFixed(1)}-${Math.max(...x.blocks).toFixed(1)}`;
  const line = (what, x) => console.log(x.error ? `${what}: n/a (${x.error})` : `${what}: ${x.gflops.toFixed(1)} GFLOP/s (${spread(x)}; ${x.method})`);
  line('wasm SIMD ceiling', c);
  if (relaxed) line('relaxed SIMD ceiling (the relaxed rows\' "ceiling")', relaxed);
}

export function printResults(results) {
  console.log(`\nflops: SDPA ${FLOP_FORMULAS.sdpa}, SDPA causal ${FLOP_FORMULAS.causal}, MHA ${FLOP_FORMULAS.mha} (multiply and add counted apart; softmax not counted)`);
  console.log('median of interleaved rounds; Float32Arrays in and out, copies inside the timed region;');
  console.log('vs ORT = onnxruntime-web time / this time (same weights setting); err = max |x - plain JS| on sampled rows\n');
  const head = [pad('config', 23), pad('engine', 30), pad('weights', 8), lpad('median ms', 10), lpad('GFLOP/s', 8),
    lpad('vs ORT', 7), lpad('ceiling', 8), lpad('err', 9), lpad('runs', 7)].join(' ');
  console.log(head);
  console.log('-'.repeat(head.length));
  let last = null;
  for (const r of results) {
    const cfg = r.config === last ? '' : r.config;
    last = r.config;
    const left = [pad(cfg, 23), pad(r.label, 30), pad(r.weights ? 'on' : 'off', 8)].join(' ');
    if (r.na) {
      console.log(`${left} n/a: ${r.na}`);
      continue;
    }
    console.log([left, lpad(fmtMs(r.medianMs), 10), lpad(r.gflops.toFixed(1), 8),
      lpad(r.vsOrt ? `${r.vsOrt.toFixed(2)}x` : '-', 7),
      lpad(r.ofCeiling ? `${(100 * r.ofCeiling).toFixed(0)}%` : '-', 8),
      lpad(r.maxAbsErr.toExponential(1), 9), lpad(`${r.rounds}x${r.batch}`, 7)].join(' '));
  }
}

/** The forward kernel alone (forward.mjs runKernelAlone). */
export function printKernelAlone(rows) {
  if (!rows.length) return;
  console.log(`\nthe forward kernel alone (each SIMD build, interleaved; Q, K, V, the output and the weights already in wasm, no copies); flops: SDPA ${FLOP_FORMULAS.sdpa}, causal ${FLOP_FORMULAS.causal}`);
  for (const k of rows) {
    const what = `  ${pad(k.config, 23)} ${pad(k.label, 36)} weights ${pad(k.weights ? 'on' : 'off', 4)}`;
    if (k.na) console.log(`${what} n/a: ${k.na}`);
    else console.log(`${what} ${lpad(fmtMs(k.medianMs), 10)} ms ${lpad(k.gflops.toFixed(1), 6)} GFLOP/s` +
      (k.ofCeiling ? ` (${(100 * k.ofCeiling).toFixed(0)}% of the ${k.ceiling.toFixed(1)} GFLOP/s ceiling)` : ''));
  }
}

export function printColdStart(cold, labels) {
  console.log('\ncold start (fresh node process; import + instantiate + first SDPA N=64 result; median of runs):');
  for (const [id, c] of Object.entries(cold)) {
    console.log(`  ${pad(labels[id] ?? id, 22)} ${c.error ? `n/a: ${c.error}` : `${c.ms.toFixed(1)} ms`}`);
  }
}

export function printPayload(payload, labels) {
  console.log('\npayload (gzip -9 of each file, summed):');
  for (const [id, p] of Object.entries(payload)) {
    const what = labels[id] ?? id;
    console.log(`  ${pad(what, 22)} ${p.error ? `n/a: ${p.error}` : `${lpad(kb(p.gzipBytes), 11)} gzip (${kb(p.bytes)} raw): ${p.files.join(', ')}`}`);
  }
}

export function printMemory(m) {
  if (!m) return;
  if (m.error) return console.log(`\nfused memory: n/a (${m.error})`);
  console.log(`\nfused path memory, attention-wasm SIMD, N=${m.N} d=${m.d}, fresh instance:`);
  console.log(`  wasm memory after the runs ${mib(m.wasmMemoryBytes)} (it never shrinks: the peak),` +
    ` of which inputs + output copied in ${mib(m.ioBytes)}`);
  console.log(`  engine's own = the rest: ${mib(m.ownBytes)} (stack, static data, allocator slack, workspace);` +
    ` workspace the kernel asks for: ${kb(m.workspaceBytes)}`);
}

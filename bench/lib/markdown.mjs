// markdown.mjs: the bench's results as bench/RESULTS.md's sections, from the
// object run.mjs (Node) and browser.mjs (Chromium) fill and write with --json.
// The same rows report.mjs and the sections print, as Markdown tables.
//   sections(out, { where: 'node' | 'chromium' }) -> [{ name, title, body }]
// (results.mjs writes each one between its markers.)
import { table } from './results.mjs';

const LABELS = {
  'wasm-relaxed': 'relaxed', 'wasm-simd': 'SIMD', 'wasm-scalar': 'scalar',
  ort: 'onnxruntime-web', tfjs: 'tfjs-wasm', js: 'plain JS',
  'wasm-relaxed:attention': 'relaxed, attention part', 'wasm-simd:attention': 'SIMD, attention part', 'wasm-scalar:attention': 'scalar, attention part',
};
const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const pct = (f) => (f ? `${(100 * f).toFixed(0)}%` : null);
const x = (r, digits = 2) => (r ? `${r.toFixed(digits)}×` : null);
const kB = (b) => (b / 1000).toFixed(1);
const mib = (b) => (b / 2 ** 20).toFixed(2);
const uniq = (xs) => [...new Set(xs)];
const WHERE = { node: 'in Node', chromium: 'in Chromium' };

/** "SIMD 65.1 GFLOP/s (blocks 62.4–65.1), relaxed 72.1 (…)": the ceilings a run measured. */
function ceilings(out) {
  const one = (what, c) => (!c ? null : c.error ? `${what}: not measured (${c.error})`
    : `${what} ${c.gflops.toFixed(1)} GFLOP/s (blocks ${Math.min(...c.blocks).toFixed(1)}–${Math.max(...c.blocks).toFixed(1)})`);
  return [one('SIMD', out.ceiling), one('relaxed', out.relaxedCeiling)].filter(Boolean).join(', ');
}

const CEILING_NOTE = 'A build\'s "of its ceiling" is its GFLOP/s as a share of a peak measured in the same run: 12 independent '
  + 'f32x4 multiply-add chains in registers (`bench/lib/ceiling.c`; the relaxed build\'s, the same chains as `f32x4.relaxed_madd`).';

function forward(out, where) {
  const rows = out.results;
  const configs = uniq(rows.map((r) => r.config));
  const fresh = ['wasm-relaxed', 'wasm-simd', 'wasm-scalar', 'ort', 'tfjs', 'js'].filter((id) => rows.some((r) => r.engine === id && !r.into));
  const into = ['wasm-relaxed', 'wasm-simd'].filter((id) => rows.some((r) => r.engine === id && r.into));
  const find = (config, weights, engine, isInto) => rows.find((r) => r.config === config && r.weights === weights && r.engine === engine && !!r.into === isInto);
  const cell = (r) => (!r ? null : r.na ? 'n/a' : ms(r.medianMs));
  const pair = (a, b, f) => (a && b && !a.na && !b.na && f(a) && f(b) ? `${f(a)} / ${f(b)}` : null);
  const body = [];
  for (const config of configs) {
    for (const weights of [false, true]) {
      const any = rows.some((r) => r.config === config && r.weights === weights);
      if (!any) continue;
      const [rel, simd] = ['wasm-relaxed', 'wasm-simd'].map((id) => find(config, weights, id, false));
      const [relI, simdI] = ['wasm-relaxed', 'wasm-simd'].map((id) => find(config, weights, id, true));
      body.push([config, weights ? 'on' : 'off', ...fresh.map((id) => cell(find(config, weights, id, false))),
        ...into.map((id) => cell(find(config, weights, id, true))),
        pair(rel, simd, (r) => x(r.vsOrt)), pair(rel, simd, (r) => pct(r.ofCeiling)),
        ...(into.length ? [pair(relI, simdI, (r) => pct(r.ofCeiling))] : [])]);
    }
  }
  const head = ['config', 'weights', ...fresh.map((id) => LABELS[id]), ...into.map((id) => `${LABELS[id]}, into`),
    'relaxed / SIMD vs onnxruntime-web', 'relaxed / SIMD, of its ceiling', ...(into.length ? ['relaxed / SIMD into, of its ceiling'] : [])];
  const text = [
    `Median milliseconds of interleaved rounds, every engine on the same seeded Float32Arrays, copies in and out timed; flops `
    + `counted as ${out.flopFormulas.sdpa} for SDPA, ${out.flopFormulas.causal} for causal SDPA (whatever an engine computes: `
    + `onnxruntime-web, tfjs-wasm and this project's weights path mask the full product, plain JS stops each row's loops at the diagonal, `
    + `this project's fused path skips the key tiles a block of queries cannot see) and ${out.flopFormulas.mha} for multi-head attention `
    + `(multiply and add apart). `
    + `*into*: the call fills the previous call's result arrays (\`attention(Q, K, V, { into: r })\`) instead of fresh ones. `
    + `Ceilings measured in this run: ${ceilings(out)}. ${CEILING_NOTE} n/a: the engine skips that size (\`bench/README.md\`).`,
    table(head, body, head.map((_, i) => (i < 2 ? 'l' : 'r'))),
  ];
  if (out.kernel?.length) {
    const labels = uniq(out.kernel.map((k) => k.label));
    const kconfigs = uniq(out.kernel.map((k) => `${k.config}|${k.weights}`));
    const krows = kconfigs.map((key) => {
      const [config, w] = key.split('|');
      return [config, w === 'true' ? 'on' : 'off', ...labels.map((l) => {
        const k = out.kernel.find((r) => r.config === config && String(r.weights) === w && r.label === l);
        return !k ? null : k.na ? 'n/a' : `${k.gflops.toFixed(1)} (${pct(k.ofCeiling) ?? '–'})`;
      })];
    });
    const khead = ['forward kernel alone', 'weights', ...labels.map((l) => `${l.replace('attention-wasm ', '')}, GFLOP/s (of its ceiling)`)];
    text.push(`The forward kernel alone: \`attn_attention\` with Q, K, V, the output and the weights already in wasm memory (no copies), `
      + 'each SIMD build interleaved; the relaxed build under each of its register tiles (*picked*: the one its timing kept, which every other row runs).',
    table(khead, krows, khead.map((_, i) => (i < 2 ? 'l' : 'r'))));
  }
  return { name: `${where}-forward`, title: `Forward attention, ${WHERE[where]}`, body: text.join('\n\n') };
}

function coldStart(out) {
  const text = [];
  if (out.coldStart) {
    const rows = Object.entries(out.coldStart).map(([id, c]) => [LABELS[id] ?? id, c.error ? `n/a (${c.error})` : ms(c.ms)]);
    text.push('A fresh Node process per run, from before the import to the first SDPA N = 64 result; median of '
      + `${Object.values(out.coldStart)[0]?.runs?.length ?? '?'} runs (\`bench/sections/cold-start.mjs\`). *attention part*: \`loadAttention({ parts: 'attention' })\`.`,
    table(['engine', 'import to first result, ms'], rows, ['l', 'r']));
  }
  if (out.memory && !out.memory.error) {
    const m = out.memory;
    text.push(table(['fused forward, SIMD build, weights off', 'N', 'd', 'wasm memory, MiB', 'inputs and output, MiB', 'the engine\'s own, MiB', 'workspace asked for, KB'],
      [['a fresh instance after the runs (memory never shrinks: the peak)', m.N, m.d, mib(m.wasmMemoryBytes), mib(m.ioBytes), mib(m.ownBytes), kB(m.workspaceBytes)]],
      ['l', 'r', 'r', 'r', 'r', 'r', 'r']));
  }
  return { name: 'node-cold-start', title: 'Cold start and memory, in Node', body: text.join('\n\n') };
}

/** The payload section, from measurePayload()'s result (bench/sections/payload.mjs). */
export function payloadSection(payload) {
  const rows = Object.entries(payload).map(([id, p]) => (p.error ? [LABELS[id] ?? id, 'n/a', 'n/a', p.error]
    : [LABELS[id] ?? id, kB(p.gzipBytes), kB(p.bytes), p.files.join(', ')]));
  return { name: 'payload', title: 'What each engine ships to a page', body: [
    'Gzip -9 of each file a page loads for an engine, summed (`bench/sections/payload.mjs`); KB = 1,000 bytes. This project: '
    + 'one `.wasm` (the loader fetches only the build it picks) and the loader as one minified module, without `attentionPool`\'s '
    + 'code (a chunk of its own, loaded when a page asks for a pool); *attention part*: '
    + '`attention-only.*.wasm` and the loader without the training part\'s JavaScript (`loadAttention({ parts: \'attention\' })`, what the figures load).',
    table(['engine', 'KB gzip', 'KB raw', 'files'], rows, ['l', 'r', 'r', 'l'])].join('\n\n') };
}

function backward(out, where) {
  const { rows, kernel, memory } = out.backward;
  const col = (r) => (r.engine.startsWith('wasm') ? `${LABELS[r.engine]} ${r.weights ? 'weights' : 'fused'}` : r.label);
  const cols = uniq(rows.map(col));
  const configs = uniq(rows.map((r) => r.config));
  const body = configs.map((config) => {
    const of = (c) => rows.find((r) => r.config === config && col(r) === c);
    const simdW = of('SIMD weights'), simdF = of('SIMD fused');
    const vs = (r) => (r && !r.na && r.vsTfjs ? x(r.vsTfjs, 1) : '–');
    return [config, ...cols.map((c) => { const r = of(c); return !r ? null : r.na ? 'n/a' : ms(r.medianMs); }), `${vs(simdW)} / ${vs(simdF)}`];
  });
  const head = ['config', ...cols, 'SIMD vs tfjs (weights / fused)'];
  const text = [
    `One call runs the forward and the backward: inputs and ∂loss/∂output in, every gradient out, copies timed; median ms. `
    + `*weights* keeps the N×N weights for the backward, *fused* keeps each row's log-sum-exp and recomputes the weights tile by tile `
    + `(memory O(N·d)). tfjs-wasm runs \`tf.grads\` of the same ops. Flops: ${out.backward.flopFormulas.sdpa}, causal half, `
    + `multi-head ${out.backward.flopFormulas.mha}. Ceilings measured in this run: ${ceilings(out)}.`,
    table(head, body, head.map((_, i) => (i ? 'r' : 'l'))),
  ];
  if (kernel?.length) {
    text.push(`The backward kernel alone (inputs, output and weights or log-sum-exp already in wasm; the SIMD builds interleaved), flops ${out.backward.flopFormulas.kernel}:`,
      table(['backward kernel alone', 'build', 'path', 'GFLOP/s', 'of its ceiling'],
        kernel.map((k) => [k.config, k.label.replace('attention-wasm ', ''), k.weights ? 'weights' : 'fused', k.na ? 'n/a' : k.gflops.toFixed(1), k.na ? null : pct(k.ofCeiling)]),
        ['l', 'l', 'l', 'r', 'r']));
  }
  if (memory) {
    text.push(`The fused causal backward at N = ${memory.N.toLocaleString('en-US')}, d = ${memory.d} (SIMD, a fresh instance) held ${mib(memory.peakBytes)} MiB `
      + `at its peak, of which inputs and gradients ${mib(memory.ioBytes)} MiB: ${mib(memory.engineBytes)} MiB of its own.`);
  }
  return { name: `${where}-backward`, title: `Gradients, ${WHERE[where]}`, body: text.join('\n\n') };
}

function efficient(out, where) {
  const { rows, peers } = out.efficient;
  const mechanisms = uniq(rows.map((r) => r.mechanism));
  const Ns = uniq(rows.map((r) => r.N));
  const body = Ns.map((N) => {
    const at = rows.filter((r) => r.N === N);
    const mem = at.find((r) => !r.na)?.peakMiB;
    return [N.toLocaleString('en-US'), ...mechanisms.map((m) => {
      const r = at.find((q) => q.mechanism === m);
      if (!r) return null;
      if (r.na) return r.na;
      return r.vsFull && r.vsFull !== 1 ? `${ms(r.ms)} (${x(r.vsFull, 1)})` : ms(r.ms);
    }), mem === undefined ? null : mem.toFixed(1)];
  });
  const head = ['N', ...mechanisms.map((m) => `${m}, ms`), 'memory, MiB'];
  const text = [
    'Self-attention, d = 64, the SIMD build; median ms, and in brackets how many times faster than full (fused) attention at that N. '
    + 'Memory: the most wasm memory a call used (inputs, output, workspace). Window attention matches exact attention under the same mask; '
    + 'linear attention (Performer\'s FAVOR+) estimates softmax attention.',
    table(head, body, head.map((_, i) => (i ? 'r' : 'l'))),
  ];
  if (peers && !peers.unavailable) {
    text.push(`Against ruvector-attention-wasm ${peers.version} on its own mechanisms at N = ${peers.N.toLocaleString('en-US')} (its API takes one query per call):`,
      table(['mechanism', 'this project, ms', 'RMS error', 'ruvector, ms', 'its RMS error', 'ratio'],
        peers.pairs.map((p) => [p.mechanism, ms(p.ours.ms), p.ours.err.rms.toExponential(1), ms(p.theirs.ms), p.theirs.err.rms.toExponential(1), `${(p.theirs.ms / p.ours.ms).toFixed(0)}×`]),
        ['l', 'r', 'r', 'r', 'r', 'r']));
  }
  return { name: `${where}-efficient`, title: `Sliding window, global tokens and linear attention, ${WHERE[where]}`, body: text.join('\n\n') };
}

const trainers = (rows) => table(['engine', 'ms per step', 'steps/s', 'vs tfjs', 'loss difference'],
  rows.map((r) => (r.na ? [r.label, 'n/a', null, null, r.na] : [r.label, r.medianMs.toFixed(2), r.stepsPerSecond.toFixed(1), x(r.vsTfjs, 1), r.maxLossDiff?.toExponential(1) ?? null])),
  ['l', 'r', 'r', 'r', 'r']);

function train(out, where) {
  const c = out.train.config;
  return { name: `${where}-train`, title: `Training, ${WHERE[where]}`, body: [
    `The \`attention-induction\` figure's model (vocab ${c.vocab}, ${c.tokens} tokens, d ${c.dModel}, ${c.heads} heads, ${c.layers} layers, batch ${c.batch}), `
    + `AdamW; a step is forward, backward, the update and the loss read back; every engine from the same parameters on the same batches. `
    + `Loss difference: the largest against float64 over the first ${c.checkSteps} steps.`, trainers(out.train.rows)].join('\n\n') };
}

function gpt(out, where) {
  const c = out.gpt.config;
  return { name: `${where}-gpt`, title: `The tiny GPT: training and decoding, ${WHERE[where]}`, body: [
    `The \`attention-tiny-gpt\` figure's model (${c.layers} GPT blocks with LayerNorm and a GELU MLP, d ${c.dModel}, ${c.heads} heads, ${c.context} tokens, batch ${c.batch}), `
    + `AdamW; a step as above. Loss difference: the largest against a float64 reference over the first ${c.checkSteps} steps.`,
    trainers(out.gpt.rows),
    `Decoding ${c.generate} characters greedily from an 8-character prompt, with the KV cache (\`model.generate\`) and without it (the whole window again for every character); both must write the same text:`,
    table(['build', 'with the cache, tokens/s', 'without, tokens/s', 'speed-up', 'same text'],
      out.gpt.decoding.map((d) => [d.label.replace('attention-wasm ', ''), d.cachedTps.toFixed(0), d.plainTps.toFixed(0), x(d.speedup, 1), d.sameText ? 'yes' : 'NO']),
      ['l', 'r', 'r', 'r', 'l'])].join('\n\n') };
}

function pool(out, where) {
  const p = out.pool;
  const head = ['config', 'engine, ms', '1 worker, ms', '2 workers, ms', 'speed-up', 'target', 'of the ideal 2×', 'the engine\'s bits'];
  const rows = p.targets.map((r) => [r.config, ms(r.engineMs), ms(r.pool1Ms), ms(r.pool2Ms), x(r.speedup), r.target ? x(r.target, 1) : null,
    pct(r.speedup / 2), r.sameBits ? 'yes' : 'NO']);
  const c = p.threshold.crossing;
  const mf = (v) => (v === null ? 'nowhere in the sweep' : `${v >= 10 ? v.toFixed(0) : v.toFixed(1)} MFLOP`);
  return { name: `${where}-pool`, title: `Every core: attentionPool, ${WHERE[where]}`, body: [
    `\`attentionPool({ workers })\` against the single-thread engine, the ${p.build} build (register tile ${p.tiles}), the same seeded inputs, `
    + 'median ms of interleaved rounds; the pool\'s time includes the copy into its engine for the NaN scan, the messages and putting the pieces '
    + 'together. SDPA splits by query rows, MHA by heads then by rows of the output projection (self-attention, weights off; *MHA layer*: the same call on a layer whose weights stay in memory, `multiHeadAttentionLayer` on the engine and on the pool, so that a call posts only X), the backward '
    + '(`attentionBackward`, its forward included) by rows for the forward and dQ and by key tiles for dK and dV, which takes 7 products per '
    + 'tile where the engine takes 5 (no target: 2 workers can gain ~1.5×), and a training step of `attention-induction`\'s model '
    + '(`pool.createTransformer`: a share of the batch per worker, the gradients summed, the same AdamW update on every copy; '
    + 'no target; *the engine\'s bits*: its first step\'s loss). *of the ideal*: '
    + 'the speed-up as a share of 2×. The machine has 2 cores; no machine with more was available, so there is no scaling table past 2 workers.',
    table(head, rows, head.map((_, i) => (i ? 'r' : 'l'))),
    `Where splitting starts to pay: every call split over 2 workers (the threshold set to 0) against the engine. Splitting paid from ${mf(c.sdpa)} `
    + `(fused SDPA, d = 64) and ${mf(c.mha)} (MHA, D = 256, 4 heads) in this run; the pool runs attention calls below ${mf(p.threshold.sdpa)} `
    + `and multi-head calls below ${mf(p.threshold.mha)} on its own engine, with no messages (\`SPLIT_FLOPS\` in \`web/api/pool.js\`).`,
    table(['config', 'MFLOP', 'engine, ms', 'split over 2 workers, ms', 'speed-up'],
      p.sweep.map((r) => [r.config, r.mflop.toFixed(1), ms(r.engineMs), ms(r.splitMs), x(r.ratio)]), ['l', 'r', 'r', 'r', 'r']),
  ].join('\n\n') };
}

/** The sections `out` holds results for. */
export function sections(out, { where }) {
  if (!WHERE[where]) throw new TypeError(`markdown: where is 'node' or 'chromium', got ${where}`);
  const list = [];
  if (out.results) list.push(forward(out, where));
  if (where === 'node' && out.coldStart) list.push(coldStart(out));
  if (where === 'node' && out.payload) list.push(payloadSection(out.payload));
  if (out.backward) list.push(backward(out, where));
  if (out.efficient) list.push(efficient(out, where));
  if (out.train) list.push(train(out, where));
  if (out.gpt) list.push(gpt(out, where));
  if (out.pool) list.push(pool(out, where));
  return list;
}

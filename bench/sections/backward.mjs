// backward.mjs: the gradients section of `npm run bench` (after the forward
// table; alone: node bench/run.mjs --only backward). Forward + backward in
// one call per engine, on the same seeded inputs and dOutput:
//   attention-wasm  attentionBackward / layer.backward (weights path, and the
//                   fused path that recomputes the weights from each row's
//                   log-sum-exp), SIMD and scalar builds
//   tfjs-wasm       tf.grads of the same forward (the @tensorflow/tfjs union
//                   package registers the gradients; every op used here has
//                   a wasm kernel in 4.22, so no workaround is needed)
//   plain JS        plain-js-backward.mjs
// and, for each of this project's SIMD builds, the backward kernel alone (inputs,
// output and log-sum-exp already in wasm memory), the figure the issue's
// ceiling target is about. Plus the engine memory of the fused causal
// backward at N = 16,384.
import { runtimeVersion } from '../engines/engine-js.mjs';
import { useWasmBackend } from '../engines/engine-tfjs.mjs';
import { mhaInputs, sampleRows, sdpaInputs } from '../lib/inputs.mjs';
import { mhaBackward, sdpaBackward } from '../engines/plain-js-backward.mjs';
import { interleave } from '../lib/timing.mjs';
import { checkStatus, wasmArena } from '../lib/in-wasm.mjs';

export const BACKWARD_FLOPS = {
  sdpa: '12*N^2*d (forward 4, backward 8: dP, dQ, dK, dV)',
  causal: 'half of 12*N^2*d',
  mha: '12*N^2*D + 24*N*D^2',
  kernel: 'weights path 8*N^2*d; fused 10*N^2*d (the recomputed Q K^T and four products); causal half',
};

/** The configs in run order. */
export function backwardConfigs() {
  const list = [256, 1024, 4096].map((N) => ({ kind: 'sdpa', N, d: 64, causal: false }));
  list.push({ kind: 'mha', N: 256, D: 512, heads: 8 });
  list.push({ kind: 'sdpa', N: 16384, d: 64, causal: true });
  return list;
}

const label = (c) => (c.kind === 'mha' ? `MHA N=${c.N} D=${c.D} h=${c.heads}` : `SDPA N=${c.N} d=${c.d}${c.causal ? ' causal' : ''}`);

function flops(c) {
  if (c.kind === 'mha') return 12 * c.N * c.N * c.D + 24 * c.N * c.D * c.D;
  return (12 * c.N * c.N * c.d) / (c.causal ? 2 : 1);
}

// dOutput (or dY): seeded like the inputs, in [-1, 1).
function withGradient(cfg) {
  const x = cfg.kind === 'mha' ? mhaInputs(cfg) : sdpaInputs(cfg);
  const cols = cfg.kind === 'mha' ? cfg.D : cfg.d;
  const g = sdpaInputs({ N: cfg.N, d: cols }, 77).Q; // another seeded N x cols array
  return { ...x, dO: g };
}

// ---- engines -------------------------------------------------------------------

const MAX_N = { js: 1024, scalar: 4096, tfjs: 4096 };

function thisEngine(engine, build) {
  const { attn } = engine;
  return {
    skip(cfg, weights) {
      if (cfg.causal && weights) return 'N x N weights: the fused path only';
      if (build === 'scalar' && cfg.N > MAX_N.scalar) return 'scalar build: ~20 s a run';
      return null;
    },
    prepare(cfg, x, weights) {
      if (cfg.kind === 'mha') {
        const layer = attn.multiHeadAttentionLayer({
          heads: x.heads, Wq: m(x.Wq, x.D, x.D), Wk: m(x.Wk, x.D, x.D), Wv: m(x.Wv, x.D, x.D), Wo: m(x.Wo, x.D, x.D),
          bq: x.bq, bk: x.bk, bv: x.bv, bo: x.bo,
        });
        const [X, dY] = [m(x.Xq, x.N, x.D), m(x.dO, x.N, x.D)];
        return {
          run: () => {
            const g = layer.backward(X, null, dY, { weights });
            return { dX: g.dXq.data, dWq: g.dWq.data, dWo: g.dWo.data, dbq: g.dbq };
          },
          done: () => layer.dispose(),
        };
      }
      const [Q, K, V, dO] = [x.Q, x.K, x.V, x.dO].map((a) => m(a, x.N, x.d));
      return {
        run: () => {
          const g = attn.attentionBackward(Q, K, V, dO, { weights, causal: cfg.causal });
          return { dQ: g.dQ.data, dK: g.dK.data, dV: g.dV.data };
        },
      };
    },
  };
}
const m = (data, rows, cols) => ({ rows, cols, data });

async function tfjsEngine() {
  const tf = await import('@tensorflow/tfjs');
  await useWasmBackend(tf);
  // Inputs become tensors inside the timed call and gradients are read back
  // with dataSync, as in the forward bench; tidy frees the intermediates.
  const read = (fn, names) => {
    const tensors = tf.tidy(fn);
    const out = Object.fromEntries(names.map((n, i) => [n, tensors[i].dataSync()]));
    tf.dispose(tensors);
    return out;
  };
  return {
    version: tf.version.tfjs,
    skip(cfg, weights) {
      if (!weights) return 'no fused path (one row per config)';
      if (cfg.N > MAX_N.tfjs) return `N x N scores = ${(cfg.N * cfg.N * 4) / 2 ** 30} GiB per op output`;
      return null;
    },
    prepare(cfg, x) {
      if (cfg.kind === 'mha') {
        const { N, D, heads } = x;
        const dh = D / heads;
        const params = [x.Wq, x.Wk, x.Wv, x.Wo].map((w) => tf.tensor2d(w, [D, D]))
          .concat([x.bq, x.bk, x.bv, x.bo].map((b) => tf.tensor1d(b)));
        const split = (t) => tf.transpose(tf.reshape(t, [N, heads, dh]), [1, 0, 2]);
        const mha = (X, Wq, Wk, Wv, Wo, bq, bk, bv, bo) => {
          const [q, k, v] = [[Wq, bq], [Wk, bk], [Wv, bv]].map(([W, b]) => split(tf.add(tf.matMul(X, W), b)));
          const p = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)));
          return tf.add(tf.matMul(tf.reshape(tf.transpose(tf.matMul(p, v), [1, 0, 2]), [N, D]), Wo), bo);
        };
        const grads = tf.grads(mha);
        return {
          run: () => read(() => {
            const g = grads([tf.tensor2d(x.Xq, [N, D]), ...params], tf.tensor2d(x.dO, [N, D]));
            return [g[0], g[1], g[4], g[5]];
          }, ['dX', 'dWq', 'dWo', 'dbq']),
          done: () => tf.dispose(params),
        };
      }
      const scale = 1 / Math.sqrt(x.d);
      const grads = tf.grads((q, k, v) => tf.matMul(tf.softmax(tf.mul(tf.matMul(q, k, false, true), scale)), v));
      return {
        run: () => read(() => {
          const [q, k, v, dO] = [x.Q, x.K, x.V, x.dO].map((a) => tf.tensor2d(a, [x.N, x.d]));
          return grads([q, k, v], dO);
        }, ['dQ', 'dK', 'dV']),
      };
    },
  };
}

function jsEngine() {
  return {
    version: runtimeVersion(),
    skip(cfg, weights) {
      if (!weights) return 'no fused path (one row per config)';
      if (cfg.kind === 'sdpa' && cfg.N > MAX_N.js) return `about ${Math.round((10 * cfg.N * cfg.N * cfg.d) / 1e9 / (cfg.causal ? 2 : 1))} s a run at ~1 GFLOP/s`;
      return null;
    },
    prepare(cfg, x) {
      if (cfg.kind === 'mha') return { run: () => mhaBackward(x, x.dO) };
      const g = () => sdpaBackward(x.Q, x.K, x.V, x.dO, x.N, x.d, 1 / Math.sqrt(x.d), { causal: cfg.causal });
      return { run: g };
    },
  };
}

// ---- accuracy ------------------------------------------------------------------

// The plain JS loops on sampled query rows (dQ) and sampled keys (dK, dV:
// each needs every query row, so only up to N = 4,096); the full multi-head
// backward at N = 256.
function reference(cfg, x) {
  if (cfg.kind === 'mha') {
    const g = mhaBackward(x, x.dO);
    return { parts: { dX: g.dX, dWq: g.dWq, dWo: g.dWo, dbq: g.dbq } };
  }
  const rows = sampleRows(cfg.N);
  const keys = cfg.N <= 4096 ? sampleRows(cfg.N, 8, 5) : [];
  const g = sdpaBackward(x.Q, x.K, x.V, x.dO, cfg.N, cfg.d, 1 / Math.sqrt(cfg.d), { causal: cfg.causal, rows, keys });
  return { rows, keys, d: cfg.d, parts: g };
}

/** Largest |got - want| over the checked entries, relative to the largest |want|. */
function relativeError(got, ref) {
  let err = 0;
  let scale = 0;
  const compare = (a, b, at) => {
    if (!a || !b) return (err = NaN);
    b.forEach((w, i) => {
      scale = Math.max(scale, Math.abs(w));
      const e = Math.abs(a[at(i)] - w);
      if (!(e <= err)) err = e; // NaN sticks
    });
  };
  if (!ref.rows) {
    for (const [name, want] of Object.entries(ref.parts)) compare(got[name], want, (i) => i);
  } else {
    const { d } = ref;
    const sampled = (list) => (i) => list[Math.floor(i / d)] * d + (i % d);
    compare(got.dQ, ref.parts.dQ, sampled(ref.rows));
    if (ref.keys.length) {
      compare(got.dK, ref.parts.dK, sampled(ref.keys));
      compare(got.dV, ref.parts.dV, sampled(ref.keys));
    }
  }
  return err / (scale || 1);
}

// ---- the backward kernel alone (each SIMD build) -----------------------------

/** A run() of attn_attention_backward with everything already in wasm. */
function kernelAlone(engine, cfg, x, weights) {
  const ex = engine.exports;
  const { N, d } = cfg;
  const { alloc, put, struct, done } = wasmArena(ex);
  const [q, k, v, dout] = [x.Q, x.K, x.V, x.dO].map(put);
  const masks = cfg.causal ? struct('attn_masks', { causal: 1 }) : 0;
  const out = alloc(4 * N * d);
  const lse = weights ? 0 : alloc(4 * N);
  const w = weights ? alloc(4 * N * N) : 0;
  const [dq, dk, dv] = [0, 0, 0].map(() => alloc(4 * N * d));
  const scale = Math.fround(1 / Math.sqrt(d));
  if (weights) checkStatus(ex.attn_attention(out, w, q, k, v, N, N, d, d, scale, masks, 0), 'attn_attention');
  else checkStatus(ex.attn_attention_lse(out, lse, q, k, v, N, N, d, d, scale, masks, alloc(ex.attn_attention_workspace_size(N, N, d, d, 0) >>> 0)), 'attn_attention_lse');
  const ws = alloc(ex.attn_attention_backward_workspace_size(N, N, d, d) >>> 0);
  return {
    run: () => checkStatus(ex.attn_attention_backward(dq, dk, dv, q, k, v, out, dout, w, lse, N, N, d, d, scale, masks, ws), 'attn_attention_backward'),
    done,
  };
}

const kernelFlops = (cfg, weights) => ((weights ? 8 : 10) * cfg.N * cfg.N * cfg.d) / (cfg.causal ? 2 : 1);

// ---- the section ------------------------------------------------------------

const BUILD_LABELS = { relaxed: 'attention-wasm relaxed', simd: 'attention-wasm SIMD', scalar: 'attention-wasm scalar' };
const stderr = (s) => process.stderr.write(s);

/**
 * Runs every config on every engine; returns {rows, kernel, memory} and
 * prints them (unless `print` is false: printBackward). `loadThis(build)`
 * loads this project's engine (engine-this.mjs) for each of `builds`;
 * `ceiling` is the run's measured wasm SIMD ceiling, `relaxedCeiling` the
 * relaxed one (for the relaxed rows); `progress(text)` reports each config.
 */
export async function runBackward({
  quick, ceiling, relaxedCeiling = null, loadThis, builds = ['simd', 'scalar'], print = true, progress = stderr,
}) {
  const engines = [
    ...builds.map((b) => ({ id: `wasm-${b}`, label: BUILD_LABELS[b], load: async () => thisEngine(await loadThis(b), b) })),
    { id: 'tfjs', label: 'tfjs-wasm tf.grads', load: tfjsEngine },
    { id: 'js', label: 'plain JS', load: async () => jsEngine() },
  ];
  const loaded = {};
  for (const e of engines) {
    try {
      loaded[e.id] = await e.load();
    } catch (err) {
      loaded[e.id] = { unavailable: `failed to load: ${String(err?.message ?? err).split('\n')[0]}` };
    }
  }
  const policy = (cfg) => ({
    budgetMs: quick ? 100 : 1500, minRounds: quick || cfg.N >= 4096 ? 1 : 3, maxRounds: quick ? 3 : 30, warmMs: quick ? 200 : 5000,
  });
  const rows = [];
  for (const cfg of backwardConfigs()) {
    if (quick && cfg.N > 4096) continue;
    const t = performance.now();
    const x = withGradient(cfg);
    const ref = reference(cfg, x);
    const variants = [];
    for (const e of engines) {
      for (const weights of [true, false]) {
        const engine = loaded[e.id];
        const row = { config: label(cfg), cfg, engine: e.id, label: e.label, weights };
        row.na = engine.unavailable ?? engine.skip(cfg, weights);
        if (row.na) {
          if (e.id.startsWith('wasm-') || weights) rows.push(row);
          continue;
        }
        rows.push(row);
        try {
          variants.push({ row, ...engine.prepare(cfg, x, weights) });
        } catch (err) {
          row.na = `prepare failed: ${err.message}`;
        }
      }
    }
    const timed = await interleave(variants, policy(cfg));
    variants.forEach(({ row, done }, i) => {
      done?.();
      const r = timed[i];
      if (r.error) return (row.na = `failed: ${r.error}`);
      Object.assign(row, {
        medianMs: r.medianMs, samples: r.samples, rounds: r.samples.length, batch: r.batch,
        gflops: flops(cfg) / r.medianMs / 1e6, relErr: relativeError(r.first, ref),
      });
    });
    for (const row of rows.filter((r) => r.cfg === cfg && !r.na)) {
      const tfjs = rows.find((o) => o.cfg === cfg && o.engine === 'tfjs' && !o.na);
      row.vsTfjs = tfjs ? tfjs.medianMs / row.medianMs : null;
      const c = row.engine === 'wasm-relaxed' && relaxedCeiling?.gflops ? relaxedCeiling : ceiling;
      row.ofCeiling = c?.gflops ? row.gflops / c.gflops : null;
    }
    progress(`  backward ${label(cfg)}: ${((performance.now() - t) / 1e3).toFixed(1)} s\n`);
  }

  // The kernel alone, on each SIMD build (fresh instances, so memory is
  // their own), the builds interleaved; each against its own ceiling.
  const kernel = [];
  const simdBuilds = builds.filter((b) => b !== 'scalar');
  const instances = await Promise.all(simdBuilds.map((b) => loadThis(b)));
  for (const cfg of backwardConfigs().filter((c) => c.kind === 'sdpa' && c.N >= 1024)) {
    if (quick && cfg.N > 4096) continue;
    const x = withGradient(cfg);
    for (const weights of cfg.causal ? [false] : [true, false]) {
      const ks = instances.map((e) => kernelAlone(e, cfg, x, weights));
      const timed = await interleave(ks, policy(cfg));
      ks.forEach((k) => k.done());
      timed.forEach((r, i) => {
        const row = { config: label(cfg), build: simdBuilds[i], label: BUILD_LABELS[simdBuilds[i]], weights };
        const c = simdBuilds[i] === 'relaxed' && relaxedCeiling?.gflops ? relaxedCeiling : ceiling;
        if (r.error) kernel.push({ ...row, na: r.error });
        else {
          const gflops = kernelFlops(cfg, weights) / r.medianMs / 1e6;
          kernel.push({ ...row, medianMs: r.medianMs, gflops, ceiling: c?.gflops ?? null, ofCeiling: c?.gflops ? gflops / c.gflops : null });
        }
      });
    }
  }

  // Engine memory of the fused causal backward at N = 16,384 (fresh instance).
  let memory = null;
  if (!quick) {
    const cfg = backwardConfigs().at(-1);
    const fresh = await loadThis('simd');
    const small = withGradient({ kind: 'sdpa', N: 256, d: cfg.d });
    thisEngine(fresh, 'simd').prepare({ ...cfg, N: 256 }, small, false).run();
    fresh.attn.memoryPeak(); // reset
    thisEngine(fresh, 'simd').prepare(cfg, withGradient(cfg), false).run();
    const peak = fresh.attn.memoryPeak();
    const ioBytes = 4 * 7 * cfg.N * cfg.d; // Q, K, V, dOutput in; dQ, dK, dV out
    memory = {
      N: cfg.N, d: cfg.d, peakBytes: peak, ioBytes, engineBytes: peak - ioBytes, wasmMemoryBytes: fresh.memoryBytes(),
      method: 'attn.memoryPeak() over one attentionBackward call (every byte the call allocated), minus Q, K, V, dOutput, dQ, dK, dV',
    };
  }
  const section = { flopFormulas: BACKWARD_FLOPS, rows: rows.map(({ cfg, ...r }) => ({ ...r, ...cfg })), kernel, memory };
  if (print) printBackward(section);
  return section;
}

// ---- printing ---------------------------------------------------------------

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;

/** Prints a section runBackward returned. */
export function printBackward({ rows, kernel, memory }) {
  console.log('\n== forward + backward (gradients) ==');
  console.log(`flops: SDPA ${BACKWARD_FLOPS.sdpa}, causal ${BACKWARD_FLOPS.causal}, MHA ${BACKWARD_FLOPS.mha}`);
  console.log('one call: forward and backward, inputs and dOutput in, every gradient out (copies timed); median of interleaved rounds');
  console.log('path: weights = backward from the stored N x N weights; fused = recomputed from each row\'s log-sum-exp, memory O(N d)');
  console.log('vs tfjs = tfjs-wasm time / this time; err = max |x - plain JS| / max |plain JS| on sampled rows (dQ) and keys (dK, dV)\n');
  const head = [pad('config', 24), pad('engine', 22), pad('path', 8), lpad('median ms', 10), lpad('GFLOP/s', 8),
    lpad('vs tfjs', 8), lpad('ceiling', 8), lpad('err', 9), lpad('runs', 7)].join(' ');
  console.log(head);
  console.log('-'.repeat(head.length));
  let last = null;
  for (const r of rows) {
    const cfg = r.config === last ? '' : r.config;
    last = r.config;
    const path = r.engine.startsWith('wasm') ? (r.weights ? 'weights' : 'fused') : '-';
    const left = [pad(cfg, 24), pad(r.label, 22), pad(path, 8)].join(' ');
    if (r.na) {
      console.log(`${left} n/a: ${r.na}`);
      continue;
    }
    console.log([left, lpad(fmtMs(r.medianMs), 10), lpad(r.gflops.toFixed(1), 8),
      lpad(r.vsTfjs ? `${r.vsTfjs.toFixed(1)}x` : '-', 8),
      lpad(r.ofCeiling ? `${(100 * r.ofCeiling).toFixed(0)}%` : '-', 8),
      lpad(r.relErr.toExponential(1), 9), lpad(`${r.rounds}x${r.batch}`, 7)].join(' '));
  }
  console.log(`\nthe backward kernel alone (each SIMD build, interleaved; inputs, output, weights or log-sum-exp already in wasm); flops: ${BACKWARD_FLOPS.kernel}`);
  for (const k of kernel) {
    const what = `  ${pad(k.config, 24)} ${pad(k.label, 22)} ${pad(k.weights ? 'weights' : 'fused', 8)}`;
    if (k.na) console.log(`${what} n/a: ${k.na}`);
    else console.log(`${what} ${lpad(fmtMs(k.medianMs), 10)} ms ${lpad(k.gflops.toFixed(1), 6)} GFLOP/s` +
      (k.ofCeiling ? ` (${(100 * k.ofCeiling).toFixed(0)}% of the ${k.ceiling.toFixed(1)} GFLOP/s ceiling)` : ''));
  }
  if (memory) {
    console.log(`\nfused causal backward memory, attention-wasm SIMD, N=${memory.N} d=${memory.d}, fresh instance:`);
    console.log(`  peak bytes held during the call ${mib(memory.peakBytes)}, of which inputs and gradients ${mib(memory.ioBytes)};` +
      ` the engine's own: ${mib(memory.engineBytes)} (the forward's output and log-sum-exp, workspaces)`);
  }
}

/** Problems that should fail the run: this project's rows failing or wrong (never time). */
export function backwardProblems(section) {
  const out = [];
  for (const r of section.rows) {
    const where = `backward ${r.config}, ${r.label}, ${r.weights ? 'weights' : 'fused'}`;
    if (r.na?.startsWith('failed') || r.na?.startsWith('prepare failed')) out.push(`${where}: ${r.na}`);
    // float32 gradients summed over up to 16k keys: ~1e-6 relative; a broken kernel is off by 1e-2 or NaN
    if (!r.na && !(r.relErr <= 1e-4)) out.push(`${where}: relative error ${r.relErr} > 1e-4`);
  }
  for (const k of section.kernel) if (k.na) out.push(`backward kernel ${k.config}: ${k.na}`);
  return out;
}

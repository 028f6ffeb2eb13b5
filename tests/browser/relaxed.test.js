// The relaxed SIMD build in Chromium, which validates relaxed SIMD by default
// (so the loader picks it, and Chromium's V8 decides whether
// f32x4.relaxed_madd fuses): matmul, softmax, attention on both paths and
// attentionBackward computed in a page, checked here against the float64
// reference within the error model's bounds (tests/helpers.js), the same
// bounds every build meets in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';
import {
  assertClose, attentionBackwardBound, attentionBound, makeMasks, matmulBound, randMatrix, ref, rng, softmaxBound,
} from '../unit/helpers.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const plain = (M) => ({ rows: M.rows, cols: M.cols, data: Array.from(M.data) });
const f32 = (M) => ({ rows: M.rows, cols: M.cols, data: Float32Array.from(M.data) });

// Runs in the page: every call on the default build; results as plain arrays.
async function compute(calls) {
  const { loadAttention } = await import('/web/attention.js');
  const attn = await loadAttention();
  const out = (M) => M && { rows: M.rows, cols: M.cols, data: Array.from(M.data) };
  const results = calls.map(({ fn, args }) => {
    const r = attn[fn](...args);
    return r.data ? out(r) : Object.fromEntries(Object.entries(r).map(([k, v]) => [k, out(v)]));
  });
  return { build: attn.build, results, memoryInUse: attn.memoryInUse() };
}

test('Chromium loads the relaxed build by default, and its results meet the error model', async () => {
  const { page, problems, context } = await server.open('/blank.html', {
    prepare: (p) => p.route('**/blank.html', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>relaxed</title>' })),
  });
  const rs = rng(15001);
  const checks = [];
  const calls = [];
  const call = (fn, args, check) => { calls.push({ fn, args }); checks.push(check); };
  // Shapes across the lane width, the 2 x 16 tile and the 512-deep panel.
  for (const [m, k, n] of [[3, 5, 17], [65, 17, 127], [3, 600, 129], [128, 128, 8]]) {
    const [A, B] = [randMatrix(rs, m, k), randMatrix(rs, k, n)];
    call('matmul', [plain(A), plain(B)], (got) => assertClose(f32(got), ref.matmul(A, B), matmulBound(A, B), `matmul ${m}x${k}x${n}`));
  }
  const M = randMatrix(rs, 7, 301, -20, 20);
  call('softmax', [plain(M)], (got) => assertClose(f32(got), ref.softmax(M), softmaxBound(M, ref.softmax(M)), 'softmax 7x301'));
  for (const [n_q, n_k, d_k, d_v] of [[65, 129, 16, 9], [130, 300, 64, 64]]) {
    for (const kind of ['none', 'all']) {
      const [Q, K, V] = [randMatrix(rs, n_q, d_k), randMatrix(rs, n_k, d_k), randMatrix(rs, n_k, d_v)];
      const options = makeMasks(rs, kind, n_q, n_k);
      const want = ref.attention(Q, K, V, options);
      const bound = attentionBound(Q, K, V, options, want);
      const what = `attention ${n_q}x${n_k}x${d_k}x${d_v} masks=${kind}`;
      const opts = { ...options, mask: options.mask && plain(options.mask) };
      for (const weights of [true, false]) {
        call('attention', [plain(Q), plain(K), plain(V), { ...opts, weights }], (got) => {
          assertClose(f32(got.output), want.output, bound.output, `${what} weights=${weights}: output`);
          if (weights) assertClose(f32(got.weights), want.weights, bound.weights, `${what}: weights`);
        });
      }
      const dO = randMatrix(rs, n_q, d_v);
      const g = ref.attentionBackward(Q, K, V, dO, options);
      for (const weights of [true, false]) {
        const b = attentionBackwardBound(Q, K, V, dO, options, g, { fused: !weights });
        call('attentionBackward', [plain(Q), plain(K), plain(V), plain(dO), { ...opts, weights }], (got) => {
          for (const key of ['dQ', 'dK', 'dV']) assertClose(f32(got[key]), g[key], b[key], `${what} backward weights=${weights}: ${key}`);
        });
      }
    }
  }
  // api.test.js's probe: 2^-24 when the multiply-add fuses, 0 when not.
  const e = 2 ** -12;
  const [A, B] = [{ rows: 1, cols: 2, data: [1, 1 + e] }, { rows: 2, cols: 1, data: [-(1 + 2 * e), 1 + e] }];
  call('matmul', [A, B], (got) => {
    assert.ok(got.data[0] === 0 || got.data[0] === 2 ** -24, `fused or not: ${got.data[0]}`);
    console.log(`Chromium ${got.data[0] === 0 ? 'does not fuse' : 'fuses'} f32x4.relaxed_madd`);
  });
  const r = await page.evaluate(compute, calls);
  assert.equal(r.build, 'relaxed', 'Chromium validates relaxed SIMD');
  r.results.forEach((got, i) => checks[i](got));
  assert.equal(r.memoryInUse, 0);
  assert.deepEqual(problems, []);
  await context.close();
});

// pool-life.test.js: an attentionPool's workers over its life in Node: a
// worker that dies in a call rejects that call with an Error that says so and
// is replaced by the next call; close() with calls in flight rejects them and
// every later call; a process with a pool, closed or only dropped, exits by
// itself; a dropped pool is collected and ends its workers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

import { attentionPool, loadAttention } from '../../web/attention.js';
import { poolState } from '../../web/api/pool.js';
import { ROOT, randMatrix, rng } from './helpers.js';

// A call long enough to be in flight when something happens to it: each
// worker's piece of N = 2048, d = 64 takes tens of ms.
const rs = rng(3);
const [Q, K, V] = [0, 1, 2].map(() => randMatrix(rs, 2048, 64));
const LONG = { weights: false };

const sameBits = (a, b) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

describe('attentionPool: workers over its life', () => {
  it('a worker that dies rejects its call with a clear Error, and the next call starts another', async () => {
    const attn = await loadAttention({ build: 'simd' });
    const pool = await attentionPool({ build: 'simd', workers: 2 });
    const state = poolState.get(pool);
    const first = state.slots[0];
    const call = pool.attention(Q, K, V, LONG); // posted at once: the checks run before the first await
    first.thread.worker.terminate(); // from outside, as a crash would
    await assert.rejects(call, (err) => {
      assert.equal(err.constructor, Error);
      assert.match(err.message, /^attention-wasm: a pool worker stopped \(it exited with code \d+\) during this call; the next call starts another$/);
      return true;
    });
    assert.equal(state.slots[0], null);
    const again = await pool.attention(Q, K, V, LONG);
    assert.notEqual(state.slots[0], first);
    assert.ok(sameBits(again.output.data, attn.attention(Q, K, V, LONG).output.data));
    assert.deepEqual(await pool.memoryInUse(), [0, 0]);
    await pool.close();
  });

  it('a layer one of whose workers died rejects its runs with a clear Error; a new layer works', async () => {
    const attn = await loadAttention({ build: 'simd' });
    const pool = await attentionPool({ build: 'simd', workers: 2 });
    const state = poolState.get(pool);
    state.split = { attention: 0, multiHeadAttention: 0 };
    const W = () => randMatrix(rs, 16, 16);
    const opts = { heads: 4, Wq: W(), Wk: W(), Wv: W(), Wo: W() };
    const X = randMatrix(rs, 40, 16);
    const layer = await pool.multiHeadAttentionLayer(opts);
    const stopped = new Promise((resolve) => state.slots[1].thread.worker.once('exit', resolve));
    state.slots[1].thread.worker.terminate();
    await stopped;
    await assert.rejects(layer.run(X), {
      name: 'Error',
      message: 'run: a worker that held a copy of this layer stopped; make another with pool.multiHeadAttentionLayer()',
    });
    const again = await pool.multiHeadAttentionLayer(opts);
    assert.ok(sameBits((await again.run(X)).output.data, attn.multiHeadAttention(X, null, opts).output.data));
    await Promise.all([layer.dispose(), again.dispose()]);
    assert.deepEqual(await pool.memoryInUse(), [0, 0]);
    await pool.close();
  });

  it('close() rejects the calls in flight and every later call, and ends the workers', async () => {
    const pool = await attentionPool({ workers: 2 });
    const state = poolState.get(pool);
    const threads = state.slots.map((slot) => slot.thread.worker);
    const exits = threads.map((w) => new Promise((resolve) => w.once('exit', resolve)));
    const calls = [pool.attention(Q, K, V, LONG), pool.attention(Q, K, V, LONG)].map((call) => call.then(() => null, (err) => err));
    await pool.close();
    for (const err of await Promise.all(calls)) {
      assert.equal(err?.constructor, Error);
      assert.equal(err.message, 'attention-wasm: the pool was closed (pool.close()) before this call finished');
    }
    await Promise.all(exits);
    const closed = /^attention-wasm: this pool is closed \(pool.close\(\)\); make another with attentionPool\(\)$/;
    await assert.rejects(pool.attention(Q, K, V, LONG), { message: closed });
    await assert.rejects(pool.memoryInUse(), { message: closed });
    await pool.close(); // a second close is nothing
  });

  it('a process with a pool exits by itself: closed, or dropped (collected, its workers ended)', () => {
    const script = `
      import { attentionPool } from './web/attention.js';
      import { poolState } from './web/api/pool.js';
      const X = { rows: 600, cols: 64, data: new Float32Array(600 * 64).fill(0.5) };
      const closed = await attentionPool({ workers: 2 });
      poolState.get(closed).split = { attention: 0, multiHeadAttention: 0 };
      await closed.attention(X, X, X);
      await closed.close();
      let dropped = await attentionPool({ workers: 2 });
      const state = poolState.get(dropped);
      state.split = { attention: 0, multiHeadAttention: 0 };
      await dropped.attention(X, X, X);
      dropped = null;
      for (let i = 0; i < 50 && !state.closed; i++) {
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 20));
      }
      console.log(JSON.stringify({ collected: state.closed, workers: state.slots.filter(Boolean).length }));
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.error, undefined, `the process did not exit by itself: ${r.error?.message}`);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { collected: true, workers: 0 });
  });
});

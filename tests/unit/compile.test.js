// compile.test.js: compileAttention() gives a module a worker (or this
// thread) instantiates with loadAttention({ module }), for either part;
// its options are loadAttention's, checked the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAttention, loadAttention } from '../../web/attention.js';

test('compileAttention: a module of either part, which loadAttention({ module, parts }) runs', async () => {
  for (const parts of ['attention', 'all']) {
    const module = await compileAttention({ parts, build: 'scalar' });
    assert.ok(module instanceof WebAssembly.Module);
    const attn = await loadAttention({ module, parts });
    assert.equal(attn.build, 'scalar');
    assert.equal(attn.parts, parts);
    const r = attn.attention([[1, 0]], [[1, 0], [0, 1]], [[1], [2]]);
    assert.equal(r.output.rows, 1);
  }
  // the attention part alone is not the full engine
  await assert.rejects(loadAttention({ module: await compileAttention({ parts: 'attention', build: 'scalar' }), parts: 'all' }), /parts: 'attention'/);
});

test('compileAttention: bad options are named', async () => {
  await assert.rejects(compileAttention({ parts: 'some' }), RangeError);
  await assert.rejects(compileAttention({ build: 3 }), TypeError);
  await assert.rejects(compileAttention({ colour: 'red' }), /unknown option 'colour'/);
  await assert.rejects(compileAttention({ module: await compileAttention({ build: 'scalar' }) }), /compiled already/);
  await assert.rejects(compileAttention({ wasmBinary: new Uint8Array([1, 2, 3]) }), /not a valid WebAssembly module/);
});

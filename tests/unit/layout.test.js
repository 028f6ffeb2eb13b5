// layout.test.js: the C structs the JS API writes and reads, as every wasm
// build reports them (src/layout.c, web/api/layout.js): the structs and
// fields the API needs are there, each field a 32-bit word inside its struct,
// what the JS writes is what the C reads (and the other way), and a field
// the module does not report is an Error, never a write to a guessed place.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { BUILDS, instantiate, relaxedSimdSupported } from '../../web/api/load.js';
import { Arena } from '../../web/api/kernels.js';
import { layoutOf, readStruct, writeStruct } from '../../web/api/layout.js';

// What web/api/ writes or reads, field by field (attention.h declares them).
const FIELDS = {
  attn_masks: ['add', 'key_padding', 'causal', 'has_window', 'window', 'global', 'n_global', 'first_query'],
  attn_mha_params: ['Wq', 'Wk', 'Wv', 'Wo', 'bq', 'bk', 'bv', 'bo'],
  attn_mha_grads: ['dWq', 'dWk', 'dWv', 'dWo', 'dbq', 'dbk', 'dbv', 'dbo'],
  attn_tf_config: ['vocab', 'context', 'd_model', 'heads', 'layers', 'mlp', 'layer_norm'],
  attn_tf_model: ['cfg', 'params', 'grads', 'm', 'v', 'off', 'step'],
  attn_tf_param: ['name', 'layer', 'rows', 'cols', 'offset'],
  attn_adamw: ['lr', 'beta1', 'beta2', 'eps', 'weight_decay'],
};

const names = Object.keys(BUILDS).filter((b) => b !== 'relaxed' || relaxedSimdSupported());

// The exports of one build of one part (the full engine: parts 'all').
const load = async (build, parts) => (await instantiate({ parts, build, wasmUrl: new URL(`../../build/${
  parts === 'all' ? BUILDS[build] : BUILDS[build].replace('attention', 'attention-only')}`, import.meta.url) })).ex;

for (const build of names) {
  const ex = await load(build, 'all');

  test(`the attention part alone reports the same layouts [${build}]`, async () => {
    assert.deepEqual(layoutOf(await load(build, 'attention')), layoutOf(ex));
  });

  test(`every struct the API touches, each field one aligned word inside it [${build}]`, () => {
    const layout = layoutOf(ex);
    assert.deepEqual(Object.keys(layout).sort(), Object.keys(FIELDS).sort());
    for (const [name, fields] of Object.entries(FIELDS)) {
      const s = layout[name];
      assert.deepEqual(Object.keys(s.fields).sort(), [...fields].sort(), name);
      for (const [field, { offset, kind }] of Object.entries(s.fields)) {
        const width = layout[kind]?.size ?? 4;
        assert.ok(offset % 4 === 0 && offset + width <= s.size, `${name}.${field} at ${offset} (${kind}) in ${s.size} bytes`);
      }
    }
    // wasm32: a model is its config and six 32-bit words
    assert.equal(layout.attn_tf_model.size, layout.attn_tf_config.size + 6 * 4);
  });

  test(`what the JS writes is what the C reads, and back [${build}]`, () => {
    const arena = new Arena(ex);
    try {
      // a config written by field name: C counts its parameters (tests/native's
      // layout: tok 7x8, pos 8x8, per layer 4 8x8 + 4 x 8, Wu 8x7, bu 7)
      const cfg = { vocab: 7, context: 8, d_model: 8, heads: 2, layers: 2, mlp: 0, layer_norm: 0 };
      const config = arena.struct('attn_tf_config', cfg);
      assert.equal(ex.attn_tf_param_count(config) >>> 0, 56 + 64 + 2 * (256 + 32) + 56 + 7);
      // C writes attn_tf_param; the JS reads it by field name
      const info = arena.struct('attn_tf_param', {});
      assert.equal(ex.attn_tf_param_info(info, config, 1), 0);
      assert.deepEqual({ ...readStruct(ex, 'attn_tf_param', info), name: 0 }, { name: 0, layer: -1, rows: 8, cols: 8, offset: 56 });
      // a nested struct and floats round-trip
      const model = arena.struct('attn_tf_model', { cfg, params: 16, grads: 32, m: 48, v: 64, off: 80, step: 9 });
      assert.deepEqual(readStruct(ex, 'attn_tf_model', model), { cfg, params: 16, grads: 32, m: 48, v: 64, off: 80, step: 9 });
      const opt = arena.struct('attn_adamw', { lr: 0.5, beta1: 0.25, beta2: 0.125, eps: 0, weight_decay: 2 });
      assert.deepEqual(readStruct(ex, 'attn_adamw', opt), { lr: 0.5, beta1: 0.25, beta2: 0.125, eps: 0, weight_decay: 2 });
    } finally {
      arena.free();
    }
    assert.equal(ex.attn_memory_in_use() >>> 0, 0);
  });

  test(`a struct or field the module does not report is an Error [${build}]`, () => {
    const arena = new Arena(ex);
    try {
      assert.throws(() => arena.struct('attn_masks', { windw: 3 }), /no field attn_masks\.windw/);
      assert.throws(() => arena.struct('attn_mask', {}), /no struct attn_mask\b/);
      assert.throws(() => writeStruct(ex, 'attn_tf_model', 0, { cfg: { vocab: 1, dModel: 2 } }), /no field attn_tf_config\.dModel/);
    } finally {
      arena.free();
    }
  });
}

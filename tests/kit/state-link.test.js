// state-link.js: the figure state <-> URL hash round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stateFromHash, hashWith, changedState } from '../../web/kit/state-link.js';

test('each figure reads only its own entries', () => {
  const hash = '#soft-dictionary.temperature=0.05&multi-head-it.heads=1&multi-head-it.adjective=wide';
  assert.deepEqual(stateFromHash(hash, 'multi-head-it'), { heads: '1', adjective: 'wide' });
  assert.deepEqual(stateFromHash(hash, 'soft-dictionary'), { temperature: '0.05' });
  assert.deepEqual(stateFromHash(hash, 'multi-head'), {});
  assert.deepEqual(stateFromHash('', 'x'), {});
});

test('writing replaces a figure\'s entries and keeps everyone else\'s', () => {
  const before = '#a.x=1&b.y=2&a.z=3';
  assert.equal(hashWith(before, 'a', { x: '5' }), '#b.y=2&a.x=5');
  assert.equal(hashWith(before, 'a', {}), '#b.y=2');
  assert.equal(hashWith('', 'b', {}), '');
});

test('values with special characters survive the round trip', () => {
  const state = { cells: '0101', query: '0.35,-0.15', src: 'data/w e&i=ghts.json', tokens: '<img src=x onerror=alert(1)>' };
  assert.deepEqual(stateFromHash(hashWith('#other.k=v', 'fig', state), 'fig'), state);
});

test('only state that differs from the defaults is written; numbers are kept short', () => {
  const el = {
    constructor: { props: { t: { default: 1 }, mode: { default: 'a' }, on: { default: false } } },
    state: { t: 0.1 + 0.2, mode: 'a', on: true },
  };
  assert.deepEqual(changedState(el), { t: '0.3', on: 'true' });
});

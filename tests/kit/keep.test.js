// keep.js: the tree morph leaves is the one replace would (markup), and
// the elements already in place are kept (not restyled and laid out anew).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('<!doctype html><body></body>');
Object.assign(globalThis, { document: window.document, Node: window.Node });
const { h, s, replace } = await import('../../web/kit/dom.js');
const { keepIn, keepOut, layOut, morph, showOne } = await import('../../web/kit/keep.js');

const table = (rows, extra) => h('table', {}, [
  h('thead', {}, h('tr', {}, ['N', 'a', ...(extra ? ['b'] : [])].map((t) => h('th', {}, t)))),
  h('tbody', {}, rows.map(([n, v], i) => h('tr', { class: i % 2 ? 'odd' : null }, [h('td', {}, String(n)), h('td', { class: v ? null : 'skip' }, v ?? 'skipped'), ...(extra ? [h('td', {}, 'x')] : [])]))),
]);
const plot = (pts) => s('svg', { viewBox: '0 0 10 10' }, [s('polyline', { points: pts.join(' ') }), ...pts.map((p) => s('text', {}, p))]);

test('morph leaves the markup replace would, keeping the elements of the same kind in place', () => {
  const cases = [ // each a pair of functions that make a list of children
    [() => [table([[1, '2 ms'], [2, null]]), plot([1, 2])], () => [table([[1, '3 ms'], [2, '5 ms'], [4, null]]), plot([3])]],
    [() => [table([[1, '2 ms']])], () => [table([[1, '2 ms'], [2, '4 ms']], true), 'a note', null]],
    [() => ['text', h('p', { class: 'a' }, 'x')], () => [h('p', {}, 'y'), 'text']],
    [() => [h('div', {}, [h('span', {}, 'a'), h('b', {}, 'b')])], () => []],
    [() => [], () => [h('span', { title: 't' }, '1')]],
  ];
  for (const [first, second] of cases) {
    const [a, b] = [h('div'), h('div')];
    morph(a, first());
    assert.equal(a.innerHTML, replace(b, first()).innerHTML);
    const [td, text] = [a.querySelector('td'), a.querySelector('svg text')];
    morph(a, second());
    assert.equal(a.innerHTML, replace(b, second()).innerHTML);
    if (td && a.querySelector('td')) assert.equal(a.querySelector('td'), td, 'a table of new numbers keeps its cells');
    if (text && a.querySelector('svg text')) assert.equal(a.querySelector('svg text'), text, 'a plot of new numbers keeps its texts');
  }
});

test('showOne shows one part and keeps the others it showed, marked data-kept, in one place (data-stack) unless told not to; every part stays marked data-part', () => {
  const el = h('div');
  const [a, b] = [h('p', {}, 'a'), h('p', {}, 'b')];
  showOne(el, a);
  assert.equal(el.innerHTML, '<p data-part="">a</p>');
  showOne(el, b);
  assert.equal(el.innerHTML, '<p data-part="" data-kept="">a</p><p data-part="">b</p>');
  showOne(el, a);
  assert.deepEqual([...el.children], [a, b], 'shown again where it was, not made again');
  assert.deepEqual([a, b].map((p) => p.hasAttribute('data-kept')), [false, true]);
  assert.deepEqual([a, b].map((p) => p.hasAttribute('data-part')), [true, true], 'style-contained while shown too (styles.js)');
  assert.ok(el.hasAttribute('data-stack'), 'the parts take turns in one place (styles.js)');
  const own = h('div');
  showOne(own, h('p', {}, 'c'), { stack: false });
  assert.equal(own.outerHTML, '<div><p data-part="">c</p></div>', 'stack: false, each part at its own height');
});

test('keepOut keeps a part out of sight and shows it again, a part for good', () => {
  const p = h('p', {}, 'a');
  keepOut(p, true);
  assert.deepEqual([p.hasAttribute('data-kept'), p.hasAttribute('data-part')], [true, true]);
  keepOut(p, false);
  assert.deepEqual([p.hasAttribute('data-kept'), p.hasAttribute('data-part')], [false, true]);
});

test('keepIn puts a part made in the background among the kept ones, where showOne shows it later; layOut asks the size of what is inside each part', () => {
  const el = h('div');
  const [a, b] = [h('p', {}, 'a'), h('p', {}, [h('b', {}, 'b')])];
  showOne(el, a);
  assert.equal(keepIn(el, b), b);
  assert.equal(el.innerHTML, '<p data-part="">a</p><p data-part="" data-kept=""><b>b</b></p>');
  keepIn(el, b);
  assert.equal(el.children.length, 2, 'put in once');
  showOne(el, b);
  assert.deepEqual([...el.children], [a, b], 'shown where it was kept');
  assert.deepEqual([a, b].map((p) => p.hasAttribute('data-kept')), [true, false]);
  const asked = [];
  const inner = b.firstElementChild;
  inner.getBoundingClientRect = () => { asked.push(inner); return new window.DOMRect(); };
  layOut(b, h('p'));
  assert.deepEqual(asked, [inner], 'the size of the first element inside (a part with none is skipped)');
});

// results.test.js: bench/lib/results.mjs, which every bench uses to write its
// section of bench/RESULTS.md: one section replaced whole between its
// markers, the rest of the file untouched, a new one added at the end; the
// stamp names the day, the command, the CPU family and model, Node and
// Chromium; rowOf finds a table's row by its first cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rowOf, sectionNames, sectionOf, stamp, table, withSection, writeResults } from '../../bench/lib/results.mjs';

const machine = { cpu: 'AMD EPYC', cpuId: { family: '25', model: '17', name: 'AMD EPYC 9B14' }, cores: 2, node: 'v20.20.2', v8: '11.3.244.8-node.38' };

test('withSection replaces one section between its markers and leaves the rest as it was', () => {
  const text = '# Results\n\nintro\n\n<!-- results:a -->\nold a\n<!-- /results:a -->\n\nbetween\n\n<!-- results:b -->\nold b\n<!-- /results:b -->\n\nend\n';
  const next = withSection(text, 'a', 'new a\n\n| x |');
  assert.equal(next, text.replace('old a', 'new a\n\n| x |'));
  assert.equal(sectionOf(next, 'a'), 'new a\n\n| x |');
  assert.equal(sectionOf(next, 'b'), 'old b');
  const added = withSection(next, 'c', 'c body');
  assert.ok(added.startsWith(next.trimEnd()), 'the file before it is kept');
  assert.deepEqual(sectionNames(added), ['a', 'b', 'c']);
  assert.equal(sectionOf(added, 'missing'), null);
  assert.throws(() => withSection(text, 'Bad Name', 'x'), TypeError);
  assert.throws(() => withSection('<!-- results:a -->\nno end', 'a', 'x'), /no <!-- \/results:a -->/);
});

test('the stamp names the day, the command, the CPU family and model, Node and the browser', () => {
  const line = stamp({ command: 'npm run size -- --write', date: '2026-12-01T10:00:00Z', machine, browser: '156.0.8078.108', load: 0.4 });
  assert.equal(line, 'measured 2026-12-01 by `npm run size -- --write` · CPU family 25, model 17 (AMD EPYC 9B14), 2 cores · '
    + 'Node v20.20.2 (V8 11.3.244.8) · Chromium 156.0.8078.108 · load average 0.4');
  assert.match(stamp({ command: 'x', machine, load: 1 }), /· no browser ·/);
});

test('writeResults writes a section with its heading and stamp; rowOf reads a row of its table back', () => {
  const dir = mkdtempSync(join(tmpdir(), 'results-'));
  try {
    const file = join(dir, 'RESULTS.md');
    const body = table(['page', 'KB gzip'], [['one | two', 50.5], ['three', null]]);
    writeResults('size', { file, title: 'Sizes', command: 'npm run size -- --write', body, machine, date: '2026-12-01', load: 0.2 });
    writeResults('size', { file, title: 'Sizes', command: 'npm run size -- --write', body: body.replace('50.5', '51.5'), machine, date: '2026-12-02', load: 0.2 });
    const text = readFileSync(file, 'utf8');
    assert.equal(sectionNames(text).length, 1, text);
    const section = sectionOf(text, 'size');
    assert.match(section, /^## Sizes\n\nmeasured 2026-12-02 by/);
    assert.deepEqual(rowOf(section, ['one \\| two']), ['one \\| two', '51.5']);
    assert.deepEqual(rowOf(section, ['three']), ['three', '–']);
    assert.equal(rowOf(section, ['four']), null);
    assert.throws(() => writeResults('size', { file, title: 'Sizes', body }), /needs command/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

// npm start: build.sh makes dist/, then the server bundles again to watch web/
// (scripts/serve.mjs --watch). That bundle empties dist/ of its own stale files
// (scripts/bundle.mjs clean) but keeps what build.sh made after it: the
// figures' pictures, which the article shows until each figure draws (and
// which its og:image is), and the TypeScript declarations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clean } from '../../scripts/bundle.mjs';

const files = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1)).sort();

test('bundling again keeps the pictures and the declarations, and nothing else of the last build', async () => {
  const dist = mkdtempSync(join(tmpdir(), 'attention-dist-'));
  try {
    const made = ['attention-figures.js', 'attention-figures.d.ts', 'attention.simd.wasm', 'chunks/chunk-OLD.js',
      'figures/notation.js', 'figures/notation.d.ts', 'snapshots/notation.svg', 'snapshots/notation.png'];
    for (const f of made) {
      mkdirSync(join(dist, f, '..'), { recursive: true });
      writeFileSync(join(dist, f), f);
    }
    await clean(dist);
    assert.deepEqual(files(dist), ['attention-figures.d.ts', 'figures/notation.d.ts', 'snapshots/notation.png', 'snapshots/notation.svg']);
    assert.deepEqual(readdirSync(dist).sort(), ['attention-figures.d.ts', 'figures', 'snapshots'], 'an emptied folder (chunks/) goes');
    await clean(join(dist, 'new'));
    assert.deepEqual(readdirSync(join(dist, 'new')), [], 'a dist/ that was not there is made');
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

// npm start: build.sh makes dist/, then the server bundles again to watch web/
// (scripts/serve.mjs --watch). That bundle empties dist/ of its own stale files
// (scripts/bundle.mjs clean) but keeps what build.sh made after it: the
// figures' pictures, which the article shows until each figure draws (and
// which its og:image is), and the TypeScript declarations. A port in use (a
// second npm start) or a PORT that is no port is a sentence, not a stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clean } from '../../scripts/bundle.mjs';

const SERVE = fileURLToPath(new URL('../../scripts/serve.mjs', import.meta.url));

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

test('the server says when its port is taken or PORT is no port, and exits', async () => {
  const taken = createServer();
  await new Promise((r) => taken.listen(0, '127.0.0.1', r));
  try {
    const { port } = taken.address();
    for (const [PORT, said] of [[String(port), new RegExp(`^attention-wasm: port ${port} is in use .*PORT=${port + 1} npm start`)],
      ['80x', /^attention-wasm: PORT is a port number from 0 to 65535, not "80x"\n$/]]) {
      const run = spawnSync(process.execPath, [SERVE], { env: { ...process.env, PORT }, encoding: 'utf8', timeout: 20_000 });
      assert.equal(run.status, 1, `PORT=${PORT}: ${run.stderr}`);
      assert.match(run.stderr, said);
      assert.doesNotMatch(run.stderr, /\n\s+at /, `PORT=${PORT}: a stack trace`);
    }
  } finally {
    taken.close();
  }
});

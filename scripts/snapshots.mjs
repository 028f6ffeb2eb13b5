// snapshots.mjs: dist/snapshots/, every figure's picture as the command
// `attention-wasm snapshot` draws it (bin/snapshot.js), computed afresh
// (run by build.sh after the bundle): <name>.svg and <name>.png (default
// attributes, light, English, 720 px) and <name>.zh-CN.svg. A page never
// loads them unless it shows them (the blog snippets put one in a
// figure's light DOM).
//   node scripts/snapshots.mjs [--sizes]   (--sizes: print each file's size and time)
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIGURES } from '../web/figures/registry.js';
import { snapshot } from '../bin/snapshot.js';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SNAPSHOTS = join(root, 'dist', 'snapshots');
/** The files made for a figure, by name: what the build writes and the package ships. */
export const snapshotFiles = (name) => [`${name}.svg`, `${name}.png`, `${name}.zh-CN.svg`];

export async function writeSnapshots({ log = false } = {}) {
  await mkdir(SNAPSHOTS, { recursive: true });
  const rows = [];
  for (const { name } of FIGURES) {
    for (const [file, options] of [[`${name}.svg`, {}], [`${name}.png`, { format: 'png' }], [`${name}.zh-CN.svg`, { lang: 'zh-CN' }]]) {
      const t0 = performance.now();
      const { data } = await snapshot({ figure: name, ...options });
      await writeFile(join(SNAPSHOTS, file), data);
      rows.push({ file, bytes: Buffer.byteLength(data), ms: performance.now() - t0 });
    }
  }
  if (log) for (const r of rows) console.log(`${r.file.padEnd(32)} ${String(r.bytes).padStart(8)} bytes ${r.ms.toFixed(0).padStart(6)} ms`);
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const rows = await writeSnapshots({ log: process.argv.includes('--sizes') });
  console.log(`snapshots.mjs: ${rows.length} pictures in dist/snapshots (${(rows.reduce((s, r) => s + r.bytes, 0) / 1024).toFixed(0)} KiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

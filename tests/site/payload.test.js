// The bytes a blog page downloads for all figures (dist/, built by build.sh):
// the bundle (JS with its CSS inlined), the one wasm build its engine picks
// (tests/browser/hostile.test.js checks that a page fetches exactly one) and
// the KaTeX fonts. The budget was 300 KB until every figure's words moved into
// string tables in English and Chinese (about 25 KB gzip, both languages, in
// the one bundle: a page does not yet load only its own language).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { payload } from '../../scripts/bundle.mjs';
import { BUILDS } from '../../web/api/load.js';

const built = existsSync(new URL('../../dist/attention-figures.js', import.meta.url));

for (const build of Object.keys(BUILDS)) {
  test(`the figures payload with the ${build} build stays under 325 KB gzip`, { skip: !built && 'dist/ not built' }, async () => {
    const { raw, gzip, files } = await payload(build);
    assert.ok(files.includes(BUILDS[build]) && files.filter((f) => f.endsWith('.wasm')).length === 1, `one wasm: ${files}`);
    console.log(`figures payload (${build}): ${raw} bytes, ${gzip} gzip`);
    assert.ok(gzip < 325_000, `${gzip} bytes gzip`);
  });
}

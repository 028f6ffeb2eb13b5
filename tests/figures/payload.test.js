// The bytes a blog page downloads for all figures (dist/, built by build.sh):
// the bundle (JS with its CSS inlined), the SIMD wasm and the KaTeX fonts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { payload } from '../../scripts/bundle.mjs';

test('the figures payload stays under 300 KB gzip', { skip: !existsSync(new URL('../../dist/attention-figures.js', import.meta.url)) && 'dist/ not built' }, async () => {
  const { raw, gzip } = await payload();
  console.log(`figures payload: ${raw} bytes, ${gzip} gzip`);
  assert.ok(gzip < 300_000, `${gzip} bytes gzip`);
});

// attention-susan-mary in headless Chromium, on a page of its own under the
// strict CSP: "Copy link" puts its state in the page URL's hash, and the
// link opens the same view; the SVG and PNG downloads are an SVG drawing
// and a PNG image of the figure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { start, ready, summary, frames } from '../../browser/harness.js';

const TAG = 'attention-susan-mary';

let strict;
before(async () => { strict = await start({ csp: true }); });
after(async () => { await strict?.close(); });

test('copy link puts the state in the hash and restores it; SVG and PNG downloads under the strict CSP', async () => {
  const { page, problems, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await el.getByRole('button', { name: 'Swap Susan and Mary' }).click();
  await el.getByText('add positional encoding').click();
  await frames(page);
  const want = await summary(el);
  await el.getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => location.hash.includes('susan-mary.'));
  const url = page.url();
  assert.match(url, /#.*susan-mary\.order=mary-susan/);
  assert.match(url, /susan-mary\.positions=true/);
  for (const [kind, check] of [
    ['SVG', (b) => assert.match(b.toString('utf8'), /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<rect/s)],
    ['PNG', (b) => assert.deepEqual([...b.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10])],
  ]) {
    const [download] = await Promise.all([page.waitForEvent('download'), el.getByRole('button', { name: kind, exact: true }).click()]);
    assert.equal(download.suggestedFilename(), `attention-susan-mary.${kind.toLowerCase()}`);
    const bytes = await readFile(await download.path());
    assert.ok(bytes.length > 2000, `${kind}: ${bytes.length} bytes`);
    check(bytes);
  }
  assert.deepEqual(problems, []);
  await context.close();
  // the link opens the same view
  const again = await strict.openFigure(TAG, { hash: new URL(url).hash });
  const restored = await ready(again.page, TAG);
  assert.equal(await summary(restored), want);
  assert.deepEqual(again.problems, []);
  await again.context.close();
});

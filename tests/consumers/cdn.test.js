// cdn.test.js: issue 27, finding 5. The figures served from another origin,
// as docs/embedding.md's "From a CDN or another origin" says: the
// package's dist/ (from `npm pack`) alone on a second server (another port),
// a page on the first with
// <script type="module" src="http://127.0.0.1:<other>/dist/attention-figures.js">.
//   - with Access-Control-Allow-Origin on every file (and .wasm as
//     application/wasm): the soft dictionary draws and reacts, cost and
//     efficient measure their quick sweeps and induction trains when its
//     Start is pressed, each in a worker started from a same-origin blob:
//     module and given an engine the page compiled; from the other origin
//     only scripts and .wasm files; no console error, no failed request, no
//     file fetched twice; the same under the page's Content-Security-Policy
//     that the README gives for this (the other origin named, blob: workers);
//   - without the header: the module is blocked and each figure keeps its
//     own text; with it on the scripts but not on the .wasm files, each
//     figure says in one sentence that it could not start and why; with it
//     on the figures' modules but not on their workers, each figure that
//     measures or trains says once that its worker could not load, and why.
//     No page error, nothing logged but the blocked requests, and no retry
//     loop: the requests stop, none is made twice.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { serve } from '../../scripts/serve.mjs';
import { FIGURES } from '../../web/figures/registry.js';
import { SCREENSHOTS, expectChange, measured, ready, start } from '../browser/harness.js';
import { blocks } from './docs.js';
import { install } from './install.js';

// What the other origin sends Access-Control-Allow-Origin with, per variant.
const VARIANTS = {
  cors: true,
  'cors-csp': true, // and the page sets the README's policy

  'no-cors': false,
  'no-wasm-cors': (path) => !path.endsWith('.wasm'),
  'no-worker-cors': (path) => !path.endsWith('.worker.js'),
};
// a figure of each kind (registry.js): one on the main thread, every one that measures, the first that trains
const MEASURING = FIGURES.filter((f) => f.worker === 'measures').map((f) => f.tag);
const TRAINING = FIGURES.find((f) => f.worker === 'trains').tag;
const TAGS = ['attention-soft-dictionary', ...MEASURING, TRAINING];
const FALLBACK = (tag) => `The figure ${tag} needs JavaScript.`;
const BLOCKED = /blocked by CORS policy|net::ERR_FAILED/; // what Chromium logs for a request CORS blocks

const HEADERS = blocks('From a CDN or another origin', 'http').join('');
// The README's policy for a page whose figures come from https://static.example.org
const POLICY = /^Content-Security-Policy: (.*)$/m.exec(HEADERS)?.[1];

let tmp;
let server;
const cdns = {};
before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'attention-cdn-'));
  const pkg = install(tmp, join(tmp, 'consumer'));
  cpSync(join(pkg, 'dist'), join(tmp, 'cdn/dist'), { recursive: true }); // dist/ only
  mkdirSync(join(tmp, 'site'));
  writeFileSync(join(tmp, 'site', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [name, cors] of Object.entries(VARIANTS)) {
    cdns[name] = await serve({ port: 0, root: join(tmp, 'cdn'), cors });
    const other = `http://127.0.0.1:${cdns[name].address().port}`;
    // (under the policy, whose img-src is 'self', the page's icon is a file of its own)
    const head = name === 'cors-csp'
      ? `<meta http-equiv="Content-Security-Policy" content="${POLICY.replaceAll('https://static.example.org', other)}"><link rel="icon" href="icon.svg">`
      : '<link rel="icon" href="data:,">';
    writeFileSync(join(tmp, 'site', `${name}.html`), `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${head}<title>Figures from another origin</title>
<script type="module" src="${other}/dist/attention-figures.js"></script></head>
<body><main>
<attention-soft-dictionary><p>${FALLBACK('attention-soft-dictionary')}</p></attention-soft-dictionary>
<attention-cost budget="5"><p>${FALLBACK('attention-cost')}</p></attention-cost>
<attention-efficient budget="5"><p>${FALLBACK('attention-efficient')}</p></attention-efficient>
<attention-induction steps="100"><p>${FALLBACK('attention-induction')}</p></attention-induction>
</main></body></html>
`);
  }
  server = await start({ root: join(tmp, 'site') });
});
after(async () => {
  await server?.close();
  for (const cdn of Object.values(cdns)) await new Promise((r) => cdn.close(r));
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Open the variant's page, every figure in view at once. */
const open = (name) => server.open(`/${name}.html`, { height: 2400 });

/**
 * The page's requests stop (3 s without one, within 15 s: a load still under
 * way may end, a retry loop never would), and none was made twice.
 */
async function settled(page, requests) {
  const until = Date.now() + 15_000;
  for (let before = -1; before !== requests.length;) {
    assert.ok(Date.now() < until, `requests went on: ${requests.slice(before).join(', ')}`);
    before = requests.length;
    await page.waitForTimeout(3000);
  }
  const twice = requests.filter((u, i) => requests.indexOf(u) !== i);
  assert.deepEqual(twice, [], 'fetched twice');
}

/** What a figure shows: its status line, else its whole text (light DOM without a shadow root). */
const says = (page, tag) => page.evaluate((t) => {
  const el = document.querySelector(t);
  return el.shadowRoot ? (el.shadowRoot.querySelector('.status, .error')?.textContent ?? el.shadowRoot.textContent) : el.textContent.trim();
}, tag);

describe('figures from another origin', () => {
  test('the README names the headers: Access-Control-Allow-Origin, application/wasm, and a page policy that allows blob: workers', () => {
    assert.match(HEADERS, /^Access-Control-Allow-Origin: \*$/m);
    assert.match(HEADERS, /^Content-Type: application\/wasm$/m);
    assert.match(POLICY ?? '', /worker-src [^;]*\bblob:[^;]* https:\/\/static\.example\.org/);
  });

  for (const [name, how] of [['cors', 'with CORS'], ['cors-csp', "with CORS, under the README's Content-Security-Policy"]]) {
  test(`${how}: the soft dictionary reacts, cost and efficient measure, induction trains when Start is pressed`, async () => {
    const { page, problems, requests, context } = await open(name);
    try {
      await expectChange(page, 'attention-soft-dictionary', async (el) => {
        await el.locator('g.qh').focus();
        await page.keyboard.press('ArrowDown');
      });
      for (const tag of MEASURING) {
        await ready(page, tag);
        await measured(page, tag);
        assert.match(await says(page, tag), /^A quick look up to N = \d+/, tag);
      }
      const induction = await ready(page, 'attention-induction');
      await induction.evaluate((e) => e.settled());
      await induction.getByRole('button', { name: 'Start training' }).click();
      await page.waitForFunction(() => document.querySelector('attention-induction').msg?.step > 0, null, { timeout: 30_000 });
      await induction.evaluate((e) => e.settled()); // (a run's progress is drawn at its pace: settled() draws it now)
      assert.match(await says(page, 'attention-induction'), /^Step [1-9]\d* of 100/);
      // the workers' scripts came from the other origin, each through a blob: module of the page's
      const workers = requests.filter((u) => /\.worker\.js$/.test(u));
      assert.deepEqual(workers.map((u) => u.split('/').pop()).sort(), ['cost.worker.js', 'efficient.worker.js', 'induction.worker.js']);
      assert.ok(workers.every((u) => u.startsWith(`http://127.0.0.1:${cdns[name].address().port}/dist/figures/`)), workers.join(', '));
      await page.screenshot({ path: `${SCREENSHOTS}consumer-${name.replace('cors', 'cdn')}.png`, fullPage: true });
      await page.waitForFunction(() => /done/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.status').textContent), null, { timeout: 60_000 });
      await settled(page, requests);
      // from the other origin only scripts and engines (no fonts, no stylesheets): the figures'
      // attention part, its scalar build (which cost times SIMD against) and the full engine
      // the page compiled for the training worker
      const other = requests.filter((u) => u.startsWith(`http://127.0.0.1:${cdns[name].address().port}/`));
      assert.deepEqual(other.filter((u) => !u.endsWith('.js')).map((u) => u.split('/').pop()).sort(),
        ['attention-only.relaxed.wasm', 'attention-only.wasm', 'attention.relaxed.wasm']);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
  }

  test('without CORS: the module is blocked once, and every figure keeps its own text', async () => {
    const { page, problems, requests, context } = await open('no-cors');
    try {
      await settled(page, requests);
      for (const tag of TAGS) assert.equal(await says(page, tag), FALLBACK(tag));
      assert.equal(requests.filter((u) => /attention-figures\.js$/.test(u)).length, 1);
      assert.ok(problems.length > 0 && problems.every((p) => BLOCKED.test(p) && !p.startsWith('page error')), problems.join('\n'));
    } finally {
      await context.close();
    }
  });

  test('CORS on the scripts, not on the .wasm files: each figure says in one sentence that it could not start, and why', async () => {
    const { page, problems, requests, context } = await open('no-wasm-cors');
    try {
      await page.waitForFunction((tags) => tags.every((t) => document.querySelector(t).hasAttribute('data-error')), TAGS);
      await settled(page, requests);
      for (const tag of TAGS) {
        const text = await says(page, tag);
        assert.match(text, /^This figure could not start: attention-wasm: could not load http:\/\/127\.0\.0\.1:\d+\/dist\/attention-only\.relaxed\.wasm \(Failed to fetch\); a \.wasm from another origin needs its server to send Access-Control-Allow-Origin$/, tag);
      }
      assert.equal(requests.filter((u) => /\.wasm$/.test(u)).length, 1, 'one .wasm, asked for once');
      assert.ok(problems.every((p) => BLOCKED.test(p)), problems.join('\n'));
    } finally {
      await context.close();
    }
  });

  test('CORS on the modules, not on the workers: each figure that measures or trains says once that its worker could not load, and why', async () => {
    const { page, problems, requests, context } = await open('no-worker-cors');
    try {
      await ready(page, 'attention-soft-dictionary');
      const why = (file) => new RegExp(`could not load http://127\\.0\\.0\\.1:\\d+/dist/figures/${file}; a worker script from another origin needs its server to send Access-Control-Allow-Origin, and a page with a Content-Security-Policy must name that origin in worker-src`);
      for (const tag of MEASURING) {
        await ready(page, tag);
        await measured(page, tag);
        assert.match(await says(page, tag), why(`${tag.slice('attention-'.length)}.worker.js`), tag);
      }
      const induction = await ready(page, 'attention-induction');
      await induction.evaluate((e) => e.settled());
      await induction.getByRole('button', { name: 'Start training' }).click();
      await page.waitForFunction(() => /failed/.test(document.querySelector('attention-induction').shadowRoot.querySelector('.status').textContent));
      assert.match(await says(page, 'attention-induction'), why('induction.worker.js'));
      await settled(page, requests);
      assert.equal(requests.filter((u) => /\.worker\.js$/.test(u)).length, 3, 'each worker script asked for once');
      assert.ok(problems.every((p) => BLOCKED.test(p)), problems.join('\n'));
    } finally {
      await context.close();
    }
  });
});

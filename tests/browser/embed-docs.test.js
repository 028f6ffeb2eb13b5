// Every HTML snippet of docs/embedding.md works as written: all of them on
// one page under the strict CSP (their inline <script>s left out, as that
// policy would block them), each figure draws, keeps the attributes the
// snippet gives it, and nothing logs an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start, openAll, SCREENSHOTS } from './harness.js';
import { STRICT_CSP } from '../../scripts/serve.mjs';

const DOCS = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
// (a picture's address on the docs' site, example.org, is the package's dist/ here)
const SNIPPETS = [...DOCS.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1].replace(/<script[\s\S]*?<\/script>\n?/g, '')
  .replaceAll('https://example.org/assets/attention/', '/dist/'));

let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

test('every snippet of the embedding README draws under the strict CSP', async () => {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippets</title>
<script type="module" src="/dist/attention-figures.js"></script></head><body><main>${SNIPPETS.join('\n')}</main></body></html>`;
  const prepare = (p) => p.route('**/web/embed/__snippets.html', (route) => route.fulfill({
    contentType: 'text/html', body: page, headers: { 'content-security-policy': STRICT_CSP } }));
  const { page: tab, problems, context } = await openAll(server, '/web/embed/__snippets.html', { prepare });
  const figures = await tab.evaluate(() => [...document.querySelectorAll('main > *')].filter((e) => e.localName.startsWith('attention-'))
    .map((e) => ({ tag: e.localName, ready: e.hasAttribute('data-ready'), kept: [...e.attributes].filter((a) => !a.name.startsWith('data-'))
      .filter((a) => String(e[a.name]) !== a.value && a.name !== 'src').map((a) => `${a.name}=${a.value} reads as ${e[a.name]}`) })));
  assert.ok(figures.length >= 19, `${figures.length} snippets`);
  for (const f of figures) {
    assert.ok(f.ready, `${f.tag} did not draw`);
    assert.deepEqual(f.kept, [], `${f.tag}: attributes out of range or malformed`);
  }
  await tab.screenshot({ path: `${SCREENSHOTS}embed-snippets.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

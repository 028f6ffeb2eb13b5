// Attributes and links with values no figure expects: out of range, not
// whole, empty, not numbers, markup, badly percent-encoded, very long. Every
// figure must keep working with a valid state: numbers finite, within their
// declared range and whole where they must be; choices among their values;
// texts in their canonical form. No exception, no console error, no request
// off the page's origin, nothing printed as undefined or NaN, and the
// controls still show the state (a fresh figure made from it looks the same).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, frames, assertSameView, BAD_WORDING, ALL_FIGURES } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const HOSTILE = ['', '-1', '2.5', '3.7', '1e309', '-1e309', 'NaN', 'Infinity', '0x10', 'true', '1,2', '1;2;3', '0.1,0.2,0.3,0.4,0.5',
  '<img src=x onerror=alert(1)>', '%E0%A4%A', '\u202e1', '9'.repeat(400)];
// src would fetch files; the heatmap's own tests cover it
const fuzzed = (tag, name) => !(tag === 'attention-heatmap' && name === 'src');

// Runs in the page: for each figure, what is wrong with its state (empty when valid), and its text.
function audit(tags) {
  return tags.map((tag) => {
    const el = document.querySelector(tag);
    const wrong = [];
    if (!el.hasAttribute('data-ready') || el.hasAttribute('data-error')) wrong.push(`not working: ${el.shadowRoot.textContent.slice(0, 200)}`);
    for (const [name, p] of Object.entries(el.constructor.props)) {
      const v = el.state[name];
      const bad = p.type === 'number' ? !(Number.isFinite(v) && v >= p.min && v <= p.max && (!p.integer || Number.isInteger(v)) && (!p.snap || p.snap(v) === v))
        : p.type === 'enum' ? !p.values.includes(v)
          : p.type === 'boolean' ? typeof v !== 'boolean'
            : typeof v !== 'string' || (p.normalize && p.normalize(v) !== v);
      if (bad) wrong.push(`${name} = ${JSON.stringify(v)}`);
    }
    const copy = el.shadowRoot.firstElementChild?.cloneNode(true);
    copy?.querySelectorAll('code').forEach((c) => c.remove());
    return { tag, wrong, text: `${el.summary} ${copy?.textContent ?? ''}` };
  });
}

async function expectValid(page, tags, what) {
  for (const { tag, wrong, text } of await page.evaluate(audit, tags)) {
    assert.deepEqual(wrong, [], `${tag}, ${what}`);
    assert.doesNotMatch(text, BAD_WORDING, `${tag}, ${what}`);
  }
}

let props; // each figure's attribute names, read from the page
test('attributes: every hostile value on every attribute of every figure leaves a valid state', async () => {
  const { page, problems, foreign, context } = await openAll(server, '/web/embed/csp-test.html');
  const tags = ALL_FIGURES;
  props = await page.evaluate((all) => all.map((t) => Object.keys(customElements.get(t).props)), tags);
  for (const [k, value] of HOSTILE.entries()) {
    await page.evaluate(({ tags, value }) => {
      for (const tag of tags) {
        const el = document.querySelector(tag);
        for (const name of Object.keys(el.constructor.props)) if (!(tag === 'attention-heatmap' && name === 'src')) el.setAttribute(name, value);
      }
    }, { tags, value });
    await frames(page);
    await expectValid(page, tags, `every attribute = ${JSON.stringify(value.slice(0, 30))}`);
    if (k % 8 === 3) {
      // now and then: the controls show that state (not for the cost figure, whose measurements a copy would redo)
      for (const tag of tags.filter((t) => t !== 'attention-cost')) {
        const [live, fresh] = await page.locator(tag).evaluate(async (e) => [await window.__fig.snapshot(e), await window.__fig.twin(e)]);
        assertSameView(live, fresh, `${tag} after ${JSON.stringify(value)}`);
      }
    }
  }
  // properties go through the same parsing as attributes
  await page.evaluate(() => {
    const set = (tag, name, v) => { document.querySelector(tag)[name] = v; };
    set('attention-matrix', 'step', 3.7);
    set('attention-tempering', 'dk', -5);
    set('attention-cost', 'n', 3000);
    set('attention-causal-mask', 'step', 2.5);
  });
  await frames(page);
  await expectValid(page, tags, 'properties');
  assert.deepEqual(await page.evaluate(() => [document.querySelector('attention-matrix').step, document.querySelector('attention-tempering').dk,
    document.querySelector('attention-cost').n, document.querySelector('attention-causal-mask').step]), [4, 1, 4096, 3]);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('links: hostile values in the URL hash leave every figure valid, and nothing is fetched from elsewhere', async () => {
  const ids = ALL_FIGURES.map((t) => t.replace(/^attention-/, '')); // their ids on the test page, which sets none
  const values = ['3.7', '-1e309', '2.5', 'NaN', '<img src=x onerror=alert(1)>', '%E0%A4%A', ''];
  const entries = [
    // numbers not whole, out of range, not numbers, markup, bad percent-encoding, empty
    ...ids.flatMap((id, f) => props[f].filter((n) => fuzzed(ALL_FIGURES[f], n)).map((n, k) => {
      const v = values[(f + k) % values.length];
      return `${id}.${n}=${v.startsWith('%') ? v : encodeURIComponent(v)}`;
    })),
    // unknown names, a name alone, and a heatmap file from another site
    ...ids.map((id) => `${id}.constructor=1&${id}.__proto__=x&${id}.=&${id}`), 'heatmap.src=https%3A%2F%2Fexample.com%2Fw.json',
  ];
  const { page, problems, foreign, context } = await openAll(server, `/web/embed/csp-test.html#${entries.join('&')}`);
  await expectValid(page, ALL_FIGURES, 'from the link');
  const heatmap = await page.locator('attention-heatmap').evaluate((e) => e.shadowRoot.textContent);
  assert.match(heatmap, /Could not load https:\/\/example\.com\/w\.json: the viewer loads files from this page’s own site only/);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

// playground.test.js: web/playground.html in Chromium, under the strict CSP.
// Every figure of the registry can be picked, gets a control per attribute it
// declares, and changing one changes the figure; the HTML snippets of all of
// them, pasted into one fresh page, give figures in the same state (every
// attribute, the language, the theme); the address names the figure, and
// opens the playground on it. A pasted example reaches the figure
// and the snippet, bad JSON and unknown keys are said in place; the picture
// downloads as the figure's own SVG; the snapshot command is the bin's
// syntax, and runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { start, openAll } from './harness.js';
import { FIGURES } from '../../web/figures/registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

const open = () => server.open('/web/playground.html', { width: 1280, height: 1400 });
const picked = (page, name) => page.waitForFunction((n) => document.body.dataset.figure === n, name, { timeout: 30_000 });

/** What figures' states are (in the page): every declared attribute as each reads it, its lang and whether it is dark. */
const statesOf = (els) => els.map((el) => ({
  ...Object.fromEntries(Object.keys(el.constructor.props).map((k) => [k, el[k]])), lang: el.getAttribute('lang'), dark: el.hasAttribute('data-dark'),
}));
const stateOf = async (page) => (await page.$$eval('#stage > *', statesOf))[0];

/**
 * Change the first attribute that the playground's controls can change to a
 * cheap value other than its default (a number just above its minimum, the
 * last choice, a switch turned) -> its name, or null when the figure has none.
 */
async function changeOne(page, props) {
  for (const [name, p] of Object.entries(props)) {
    const id = `#prop-${name}`;
    if (p.type === 'number') {
      const v = p.integer ? p.min + 1 : +(p.min + (p.default - p.min) / 2).toPrecision(3);
      if (v === p.default) continue;
      await page.fill(id, String(v));
    } else if (p.type === 'enum') {
      await page.selectOption(id, p.values.at(-1) === p.default ? p.values[0] : p.values.at(-1));
    } else if (p.type === 'boolean') {
      await page.click(id);
    } else continue;
    return name;
  }
  return null;
}

test('every figure can be picked, its controls change it, and its HTML snippet in a fresh page gives the same state', async () => {
  const { page, problems } = await server.open('/web/playground.html#figure=cross', { width: 1280, height: 1400 });
  await picked(page, 'cross'); // the address picks the figure
  const snippets = [];
  const states = [];
  for (const [i, f] of FIGURES.entries()) {
    await page.selectOption('#figure', f.name);
    await picked(page, f.name);
    const props = await page.evaluate((tag) => Object.fromEntries(Object.entries(customElements.get(tag).props)
      .map(([k, p]) => [k, { type: p.type, min: p.min, max: p.max, integer: !!p.integer, default: p.default, values: p.values }])), f.tag);
    const controls = await page.$$eval('#props [data-prop]', (els) => els.map((e) => e.dataset.prop));
    assert.deepEqual(controls, Object.keys(props), `${f.name}: a control per declared attribute`);
    const before = await stateOf(page);
    const name = await changeOne(page, props);
    if (i % 3 === 1) await page.selectOption('#lang', 'zh-CN');
    if (i % 3 === 2) await page.selectOption('#theme', 'dark');
    // (a figure settles its state as it draws: cross's word past a shorter sentence's end is its last word)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = await stateOf(page);
    if (name) assert.notDeepEqual(after[name], before[name], `${f.name}: ${name} changed the figure`);
    assert.equal(await page.evaluate(() => location.hash), `#figure=${f.name}`, 'the address names the figure');
    snippets.push(await page.textContent('#snippet-html'));
    states.push(after);
  }
  assert.deepEqual(problems, []);
  await page.context().close();

  // the snippets as a blogger pastes them, all in one fresh page (the bundle at its place in this repository)
  const bodies = snippets.map((s) => s.replace(/^<script type="module" src="[^"]+"><\/script>\n/, '').replaceAll('"/assets/attention/snapshots/', '"/dist/snapshots/'));
  assert.ok(snippets.every((s) => /<figure>\n {4}<img src="\/assets\/attention\/snapshots\/[\w.-]+\.svg" alt="[^"]+" loading="lazy">\n {4}<figcaption>[^<]+<\/figcaption>/.test(s)),
    'each snippet holds the figure\'s picture until it draws');
  assert.ok(snippets.every((s, i) => s !== bodies[i]), 'each snippet starts with the module script');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pasted</title>
<script type="module" src="/dist/attention-figures.js"></script></head><body><main>${bodies.join('\n')}</main></body></html>`;
  const fresh = await openAll(server, '/web/pasted.html', { prepare: (p) => server.fake(p, '/web/pasted.html', html) });
  await fresh.page.waitForFunction((n) => [...document.querySelectorAll('main > *')].length === n
    && [...document.querySelectorAll('main > *')].every((e) => e.hasAttribute('data-ready') || e.hasAttribute('data-error')), FIGURES.length, { timeout: 60_000 });
  const pasted = await fresh.page.$$eval('main > *', statesOf);
  assert.deepEqual(pasted, states);
  assert.deepEqual(fresh.problems, []);
  await fresh.context.close();
});

test('a pasted example reaches the figure and its snippets; bad JSON and unknown keys are said in place', async () => {
  const { page, problems, context } = await open();
  await picked(page, 'soft-dictionary');
  const example = '{"keys": [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]], "values": [[0.9, 0.1, 0.1], [0.1, 0.7, 0.2], [0.1, 0.3, 0.9]], "labels": ["rose", "leaf", "lake"]}';
  await page.fill('#example', '{"keys": [');
  assert.match(await page.textContent('#example-note'), /^Not JSON/);
  await page.fill('#example', example);
  await page.waitForFunction(() => document.querySelector('#stage > *')?.shadowRoot.textContent.includes('rose'), null, { timeout: 10_000 });
  const compact = JSON.stringify(JSON.parse(example));
  assert.ok((await page.textContent('#snippet-html')).includes(`<script type="application/json" data-example>${compact}</script>`));
  assert.ok((await page.textContent('#snippet-hugo')).includes(`example=\`${compact}\``));
  assert.ok((await page.textContent('#snippet-jekyll')).includes(`example='${compact}'`));
  assert.match(await page.textContent('#snapshot-command'), /--example example\.json/);
  await page.fill('#strings', '{"no-such-key": "x"}');
  assert.match(await page.textContent('#strings-note'), /Not a key of this figure.*no-such-key/);
  await page.fill('#prop-query', 'north');
  assert.match(await page.textContent('#prop-query-note'), /cannot use "north"/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the picture downloads as the figure\'s own SVG, and the snapshot command runs as written', async () => {
  const { page, problems, context } = await open();
  await picked(page, 'soft-dictionary');
  await page.fill('#prop-temperature', '0.05');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-svg')]);
  assert.equal(download.suggestedFilename(), 'soft-dictionary.svg');
  const svg = readFileSync(await download.path(), 'utf8');
  assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok(svg.includes('plum') && svg.includes('0.05'), 'what the figure shows, as text');
  const line = await page.textContent('#snapshot-command');
  assert.equal(line, 'npx attention-wasm snapshot soft-dictionary --temperature 0.05 --format svg --out soft-dictionary.svg');
  const args = line.split(' ').slice(2).filter((w, i, a) => w !== '--out' && a[i - 1] !== '--out');
  assert.ok(existsSync(`${ROOT}web/figures/soft-dictionary/soft-dictionary.picture.js`));
  const out = execFileSync(process.execPath, [`${ROOT}bin/attention-wasm.js`, ...args], { encoding: 'utf8', timeout: 60_000 });
  assert.match(out, /^<svg/);
  assert.ok(out.includes('plum') && out.includes('0.05'), 'the same picture: its keys and temperature');
  assert.deepEqual(problems, []);
  await context.close();
});

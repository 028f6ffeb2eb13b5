// The article page in headless Chromium: every figure draws from the wasm
// kernels, reacts to its controls, makes no console errors and no request
// outside the page's origin. Screenshots go to tests/artifacts/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, frames, expectChange, screenshot, SCREENSHOTS, ALL_FIGURES, measured, clickCell } from './harness.js';


// a figure that measures in a worker (cost, efficient): its summary and width are read once its quick sweep ends
const measures = (el) => el.evaluate((e) => 'sweep' in e);

let server;
let article; // the article, loaded once for the tests that read it as it comes
before(async () => { server = await start(); });
after(async () => { await article?.context.close(); await server?.close(); });
const theArticle = async () => (article ??= await server.open('/web/index.html'));

const shadowText = (el) => el.evaluate((e) => e.shadowRoot.textContent);

test('every figure on the article page draws, with one shared wasm instance', async () => {
  const { page, problems, requests, foreign } = await theArticle();
  for (const tag of ALL_FIGURES) {
    const el = await ready(page, tag);
    assert.ok(await el.evaluate((e) => e.shadowRoot.querySelector('svg') !== null), `${tag} draws`);
    if (await measures(el)) await measured(page, tag);
    assert.ok((await summary(el)).length > 20, `${tag} has a text summary`);
    await screenshot(el, `${SCREENSHOTS}${tag}.png`);
  }
  // the toy's numbers, written out inside the "it" figure
  const it = page.locator('attention-multi-head-it');
  await it.locator('summary').click();
  assert.ok(await it.locator('figure.mat').count() >= 5, 'X and the four weight matrices are shown');
  await screenshot(it, `${SCREENSHOTS}attention-multi-head-it-numbers.png`);
  // the page's own formulas are typeset
  assert.ok(await page.locator('article .katex').count() > 10);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  // one engine for every figure: the attention part, downloaded once (and its scalar build, which cost's worker times)
  const wasm = requests.filter((u) => u.endsWith('.wasm'));
  assert.equal(new Set(wasm).size, wasm.length, `a .wasm downloaded twice: ${wasm}`);
  assert.ok(wasm.length <= 2 && wasm.every((u) => /attention-only/.test(u)), `${wasm}`);
});

test('controls change what each figure shows', async () => {
  const { page, problems } = await theArticle();
  // change -> the summary and the drawing both differ afterwards
  const check = (tag, act) => expectChange(page, tag, act, shadowText);
  await check('attention-notation', async (el) => { await el.locator('input[type=range]').focus(); await page.keyboard.press('Home'); });
  await check('attention-dot-product', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('End'); });
  await check('attention-qkv', async (el) => {
    await clickCell(el.locator('figure.mat', { hasText: 'WK' }), 1, 1);
    await el.locator('input[type=range]').focus();
    await page.keyboard.press('Home');
  });
  const sd = await check('attention-soft-dictionary', async (el) => {
    // drag the query onto the "lemon" key: the Map lookup then finds it too
    const box = await el.locator('svg.plane').boundingBox();
    const at = (x, y) => [box.x + (150 + x * 118) * box.width / 300, box.y + (150 - y * 118) * box.height / 300];
    await page.mouse.move(...at(0, -0.8));
    await page.mouse.down();
    await page.mouse.move(...at(0.3, 0.3), { steps: 5 });
    await page.mouse.move(...at(0.57, 0.62), { steps: 5 });
    await page.mouse.up();
  });
  assert.match(sd, /finds this exact key/);
  await check('attention-soft-dictionary', async (el) => { await el.locator('g.qh').focus(); await page.keyboard.press('ArrowDown'); });
  await check('attention-matrix', async (el) => { await el.getByRole('button', { name: 'Previous step' }).click(); });
  await check('attention-matrix', async (el) => { await el.locator('svg.img rect').nth(20).click(); });
  const it = page.locator('attention-multi-head-it');
  await check('attention-multi-head-it', async (el) => { await el.getByText('wide', { exact: true }).first().click(); });
  assert.match(await summary(it), /Read-out: it = road/);
  const one = await check('attention-multi-head-it', async (el) => { await el.getByText('one head', { exact: true }).click(); });
  assert.match(one, /^One head/);
  await check('attention-multi-head-it', async (el) => { await el.getByText('two heads', { exact: true }).click(); });
  assert.match(await check('attention-multi-head-it', async (el) => { await el.getByText('head 2 on').click(); }), /undecided/);
  assert.match(await check('attention-multi-head-matmul', async (el) => { await el.getByRole('radio', { name: '4', exact: true }).click(); }), /^4 heads/);
  assert.deepEqual(problems, []);
});

test('attributes set the initial state', async () => {
  const { page, problems, context } = await server.open('/web/embed/csp-test.html');
  const it = await ready(page, 'attention-multi-head-it'); // adjective="wide"
  assert.match(await summary(it), /adjective wide/);
  const sd = await ready(page, 'attention-soft-dictionary'); // temperature="0.5"
  assert.match(await summary(sd), /temperature 0\.500/);
  await sd.evaluate((e) => { e.temperature = 0.01; });
  await frames(page);
  assert.match(await summary(sd), /temperature 0\.010/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('without JavaScript each figure shows its picture and says what it shows, and the formulas are MathML', async () => {
  const { page, context } = await server.open('/web/index.html', { javaScriptEnabled: false });
  for (const tag of ALL_FIGURES) {
    const el = page.locator(tag);
    await el.scrollIntoViewIfNeeded(); // (the article renders what is near the screen only: there, after a frame)
    assert.ok(await el.isVisible(), `${tag} is visible`);
    const img = el.locator('figure.picture img');
    assert.equal(await img.getAttribute('src'), `../dist/snapshots/${tag.slice('attention-'.length)}.svg`, tag);
    assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 300), `${tag}'s picture is not shown`);
    let text = await el.innerText();
    for (let tries = 0; !text && tries < 30; tries++) text = await page.waitForTimeout(100).then(() => el.innerText());
    assert.match(text, /^Figure: \S/, `${tag}: ${text}`);
    assert.doesNotMatch(text, /JavaScript/, tag);
  }
  await page.screenshot({ path: `${SCREENSHOTS}article-no-javascript.png`, fullPage: true });
  assert.ok(await page.locator('article math').count() >= 77, 'the article\'s formulas are in the page as MathML');
  await context.close();
});

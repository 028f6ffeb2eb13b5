// The measuring figures, attention-cost and attention-efficient
// (measuring.js), in headless Chromium:
//   - on the article page their first sweeps take turns: never two
//     measuring workers at once, so neither times the other's load;
//   - removed while idle, waiting or measuring, a figure leaves no worker
//     running; added back mid-sweep, it measures again and says so, and
//     ends with results (never "Measuring..." for ever);
//   - a double click on Measure is one press: one sweep, and the earlier
//     results stay on screen until it has its own;
//   - cost: a change of d shows that d's timings (measured first, once),
//     and a copied link holds d, says that timings are measured afresh,
//     and opened, shows that d's.
// Every page counts the measuring workers it starts and ends (a wrapper
// around Worker installed before the page's scripts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, measured, frames, addFigure, spyOnWorkers, workersOf } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const prepare = (page) => page.addInitScript(spyOnWorkers);
const workers = async (page) => {
  const { started, live, most } = await workersOf(page, /(cost|efficient)\.worker\.js$/);
  return { live: live.length, most, starts: started.length };
};
const status = (page, sel = '#mine') => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.status').textContent, sel);
// the sizes measured (a sweep's table lists every size it will measure, empty until measured)
const rows = (page, sel = '#mine') => page.evaluate((s) => [...document.querySelector(s).shadowRoot.querySelectorAll('tbody tr')].filter((tr) => tr.cells[1].textContent !== '').length, sel);
const phase = (page, sel = '#mine') => page.evaluate((s) => document.querySelector(s).sweep?.phase, sel);

test('on the article page the two measuring figures take turns: one measuring worker at a time', async () => {
  const { page, problems, context } = await openAll(server, '/web/index.html', { prepare });
  await measured(page, 'attention-cost');
  await measured(page, 'attention-efficient');
  const w = await workers(page);
  assert.equal(w.starts, 2, 'each figure measured once');
  assert.equal(w.most, 1, 'never two measuring workers at once');
  assert.equal(w.live, 0, 'none left running');
  for (const tag of ['attention-cost', 'attention-efficient']) assert.ok(await rows(page, tag) >= 3, `${tag} has its results`);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [tag, attrs] of [['attention-efficient', { n: '2048', budget: '5' }], ['attention-cost', { n: '1024', budget: '5' }]]) {
  test(`${tag}: removed idle, waiting or measuring it leaves no worker; added back mid-sweep it measures again and finishes`, async () => {
    const { page, problems, context } = await server.open('/web/embed/example.html', { prepare });
    // measuring: taken off the page, its worker ends at once
    await addFigure(page, tag, { attrs });
    await page.waitForFunction(() => document.querySelector('#mine').sweep?.worker);
    await page.evaluate(() => { window.__kept = document.querySelector('#mine'); window.__kept.remove(); });
    assert.equal((await workers(page)).live, 0, 'removed mid-sweep: no worker');
    await page.waitForTimeout(300);
    assert.equal((await workers(page)).live, 0, 'nothing starts it again while it is away');
    // back on the page: it says it measures again, then finishes
    await page.evaluate(() => document.querySelector('main').prepend(window.__kept));
    await page.waitForFunction(() => /again/.test(document.querySelector('#mine').shadowRoot.querySelector('.status').textContent)
      || document.querySelector('#mine').sweep?.results.length > 0);
    await measured(page, '#mine', /quick look|Done|failed|Stopped/);
    assert.match(await status(page), /^(Done in|A quick look)/);
    assert.ok(await rows(page) >= 3);
    // idle: removing it starts and stops nothing
    const before = await workers(page);
    await page.evaluate(() => document.querySelector('#mine').remove());
    assert.deepEqual(await workers(page), before);
    // waiting for its turn behind another figure's sweep, then removed: it never starts
    await page.evaluate(([t, a]) => {
      const other = document.createElement(t === 'attention-cost' ? 'attention-efficient' : 'attention-cost');
      other.id = 'other';
      other.setAttribute('budget', '5');
      document.querySelector('main').prepend(other);
    }, [tag, attrs]);
    await page.waitForFunction(() => document.querySelector('#other').sweep?.worker);
    await page.evaluate(() => document.querySelector('main').prepend(window.__kept));
    await page.evaluate(() => window.__kept.shadowRoot.querySelector('button.measure').click());
    await page.waitForFunction(() => document.querySelector('#mine').sweep?.phase === 'waiting');
    await frames(page);
    assert.match(await status(page), /^Waiting for the other measurement on this page to finish/);
    await page.evaluate(() => document.querySelector('#mine').remove());
    await measured(page, '#other');
    assert.equal(await page.evaluate(() => window.__kept.sweep.phase), 'interrupted', 'the waiting sweep was dropped, not run');
    const w = await workers(page);
    assert.equal(w.live, 0);
    assert.equal(w.most, 1);
    await page.evaluate(() => document.querySelector('#other').remove());
    assert.equal((await workers(page)).live, 0);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('efficient: a double click on Measure is one press, and the earlier results stay until the new sweep has its own', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html', { prepare });
  await addFigure(page, 'attention-efficient', { attrs: { n: '2048', budget: '5' } });
  await measured(page, '#mine');
  const earlier = await rows(page);
  assert.ok(earlier >= 3);
  const starts = (await workers(page)).starts;
  await page.locator('#mine').getByRole('button', { name: 'Measure up to N = 2048' }).dblclick();
  await frames(page);
  assert.equal(await page.locator('#mine').locator('.controls button').nth(0).textContent(), 'Stop', 'measuring, not stopped again');
  assert.equal(await phase(page), 'running');
  await measured(page, '#mine', /Done|failed|Stopped/);
  assert.match(await status(page), /^Done in/);
  assert.equal((await workers(page)).starts, starts + 1, 'one sweep');
  assert.ok(await rows(page) >= 3);
  // a Stop before the first result keeps what was there (two presses in one task: no result can come between)
  await page.evaluate(() => { const b = document.querySelector('#mine').shadowRoot.querySelector('button.measure'); b.click(); b.click(); });
  await frames(page);
  assert.match(await status(page), /^Stopped\.$/);
  assert.ok(await rows(page) >= 3, 'the earlier results are still shown');
  assert.equal((await workers(page)).live, 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('cost: a change of d shows that d\u2019s timings, and the link holds d, says timings are measured afresh, and restores it', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html', { prepare });
  await addFigure(page, 'attention-cost', { attrs: { n: '1024', budget: '5' } });
  await measured(page, '#mine');
  assert.match(await status(page), /\(d = 32\)\.$/);
  await page.locator('#mine').getByText('64', { exact: true }).click();
  await page.waitForFunction(() => /d = 64/.test(document.querySelector('#mine').shadowRoot.querySelector('.status').textContent));
  await measured(page, '#mine');
  assert.match(await status(page), /^Done in .* \(d = 64\)\.$/);
  assert.ok(await page.evaluate(() => document.querySelector('#mine').results.every((r) => r.d === 64)), 'every timing shown is for d = 64');
  assert.match(await page.evaluate(() => document.querySelector('#mine').summary), /^Largest measured at d = 64:/);
  // back to 32: its timings, without measuring again
  const starts = (await workers(page)).starts;
  await page.locator('#mine').getByText('32', { exact: true }).click();
  await frames(page);
  assert.match(await status(page), /\(d = 32\)\.$/);
  assert.equal((await workers(page)).starts, starts);
  await page.locator('#mine').getByText('64', { exact: true }).click();
  await frames(page);
  await page.locator('#mine').getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => /measured afresh/.test(document.querySelector('#mine').shadowRoot.querySelector('.tool-status').textContent));
  const url = new URL(page.url());
  assert.match(url.hash, /mine\.d=64/);
  await context.close();

  const again = await server.open(url.pathname + url.hash, { prepare });
  await addFigure(again.page, 'attention-cost');
  assert.equal(await again.page.evaluate(() => document.querySelector('#mine').d), '64');
  await measured(again.page, '#mine');
  assert.match(await status(again.page), /d = 64/);
  assert.ok(await again.page.evaluate(() => document.querySelector('#mine').results.every((r) => r.d === 64)));
  assert.deepEqual([...problems, ...again.problems], []);
  await again.context.close();
});

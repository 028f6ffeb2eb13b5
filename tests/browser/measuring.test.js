// The measuring figures, attention-cost and attention-efficient
// (measuring.js), in headless Chromium:
//   - on the article page their first sweeps take turns: never two
//     measuring workers at once, so neither times the other's load;
//   - removed while idle, waiting or measuring, a figure leaves no worker
//     running; added back mid-sweep, it measures again and says so, and
//     ends with results (never "Measuring..." for ever).
// (What is each one's own, a double click on Measure and cost's d among
// them: tests/figures/cost/cost.page.test.js, efficient/efficient.page.test.js.)
// Every page counts the measuring workers it starts and ends (a wrapper
// around Worker installed before the page's scripts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, measured, frames, addFigure, spyOnWorkers, measuringWorkers as workers, sweepRows as rows } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const prepare = (page) => page.addInitScript(spyOnWorkers);
const status = (page) => page.evaluate(() => document.querySelector('#mine').shadowRoot.querySelector('.status').textContent);

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
    assert.ok(await rows(page, '#mine') >= 3);
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

// No figure leaves a worker running once it is off the page. Every figure
// that runs one (the registry's `worker` flag) is added to a page and
// removed five times over: a training figure while idle and while training
// (its "Start training" pressed), a measuring figure while it measures (it
// starts when it appears). Worker is wrapped in an init script that counts
// the workers made and not yet terminated: after each removal, and once a
// frame and a pause have passed (when a last redraw would have run), none.
// A training figure put back on the page after it trained says that its
// training starts again from step 0. While it trains, it draws its progress
// at most every 100 ms (kit/workers/training.js), and a pause at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, addFigure, frames, spyOnWorkers, workersOf } from './harness.js';
import { FIGURES } from '../../web/figures/registry.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

const liveWorkers = async (page) => (await workersOf(page)).live.length;

const CYCLES = 5;

for (const { tag } of FIGURES.filter((f) => f.worker)) {
  test(`${tag}: added and removed ${CYCLES} times (idle, training or measuring), no worker is left running`, async () => {
    const { page, problems, context } = await server.open('/web/embed/example.html', { prepare: (p) => p.addInitScript(spyOnWorkers) });
    const live = () => liveWorkers(page);
    const removeAndCount = async (what) => {
      await page.evaluate(() => { window.__removed = document.querySelector('#mine'); window.__removed.remove(); });
      await frames(page);
      await page.waitForTimeout(300);
      assert.equal(await live(), 0, `${tag}, removed ${what}: workers still running`);
    };
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await addFigure(page, tag, { attrs: { steps: '5000' } }); // (a budget a training figure cannot finish meanwhile)
      const el = page.locator('#mine');
      const training = await el.evaluate((e) => typeof e.toggle === 'function');
      if (training) {
        await el.evaluate((e) => e.settled());
        assert.equal(await live(), 0, `${tag}: no worker before Start`);
        if (cycle % 2) {
          await removeAndCount('while idle');
          continue;
        }
        await el.getByRole('button', { name: 'Start training' }).click();
        await page.waitForFunction(() => document.querySelector('#mine').msg.step > 0);
        await removeAndCount('while training');
        // put back, it starts afresh (the next test reads what it says): one worker, none once removed again
        await page.evaluate(() => document.querySelector('main').prepend(window.__removed));
        await el.evaluate((e) => e.settled());
        assert.equal(await live(), 0, `${tag}: no worker once put back, until Start`);
        await el.getByRole('button', { name: 'Start training' }).click();
        await page.waitForFunction(() => document.querySelector('#mine').msg.step > 0);
        assert.equal(await live(), 1, `${tag}: one worker once started again`);
        await removeAndCount('once put back');
      } else {
        await page.waitForFunction(() => !!document.querySelector('#mine').worker);
        await removeAndCount('while measuring');
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('a training figure put back on the page after it trained says its training starts again', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html', { prepare: (p) => p.addInitScript(spyOnWorkers) });
  for (const tag of FIGURES.filter((f) => f.worker).map((f) => f.tag)) {
    await addFigure(page, tag, { attrs: { steps: '5000' } });
    const training = await page.locator('#mine').evaluate((e) => typeof e.toggle === 'function');
    if (!training) {
      await page.evaluate(() => document.querySelector('#mine').remove());
      continue;
    }
    const el = page.locator('#mine');
    await el.evaluate((e) => e.settled());
    await el.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('#mine').msg.step > 0);
    await page.evaluate(() => { window.__removed = document.querySelector('#mine'); window.__removed.remove(); });
    await frames(page);
    assert.equal(await liveWorkers(page), 0, tag);
    await page.evaluate(() => document.querySelector('main').prepend(window.__removed));
    await el.evaluate((e) => e.settled());
    const [status, summary, step] = await el.evaluate((e) => [e.shadowRoot.querySelector('.status').textContent, e.summary, e.msg.step]);
    assert.equal(step, 0, tag);
    assert.match(status, /ready; training starts again from step 0, since the figure was taken off the page/, tag);
    assert.match(summary, /from the start again: the figure was taken off the page, which ended its training/, tag);
    assert.equal(await liveWorkers(page), 0, `${tag}: no worker until Start`);
    // pressing start clears the note
    await el.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('#mine').msg.step > 0);
    assert.doesNotMatch(await el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent), /starts again/, tag);
    await page.evaluate(() => document.querySelector('#mine').remove());
  }
  await frames(page);
  assert.equal(await liveWorkers(page), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reset while training starts the new run in the same worker, and nothing the old run still says is drawn', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html', { prepare: (p) => p.addInitScript(spyOnWorkers) });
  for (const tag of FIGURES.filter((f) => f.worker).map((f) => f.tag)) {
    await addFigure(page, tag, { attrs: { steps: '5000' } });
    const el = page.locator('#mine');
    if (!(await el.evaluate((e) => typeof e.toggle === 'function'))) continue;
    await el.evaluate((e) => e.settled());
    await el.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('#mine').msg.step > 0);
    await el.getByRole('button', { name: 'Reset' }).click();
    await el.evaluate((e) => e.settled());
    await page.waitForTimeout(300); // (a slice of the old run would have ended and said so)
    assert.deepEqual(await el.evaluate((e) => [e.msg.step, e.msg.running, e.curve.length]), [0, false, 1], tag);
    assert.equal(await liveWorkers(page), 1, `${tag}: the same worker`);
  }
  await page.evaluate(() => document.querySelector('#mine').remove());
  await frames(page);
  assert.equal(await liveWorkers(page), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('while a figure trains, it draws its progress at most every 100 ms, not at each of the worker\'s reports; a pause is drawn at once', async () => {
  const { page, problems, context } = await server.open('/web/embed/example.html');
  for (const tag of FIGURES.filter((f) => f.worker === 'trains').map((f) => f.tag)) {
    await addFigure(page, tag, { attrs: { steps: '5000' } });
    const el = page.locator('#mine');
    await el.evaluate((e) => e.settled());
    // the worker's progress reports and the figure's drawings (performance.now()) while it runs
    await el.evaluate((e) => {
      window.__seen = { reports: 0, draws: [] };
      const [receive, render] = [e.receive.bind(e), e.render.bind(e)];
      e.receive = (msg) => { if (msg.running) window.__seen.reports++; receive(msg); };
      e.render = () => { if (e.msg.running) window.__seen.draws.push(performance.now()); render(); };
    });
    await el.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => window.__seen.reports >= 40, null, { timeout: 60000 }); // (a second or more of training)
    await el.getByRole('button', { name: 'Pause' }).click();
    // the pause: drawn within two frames of the worker's word
    await page.waitForFunction(() => !document.querySelector('#mine').msg.running);
    await frames(page);
    assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent), /paused/, tag);
    const { reports, draws } = await page.evaluate(() => window.__seen);
    // (past the first half second: the Start itself, the first report and the plot's width are drawn as they come)
    const later = draws.filter((t) => t - draws[0] > 500);
    const gaps = later.slice(1).map((t, i) => t - later[i]);
    // (fewer drawings than reports, however long a step takes on this machine; the gaps below are the pace)
    assert.ok(reports > draws.length, `${tag}: ${reports} reports, ${draws.length} drawings`);
    assert.ok(gaps.every((g) => g >= 90), `${tag}: drawings ${gaps.map(Math.round).join(', ')} ms apart`);
    await page.evaluate(() => document.querySelector('#mine').remove());
  }
  assert.deepEqual(problems, []);
  await context.close();
});

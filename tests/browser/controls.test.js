// Every control of every figure, driven from the keyboard as a reader
// without a mouse would: each slider to its declared ends (Home, End) and
// back a step, each radio group to its next option, each switch and button,
// each pickable matrix (arrow keys, Enter), each group with one tab stop
// (arrow keys, End, Home); the training figures with their smallest
// budgets. After every key press:
//   - keyboard focus is still inside the figure (never dropped to the page);
//   - the figure agrees with a fresh copy made from its state, written as the
//     attributes a copied link carries: every control shows the state the
//     figure draws, and a link can restore the view (of a figure whose run
//     a link cannot hold: its controls show the state);
//   - nothing prints a leaked value, a broken plural or a winner on a tie.
// Then "Copy link" on every figure, and the link opened in a fresh page
// shows every figure exactly as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, measured, frames, shortBudgets, assertSameView, BAD_WORDING, ALL_FIGURES } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

// buttons whose action a link cannot and need not hold, or that start long work
const SKIP = /^(Copy link|SVG|PNG|Show|Back to the demo|Reset weights|Measure up to|Stop)/;

// Runs in the page: the figure's keyboard-reachable controls, as [index, kind, label].
function reachable(el, skip) {
  const root = el.shadowRoot.firstElementChild;
  const seen = new Set();
  return [...root.querySelectorAll('input, button, summary, [tabindex="0"]')].flatMap((c, i) => {
    // (a control out of the tab order is reached with the arrow keys from its group's tab stop)
    if (!c.checkVisibility() || c.disabled || c.tabIndex < 0 || c.closest('.tools, [hidden]') || c.type === 'file') return [];
    if (c.localName === 'button' && new RegExp(skip).test(c.textContent.trim() || c.getAttribute('aria-label'))) return [];
    const kind = c.localName === 'input' ? c.type : c.localName === 'svg' ? (c.classList.contains('pick') ? 'pick' : 'matrix') : c.localName === 'canvas' ? 'matrix'
      : c.getAttribute('role') === 'slider' ? 'handle' : c.getAttribute('role') === 'radio' ? 'roving' : c.localName === 'button' || c.getAttribute('role') === 'button' ? 'button' : c.localName;
    if (kind === 'radio') {
      if (seen.has(c.name)) return [];
      seen.add(c.name);
    }
    return [[i, kind, c.getAttribute('aria-label') ?? (c.labels?.[0] ?? c).textContent.trim().slice(0, 30)]];
  });
}

// Runs in the page: focus control `i` (a radio group by its checked option).
function focusControl(el, i) {
  const c = [...el.shadowRoot.firstElementChild.querySelectorAll('input, button, summary, [tabindex="0"]')][i];
  const target = c.type === 'radio' ? c.closest('fieldset').querySelector('input:checked') ?? c : c;
  target.focus();
  return { min: c.dataset?.min, max: c.dataset?.max, prop: c.dataset?.prop };
}

// the keys pressed on each kind of control; a group of keys is pressed together before the checks
const KEYS = {
  range: ['Home', 'End', 'ArrowLeft'], radio: ['ArrowRight'], checkbox: ['Space'], button: ['Enter'], summary: ['Enter'],
  pick: ['ArrowRight', 'ArrowDown', 'Enter'], handle: ['ArrowUp', 'ArrowLeft'], roving: ['ArrowRight', 'End', 'Home'],
  play: [['Enter', 'Enter']], // play (from the last step it starts over), then pause: a playing animation is no state
};
// the comparison with a fresh figure is the slow check: the first few controls of each kind in a figure get it
const TWINS_PER_KIND = 2;

async function check(page, el, tag, what, { twin = true } = {}) {
  const focus = await el.evaluate((e) => {
    const a = e.shadowRoot.activeElement;
    return a ? a.isConnected && a.checkVisibility() : false;
  });
  assert.ok(focus, `${tag}, ${what}: keyboard focus left the figure`);
  const shownHidden = await el.evaluate((e) => [...e.shadowRoot.querySelectorAll('[hidden]')].filter((h) => h.checkVisibility()).length);
  assert.equal(shownHidden, 0, `${tag}, ${what}: an element marked hidden is on screen`);
  const text = await el.evaluate((e) => {
    const copy = e.shadowRoot.firstElementChild.cloneNode(true);
    copy.querySelectorAll('code').forEach((c) => c.remove()); // quoted JavaScript, such as map.get(...) → undefined
    return `${e.summary} ${copy.textContent}`;
  });
  assert.doesNotMatch(text, BAD_WORDING, `${tag}, ${what}`);
  if (!twin) return;
  if (tag === 'attention-cost') {
    // measurements cannot be restored: its controls must show its state
    const shown = await el.evaluate((e) => [e.shadowRoot.querySelector('input[type=range]').dataset.value,
      e.shadowRoot.querySelector('input[type=radio]:checked').value]);
    assert.deepEqual(shown, [String(await el.evaluate((e) => e.n)), await el.evaluate((e) => e.d)], `${tag}, ${what}`);
    return;
  }
  await page.mouse.move(0, 0);
  const [live, fresh] = await el.evaluate(async (e) => [await window.__fig.snapshot(e), await window.__fig.twin(e)]);
  assertSameView(live, fresh, `${tag}, ${what}: the figure differs from one made from its state`);
}

test('every control from the keyboard: focus stays, controls show the state, slider ends reached; the link restores every figure', async () => {
  const { page, problems, context } = await openAll(server, '/web/index.html', { height: 1000 });
  await measured(page);
  await shortBudgets(page);
  const before = {};
  for (const tag of ALL_FIGURES) {
    const el = page.locator(tag);
    const twins = {};
    // controls can come and go as the figure changes: list them afresh each time
    for (let k = 0; ; k++) {
      const controls = await el.evaluate(reachable, SKIP.source);
      if (k >= controls.length) break;
      const [i, found, label] = controls[k];
      const kind = label === 'Play all steps' ? 'play' : found;
      if (kind === 'matrix') continue; // arrow keys only move its hover caption (or a map's readout)
      const { min, max, prop } = await el.evaluate(focusControl, i);
      twins[kind] = (twins[kind] ?? 0) + 1;
      for (const key of KEYS[kind] ?? ['Enter']) {
        for (const press of [key].flat()) await page.keyboard.press(press);
        await frames(page);
        const what = `${kind} "${label}" ${key}`;
        if (kind === 'range' && key === 'ArrowLeft') {
          const value = await el.evaluate((e) => e.shadowRoot.activeElement.dataset.value);
          assert.notEqual(value, max, `${tag}, ${what}: one key press does not move the slider off its end`);
        }
        if (kind === 'range' && (key === 'Home' || key === 'End')) {
          const end = key === 'Home' ? min : max;
          assert.ok(end !== undefined, `${tag}, ${what}: the slider does not declare its ends`);
          const state = await el.evaluate((e, p) => [e.shadowRoot.activeElement.dataset.value, p ? e.state[p] : null,
            p ? e.constructor.props[p]?.[e.shadowRoot.activeElement.dataset.value === e.shadowRoot.activeElement.dataset.min ? 'min' : 'max'] : null], prop);
          assert.equal(state[0], end, `${tag}, ${what}: the slider stops at ${state[0]}, not at its end ${end}`);
          if (prop && state[2] !== undefined) assert.equal(state[1], state[2], `${tag}, ${what}: ${prop} is ${state[1]}, the declared end is ${state[2]}`);
        }
        await check(page, el, tag, what, { twin: twins[kind] <= TWINS_PER_KIND && !(kind === 'range' && key !== 'End') });
      }
    }
    await page.mouse.move(0, 0);
    before[tag] = await el.evaluate(async (e) => {
      e.shadowRoot.activeElement?.blur();
      return { ...(await window.__fig.snapshot(e, { markup: e.localName !== 'attention-cost' })), awake: !!e.wake && !!e.worker };
    });
    assert.equal(before[tag].partial, false, `${tag}: the view before "Copy link" is one a link can restore`);
    await el.getByRole('button', { name: 'Copy link' }).click();
  }
  const url = new URL(page.url());
  assert.deepEqual(problems, []);
  await context.close();

  // the copied link, opened in a fresh page, shows every figure as it was
  const again = await openAll(server, url.pathname + url.hash, { height: 1000 });
  for (const tag of ALL_FIGURES) {
    const el = again.page.locator(tag);
    // a training figure's model loads when the reader asks (Start, Write): ask, where it had been asked before
    const snap = await el.evaluate((e, awake) => { if (awake) e.wake(); return window.__fig.snapshot(e, { markup: e.localName !== 'attention-cost' }); }, before[tag].awake);
    if (await el.evaluate((e) => 'sweep' in e)) { // a figure that measures (measuring.js): its settings come back, its timings are measured afresh
      const inputs = (c) => c.filter(([type]) => type !== 'button'); // the button says Measure or Stop as the fresh sweep runs
      assert.deepEqual(inputs(snap.controls), inputs(before[tag].controls), tag);
      assert.deepEqual(snap.canvases, before[tag].canvases, `${tag}: the link does not restore what it draws`);
      continue;
    }
    assertSameView(snap, before[tag], `${tag}: the link does not restore the view`);
  }
  assert.deepEqual(again.problems, []);
  await again.context.close();
});

// Installed before the page's scripts: records each rehearsal a figure
// class declares (FigureElement.rehearsal), with the state it left.
function recordRehearsals() {
  window.__rehearsed = {};
  const define = customElements.define.bind(customElements);
  customElements.define = (tag, cls, options) => {
    const own = Object.hasOwn(cls.prototype, 'rehearsal') && cls.prototype.rehearsal;
    if (own) {
      window.__rehearsed[tag] = null; // declared, not yet run
      cls.prototype.rehearsal = function rehearsal() {
        const patch = own.call(this);
        window.__rehearsed[tag] = { patch, state: { ...this.state } };
        return patch;
      };
    }
    return define(tag, cls, options);
  };
}

test('a figure that rehearses its first change, unseen once the page is idle, is left as one made afresh from its state', async () => {
  const { page, problems, context } = await openAll(server, '/web/index.html', { prepare: (p) => p.addInitScript(recordRehearsals) });
  await page.waitForFunction(() => Object.values(window.__rehearsed).every(Boolean), null, { timeout: 30000 });
  const rehearsed = await page.evaluate(() => window.__rehearsed);
  assert.ok(Object.keys(rehearsed).length >= 4, 'the figures that rehearse declare it');
  for (const [tag, { patch, state }] of Object.entries(rehearsed)) {
    const el = page.locator(tag);
    assert.ok(Object.keys(patch).some((k) => patch[k] !== state[k]), `${tag}: its rehearsal draws another state`);
    assert.deepEqual(await el.evaluate((e) => ({ ...e.state })), state, `${tag}: its state is as before the rehearsal`);
    const [live, fresh] = await el.evaluate(async (e) => [await window.__fig.snapshot(e), await window.__fig.twin(e)]);
    assertSameView(live, fresh, `${tag}: after its rehearsal the figure differs from one made from its state`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// changes.mjs: the page side of timing a figure's controls, shared by
// bench/figures.mjs (Chromium, desktop or a phone's profile) and
// bench/engines.mjs (Chromium, Firefox and WebKit): which kinds of control a
// figure has, and the time a change of one takes to reach the screen.

/** The seed of a warm-up's changes (measure's and a drag's are another). */
export const WARM_SEED = 4242;

/** The kinds of control, in the order the tables list them. */
export const KINDS = ['slider', 'choice', 'switch', 'stepper', 'pick', 'drag'];

/** measure's kind for a change that changes nothing: the time the measure itself and an empty frame take. */
export const NOTHING = 'nothing';

/**
 * Page side: the kinds of control `tag`'s figure has, {kind: its name}, and
 * for a drag the handle's box in the viewport ({drag: {x, y, width, height}}).
 * A control is the figure's own (not its tools), enabled and shown; a drag
 * handle is an element that takes every touch itself (touch-action: none).
 */
export function controlsOf(tag) {
  const root = document.querySelector(tag).shadowRoot;
  const mine = (c) => !c.closest('.tools') && !c.disabled && c.checkVisibility();
  const found = {};
  const range = [...root.querySelectorAll('input[type=range]')].find(mine);
  if (range) found.slider = `slider ${range.closest('.slider')?.querySelector('label')?.textContent ?? ''}`.trim();
  const group = [...root.querySelectorAll('fieldset.choice')].find((f) => [...f.querySelectorAll('input[type=radio]')].filter(mine).length > 1);
  if (group) found.choice = `choice ${group.querySelector('legend')?.textContent ?? ''}`.trim();
  if ([...root.querySelectorAll('input[type=checkbox]')].some(mine)) found.switch = 'switch';
  const next = root.querySelector('.stepper button[data-step="next"]');
  if (next) found.stepper = `stepper ${next.getAttribute('aria-label') ?? ''}`.trim();
  const hit = [...root.querySelectorAll('svg.pick rect.hit')].find(mine);
  if (hit) found.pick = `pick ${hit.closest('.mat')?.querySelector('.cap .name')?.textContent ?? 'a cell'}`;
  const handle = [...root.querySelectorAll('*')].find((e) => mine(e) && getComputedStyle(e).touchAction === 'none');  // (it drags over its SVG)
  if (handle) found.drag = `drag ${handle.getAttribute('aria-label') ?? handle.getAttribute('class') ?? handle.localName}`;
  return found;
}

/**
 * Page side: make `count` changes of `kind` to the figure's first control of
 * that kind; -> ms per change: its script, then the next frame from its
 * first callback until it is painted (style, layout and paint included).
 * `seed` picks the sliders' values and the cells picked: a warm-up takes
 * another (WARM_SEED) than the run it warms, whose changes are then all to
 * pictures the figure has not just drawn.
 */
export async function measure([tag, kind, count, seed = 12345]) {
  const el = document.querySelector(tag);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  await frame(); await frame();
  const root = el.shadowRoot;
  const mine = (c) => !c.closest('.tools') && !c.disabled && c.checkVisibility();
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let change;
  if (kind === 'nothing') { // NOTHING (the function runs in the page, without this module)
    change = () => {}; // (what the measure itself and a frame with nothing new cost: the floor of every other row)
  } else if (kind === 'slider') {
    const range = [...root.querySelectorAll('input[type=range]')].find(mine);
    change = () => {
      const [lo, hi] = [Number(range.min), Number(range.max)];
      range.value = String(lo + random() * (hi - lo));
      range.dispatchEvent(new Event('input', { bubbles: true }));
    };
  } else if (kind === 'choice') {
    const group = [...root.querySelectorAll('fieldset.choice')].find((f) => [...f.querySelectorAll('input[type=radio]')].filter(mine).length > 1);
    const radios = [...group.querySelectorAll('input[type=radio]')].filter(mine);
    let k = radios.findIndex((r) => r.checked);
    change = () => radios[(k = (k + 1) % radios.length)].click();
  } else if (kind === 'switch') {
    const box = [...root.querySelectorAll('input[type=checkbox]')].find(mine);
    change = () => box.click();
  } else if (kind === 'stepper') {
    const [prev, next] = ['previous', 'next'].map((step) => root.querySelector(`.stepper button[data-step="${step}"]`));
    let forward = true;
    change = () => {
      if (next.disabled) forward = false;
      if (prev.disabled) forward = true;
      (forward ? next : prev).click();
    };
  } else if (kind === 'pick') {
    const hit = [...root.querySelectorAll('svg.pick rect.hit')].find(mine);
    const [rows, cols] = [Number(hit.dataset.rows), Number(hit.dataset.cols)];
    change = () => {
      const r = hit.getBoundingClientRect();
      const [i, j] = [Math.floor(random() * rows), Math.floor(random() * cols)];
      hit.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, clientX: r.left + ((j + 0.5) / cols) * r.width, clientY: r.top + ((i + 0.5) / rows) * r.height }));
    };
  } else {
    throw new RangeError(`measure: no such kind ${kind}`);
  }
  const times = [];
  for (let i = 0; i < count; i++) {
    let frameStart = 0;
    requestAnimationFrame(() => { frameStart = performance.now(); }); // runs before the figure's own frame callback
    console.timeStamp('change'); // (bench/lib/busy.mjs reads a trace between the two marks)
    const t0 = performance.now();
    change();
    const script = performance.now() - t0;
    // a message posted from the next frame's callbacks arrives once that
    // frame is rendered: its style, layout and paint are done
    const end = await new Promise((resolve) => requestAnimationFrame(() => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => { console.timeStamp('painted'); resolve(performance.now()); };
      port2.postMessage(0);
    }));
    times.push(script + (end - frameStart));
    await frame();
    await new Promise((r) => setTimeout(r, 20));
  }
  return times;
}

/**
 * Page side: wait `ms`, then until the main thread has an idle period of
 * (nearly) the full 50 ms: a figure's preparation in the background
 * (tempering's products at every d_k) is done by then.
 */
export const SETTLE_MS = 2000;
export const settled = (ms) => new Promise((resolve) => setTimeout(() => {
  const check = (deadline) => (deadline.timeRemaining() >= 45 ? resolve() : requestIdleCallback(check));
  requestIdleCallback(check, { timeout: 5000 });
}, ms));

/** The q-quantile of xs (the sample at or above it). */
export const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

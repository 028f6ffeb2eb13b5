// page.js: what the three drivers share: deep selectors, resolved in the page.

/**
 * Runs in the page: the element a deep selector names ('a >>> b': b inside a's shadow
 * root; { selector, text }: the first match whose aria-label or text is `text`).
 * `mode` 'box': scrolled to the middle of the viewport, -> its box; 'still': its box
 * where it is; 'focus': focused, -> true; 'element': the element. null when nothing matches.
 */
export function locate([target, mode]) {
  const { selector, text } = typeof target === 'string' ? { selector: target } : target;
  const parts = selector.split(/\s*>>>\s*/);
  let scopes = [document];
  for (const [k, part] of parts.entries()) {
    const found = scopes.flatMap((s) => [...s.querySelectorAll(part)]);
    scopes = k < parts.length - 1 ? found.map((e) => e.shadowRoot).filter(Boolean) : found;
  }
  const named = (e) => (e.getAttribute('aria-label') ?? e.textContent).trim();
  const el = text === undefined ? scopes[0] : scopes.find((e) => named(e) === text);
  if (!el) return null;
  if (mode === 'element') return el;
  if (mode === 'focus') { el.focus(); return true; }
  if (mode === 'box') el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}

/** The middle of `target` (a deep selector, scrolled into view) or `target` itself ({x, y}). */
export async function pointOf(evaluate, target) {
  if (typeof target === 'object' && 'x' in target) return target;
  const box = await evaluate(locate, [target, 'box']);
  if (!box) throw new Error(`no element matches ${JSON.stringify(target)}`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** `evaluateHandle(locate, [target, 'element'])`, checked. */
export async function elementOf(evaluateHandle, target) {
  const handle = await evaluateHandle(locate, [target, 'element']);
  if (!handle?.asElement?.() && !handle?.takeScreenshot) throw new Error(`no element matches ${JSON.stringify(target)}`);
  return handle.asElement?.() ?? handle;
}

/** Focus `target`; throws naming it when absent. */
export async function focusOn(evaluate, target) {
  if (!(await evaluate(locate, [target, 'focus']))) throw new Error(`no element matches ${JSON.stringify(target)}`);
}

/** The box of `target` where it is (no scrolling), or null. */
export const boxOf = (evaluate, target) => evaluate(locate, [target, 'still']);

/** Steps of a drag from `a` to `b` (pointer events in between, as a hand makes them). */
export const path = (a, b, steps = 5) => Array.from({ length: steps }, (_, k) => ({
  x: a.x + ((b.x - a.x) * (k + 1)) / steps, y: a.y + ((b.y - a.y) * (k + 1)) / steps }));

// dom.js: tiny element builders for the figures (HTML and SVG).
const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of [children ?? []].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
  return el;
}

/** An HTML element: h('div', {class: 'x', onclick: f}, [children]). */
export const h = (tag, attrs, children) => build(document.createElement(tag), attrs, children);

/** An SVG element, same signature as h. */
export const s = (tag, attrs, children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

/** Replace all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/**
 * Set `el`'s text if it changed. The browser lays out again any text it is
 * given, even the same: a figure relabelling 200 SVG texts with their own
 * words took 10 ms.
 */
export function setText(el, text) {
  const value = String(text);
  const only = el.firstChild;
  if (only && only === el.lastChild && only.nodeType === 3) { // (one text node: its data changes, no node is replaced)
    if (only.data !== value) only.data = value;
  } else if (el.textContent !== value) {
    el.textContent = value;
  }
}

/**
 * Make `kids` the children of `el`, in order, moving only what is out of
 * place: the same final tree as replace(el, kids), but nodes already where
 * they belong stay (removing and inserting every child made the browser
 * restyle and lay all of them out again).
 */
export function reconcile(el, kids) {
  let at = el.firstChild;
  for (const k of kids) {
    if (k === at) at = at.nextSibling;
    else el.insertBefore(k, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
  return el;
}

const madeFor = new WeakMap(); // element -> the key its children were last made for (replaceFor)

/**
 * replace(el, make()) only when `key` (a string or number that says what
 * the children show) differs from the one they were last made for: a
 * render that would rebuild the same paragraph leaves it alone.
 */
export function replaceFor(el, key, make) {
  if (madeFor.get(el) === key) return el;
  madeFor.set(el, key);
  return replace(el, make());
}

const styled = new WeakMap(); // element -> {property: value} last set by setStyle

/** Set `el.style[property]` to `value` if that is not what setStyle last set there (a style written is parsed again). */
export function setStyle(el, property, value) {
  let mine = styled.get(el);
  if (!mine) styled.set(el, mine = {});
  if (mine[property] === value) return;
  mine[property] = value;
  el.style[property] = value;
}

/** Set an attribute only when its value changes (an SVG attribute written restyles its element, even to the same value). */
export function setAttr(el, name, value) {
  const v = String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

/**
 * An element that keeps the height of the tallest of `rooms` (what it may
 * come to say: strings or nodes, laid over one another unseen) at whatever
 * width it has: its words can change as a slider moves without moving what
 * is below it. -> [el, body]; its words go into body.
 */
export function steady(tag, attrs, rooms) {
  const body = h('span');
  const el = h(tag, { ...attrs, class: ['steady', attrs?.class].filter(Boolean).join(' ') },
    [body, ...rooms.map((r) => h('span', { class: 'room', 'aria-hidden': 'true' }, r))]);
  return [el, body];
}

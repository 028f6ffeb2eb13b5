// state-link.js: a figure's state in the page URL's hash, so that a reader
// can share the exact view. Each figure owns the hash entries that start
// with its id:
//   #soft-dictionary.temperature=0.05&multi-head-it.heads=1&...
// The state is the figure's declared attributes (static props), written
// only where they differ from the defaults. On load the entries become
// attributes, which set the state as any attribute does.
import { h } from './dom.js';
import { linkNumber } from './props.js';

/** The id a figure is linked by: its id attribute, else tag minus "attention-" plus its place among its kind. */
export function figureId(el) {
  if (el.id) return el.id;
  const tag = el.localName;
  const same = [...(el.ownerDocument?.querySelectorAll(tag) ?? [])];
  const n = Math.max(0, same.indexOf(el)) + 1;
  return `${tag.replace(/^attention-/, '')}${n > 1 ? `-${n}` : ''}`;
}

const entries = (hash) => hash.replace(/^#/, '').split('&').filter(Boolean);

/** decodeURIComponent that keeps text it cannot decode (a hand-edited link) as it is. */
function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The {attribute: value} a hash holds for figure `id`. */
export function stateFromHash(hash, id) {
  const out = {};
  for (const part of entries(hash)) {
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key.startsWith(`${id}.`)) out[key.slice(id.length + 1)] = decode(eq < 0 ? '' : part.slice(eq + 1));
  }
  return out;
}

/** `hash` with figure `id`'s entries replaced by `state` ({attribute: value}); other entries kept in order. */
export function hashWith(hash, id, state) {
  const keep = entries(hash).filter((p) => !decode(p.split('=')[0]).startsWith(`${id}.`));
  const mine = Object.entries(state).map(([k, v]) => `${encodeURIComponent(`${id}.${k}`)}=${encodeURIComponent(v)}`);
  const all = [...keep, ...mine];
  return all.length ? `#${all.join('&')}` : '';
}

/** A number as a link writes it: six significant digits. */
const text = (v) => (typeof v === 'number' ? String(linkNumber(v)) : String(v));

// each figure's state as its page set it (its attributes, before a link's): what the
// page shows again when it is opened without one
const pageStates = new WeakMap();

/**
 * The figure's declared state that differs from the defaults or from what its
 * page set (a change back to the default on a page that set another value
 * must be written too), as attribute strings.
 */
export function changedState(el) {
  const out = {};
  const page = pageStates.get(el) ?? {};
  for (const [k, p] of Object.entries(el.constructor.props ?? {})) {
    if (el.state[k] !== p.default || (Object.hasOwn(page, k) && el.state[k] !== page[k])) out[k] = text(el.state[k]);
  }
  return out;
}

/** Whether the page's hash leads to figure `el`: its id alone (#induction) or its state first (#cost.d=64). */
export function linkedTo(el) {
  const first = entries(globalThis.location?.hash ?? '')[0];
  const key = first && decode(first.split('=')[0]);
  return !!key && (key === figureId(el) || key.startsWith(`${figureId(el)}.`));
}

const kept = new WeakSet();

/**
 * Set the attributes the page's hash holds for this figure (called when it
 * connects); a figure the hash leads to is scrolled to, and kept there.
 */
export function applyLinkedState(el) {
  if (!pageStates.has(el)) pageStates.set(el, { ...el.state });
  const state = stateFromHash(globalThis.location?.hash ?? '', figureId(el));
  const props = el.constructor.props ?? {};
  for (const [k, v] of Object.entries(state)) if (Object.hasOwn(props, k)) el.setAttribute(k, v);
  if (!kept.has(el) && linkedTo(el)) {
    kept.add(el);
    keepInView(el);
  }
}

/**
 * Scroll to `el` and keep it at the top of the viewport while the page grows
 * around it (the figures above it change height as they draw over their pictures,
 * which would push it away: WebKit has no scroll anchoring, and Chromium's
 * anchors on what moves), until the reader (or a script) scrolls or acts, or
 * it has drawn and the page has kept its height for QUIET_MS: the figures
 * above it may load seconds after it drew, on a slow network or a busy phone.
 */
function keepInView(el) {
  const INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  const QUIET_MS = 3000;
  let since = 0; // when the height last changed, or it drew
  let height = -1;
  let y = null; // where this left the page
  let drawn = false;
  el.ready?.then(() => { drawn = true; if (since >= 0) since = performance.now(); });
  const stop = () => {
    since = -1;
    for (const t of INPUT) removeEventListener(t, stop, true);
  };
  for (const t of INPUT) addEventListener(t, stop, { capture: true, passive: true });
  const frame = () => {
    if (since < 0 || !el.isConnected) return stop();
    const now = document.documentElement.scrollHeight;
    if (now === height && y !== null && Math.abs(scrollY - y) > 1) return stop(); // scrolled by someone else
    if (now !== height) {
      el.scrollIntoView({ block: 'start' });
      height = now;
      since = performance.now();
    } else if (drawn && performance.now() - since >= QUIET_MS) return stop();
    y = scrollY;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * A "Copy link" button: puts the figure's state into the hash and the full
 * URL on the clipboard, and says what the link leaves out
 * (FigureElement.linkLeavesOut). A figure whose view a link cannot hold (a
 * figure showing data the reader pasted) hides it: see FigureElement.linkable.
 */
export function copyLinkButton(el) {
  const status = h('span', { class: 'tool-status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'copy-link' }, el.t('copyLink'));
  button.addEventListener('click', async () => {
    const url = new URL(location.href);
    url.hash = hashWith(url.hash, figureId(el), changedState(el));
    history.replaceState(history.state, '', url);
    const leftOut = el.linkLeavesOut();
    let done;
    try {
      await navigator.clipboard.writeText(url.href);
      done = el.t('linkCopied');
    } catch {
      done = el.t('linkInAddressBar');
    }
    status.textContent = leftOut ? done + el.say(leftOut) : done;
    setTimeout(() => { status.textContent = ''; }, leftOut ? 8000 : 2500);
  });
  return [button, status];
}

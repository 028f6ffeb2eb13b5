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

/** The figure's declared state that differs from the defaults, as attribute strings. */
export function changedState(el) {
  const out = {};
  for (const [k, p] of Object.entries(el.constructor.props ?? {})) {
    if (el.state[k] !== p.default) out[k] = text(el.state[k]);
  }
  return out;
}

/** Set the attributes the page's hash holds for this figure (called when it connects). */
export function applyLinkedState(el) {
  const state = stateFromHash(globalThis.location?.hash ?? '', figureId(el));
  const props = el.constructor.props ?? {};
  for (const [k, v] of Object.entries(state)) if (Object.hasOwn(props, k)) el.setAttribute(k, v);
  const first = entries(globalThis.location?.hash ?? '')[0];
  if (first && decode(first).startsWith(`${figureId(el)}.`)) requestAnimationFrame(() => el.scrollIntoView({ block: 'start' }));
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

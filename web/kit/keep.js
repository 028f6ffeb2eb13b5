// keep.js: changes that keep what the page already laid out (for figures
// whose controls swap whole parts or remake tables and plots; the others
// do not load it).
import { reconcile } from './dom.js';

/**
 * replace(el, kids), keeping the nodes already there wherever the new tree
 * has a node of the same kind in the same place: their attributes and text
 * are set to the new ones'. A table or a plot made again with new numbers
 * is then restyled and laid out as changed text, not as new elements. For
 * trees without listeners (the kept nodes keep theirs, not the new ones').
 */
export function morph(el, ...kids) {
  const have = el.childNodes;
  const fresh = kids.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === 'object' ? c : document.createTextNode(String(c))));
  const kept = fresh.map((k, i) => {
    const o = have[i];
    if (!o || o.nodeType !== k.nodeType) return k;
    if (o.nodeType === Node.TEXT_NODE) {
      if (o.data !== k.data) o.data = k.data;
      return o;
    }
    if (o.nodeType !== Node.ELEMENT_NODE || o.localName !== k.localName || o.namespaceURI !== k.namespaceURI) return k;
    for (const a of [...o.attributes]) if (!k.hasAttribute(a.name)) o.removeAttribute(a.name);
    for (const a of k.attributes) if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
    morph(o, [...k.childNodes]);
    return o;
  });
  return reconcile(el, kept);
}

/**
 * Keep `part` out of sight (`kept`: data-kept, styles.js) or show it again.
 * A part that comes and goes is style-contained for good (data-part): the
 * style containment that content-visibility: hidden brings, changing, made
 * Chromium's next style update cost more for every figure drawn on the
 * page (the article with its figures drawn: ~3 ms of a choice at a phone's speed).
 */
export function keepOut(part, kept) {
  if (!part.hasAttribute('data-part')) part.setAttribute('data-part', '');
  part.toggleAttribute('data-kept', kept);
}

/**
 * Show `part` in `el` and keep the others it showed before, out of sight
 * (keepOut): a choice that goes back to a part shows it again as it was
 * laid out, instead of laying out a new subtree. With `stack` (the default)
 * the parts take turns in one place as tall as the tallest shown so far
 * (data-stack, styles.js): going back to a shorter part moves nothing below
 * it, which on a long page cost a phone ~3 ms of repainting and relayering
 * per change. Parts of very different heights (a head count's heads) pass
 * `stack: false`.
 */
export function showOne(el, part, { stack = true } = {}) {
  if (stack && !el.hasAttribute('data-stack')) el.setAttribute('data-stack', '');
  if (part.parentNode !== el) el.append(part);
  for (const c of el.children) keepOut(c, c !== part);
  return el;
}

/**
 * Put `part` in `el`, kept out of sight as showOne keeps a part it showed
 * before: for what a figure makes in the background (FigureElement.inTasks)
 * before a reader asks for it. -> part
 */
export function keepIn(el, part) {
  keepOut(part, true);
  if (part.parentNode !== el) el.append(part);
  return part;
}

/**
 * Lay kept `parts` out now, once they are drawn (keepIn). A kept part is not
 * laid out (content-visibility: hidden) until something asks for the size
 * of what is inside it; laid out then, it keeps its layout, and its first
 * showing costs what a later one does (the matrix figure's first visit to a
 * step: about 2 ms less layout at a phone's speed).
 */
export function layOut(...parts) {
  for (const part of parts) part.firstElementChild?.getBoundingClientRect(); // (asking is what lays it out)
}

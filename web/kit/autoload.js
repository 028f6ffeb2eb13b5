// autoload.js: define each figure's tag when a page first uses it, by
// importing that figure's own module (the way Web Awesome's autoloader
// does). A page pays for the figures it shows, not for all of them.
//
// A figure that trains or measures in a worker (the heavy ones) is imported
// only once one of its elements nears the viewport; the others as soon as
// their tag is in the page. Elements added later (by a script, or HTML put
// in by a framework) are found by a MutationObserver. If a module cannot
// be loaded, each of its elements says so in its own text (light DOM).
import { languageOf, translator } from './i18n.js';

const NEAR = '600px 0px'; // a heavy figure starts loading this far below the fold

// Whether the page's hash leads to `el` (#induction, #cost.d=64): such a figure loads at
// once, wherever it is, so that it can be scrolled to (state-link.js's figureId and linkedTo).
function linked(el) {
  let key;
  try {
    key = decodeURIComponent(location.hash.slice(1).split('&')[0].split('=')[0]);
  } catch {
    return false; // (a hand-edited link)
  }
  if (!key) return false;
  const same = [...document.querySelectorAll(el.localName)];
  const n = Math.max(0, same.indexOf(el)) + 1;
  const id = el.id || `${el.localName.replace(/^attention-/, '')}${n > 1 ? `-${n}` : ''}`;
  return key === id || key.startsWith(`${id}.`);
}

/** Watch `root` (a document) for the tags of `figures` (the registry's entries). */
export function autoload(figures, root = document) {
  const waiting = new Map(figures.filter((f) => !customElements.get(f.tag)).map((f) => [f.tag, f]));
  const selector = () => [...waiting.keys()].join(',');

  function load(figure) {
    if (!waiting.delete(figure.tag)) return;
    // Every figure draws with the shared engine: start fetching and compiling
    // it now, beside the figure's module, not once that module has loaded
    // (a figure that starts gets the same promise, and says any failure).
    import('./engine.js').then((m) => m.engine()).catch(() => {});
    figure.load().catch((err) => {
      for (const el of root.querySelectorAll(figure.tag)) {
        const p = document.createElement('p');
        p.setAttribute('role', 'alert');
        p.textContent = translator({}, languageOf(el))('couldNotStart', { message: err.message });
        el.prepend(p);
      }
    });
    if (!waiting.size) mutations.disconnect();
  }

  const near = typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      const figure = waiting.get(e.target.localName);
      if (figure) load(figure);
    }
  }, { rootMargin: NEAR }) : null;

  function found(el) {
    const figure = waiting.get(el.localName);
    if (!figure) return;
    if (figure.worker && near && !linked(el)) near.observe(el);
    else load(figure);
  }

  function scan(node) {
    if (!waiting.size || node.nodeType !== 1) return;
    if (waiting.has(node.localName)) found(node);
    if (!waiting.size) return; // (that was the last tag: an empty selector is a SyntaxError)
    for (const el of node.querySelectorAll(selector())) found(el);
  }

  const mutations = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) scan(n);
  });
  if (waiting.size) {
    mutations.observe(root, { childList: true, subtree: true });
    scan(root.documentElement ?? root);
  }
}

// autoload.js: define each figure's tag when a page first uses it, by
// importing that figure's own module (the way Web Awesome's autoloader
// does). A page pays for the figures it shows, not for all of them.
//
// A figure that trains or measures in a worker (the heavy ones) is imported
// only once one of its elements nears the viewport; the others as soon as
// their tag is in the page. On a page of many figures (an article) those
// near the viewport come first, the rest once those have drawn, or once the
// reader scrolls to them or prints: their files would otherwise share the
// network with the first figure's (HTTP/2 sends them all at once).
// Elements added later (by a script, or HTML put in by a framework) are
// found by a MutationObserver. If a module cannot be loaded, each of its
// elements says so in its own text (light DOM).
//
// On a slow network the round trips, not the bytes, cost the time: a module
// asks for its imports only once it has arrived, and a figure for its words
// and the engine only once its module has run. So as dist/attention-figures.js
// (the bundle's own file, which knows the bundle's file list: scripts/bundle.mjs
// writes it into preload-manifest.js), when it loads a figure it also asks at
// once for everything that figure will need to draw: its module's imports
// (modulepreload), its words and the shared ones in the page's language, and
// the engine's .wasm, compiled meanwhile (engine.js takes it from there). A
// page with one figure then waits for three round trips: the page, this
// file, and all the rest side by side. Bundled again by a blogger's bundler
// (Vite, webpack, ...), which names and places the files its own way, it
// asks for nothing ahead and the figures load as their modules ask.
import manifest from './preload-manifest.js';
import { bestBuild, fetchModule } from '../api/load.js';
import { languageOf, translator } from './i18n.js';

const NEAR = 600; // px: a heavy figure starts loading this far below the fold
const FIRST_WAVE_MS = 4000; // the rest load after this long even if a first figure has not drawn
const FEW = 2; // a page with this many figures or fewer loads its light ones at once (where they are costs a layout)
const START = 400; // px: a figure starts drawing this near the viewport (figure-element.js)

/** The engine's .wasm compiling ahead: {build, url, module: a promise}, for engine.js. */
export const PREFETCH = Symbol.for('attention-wasm.prefetch');

/**
 * Where the bundle's files are: this module's own URL when it is served as
 * the bundle's file (http or https, under its own name), else null.
 */
function bundleBase() {
  if (!manifest) return null;
  const url = new URL(import.meta.url);
  return /^https?:$/.test(url.protocol) && url.pathname.endsWith(`/${manifest.self}`) ? url : null;
}

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
  const base = bundleBase();
  const asked = new Set(); // the files asked for ahead

  // everything `figure` needs to draw in language `lang`, asked for now
  function ahead(figure, lang) {
    if (!globalThis[PREFETCH] && typeof WebAssembly === 'object' && WebAssembly) { // (without it, loadAttention says so)
      // compiled as it streams in, once: what fails, engine.js says (never
      // fetched again). Asked first: the largest file but one, it should not
      // wait for a free connection (HTTP/1.1 gives a page six at a time).
      const build = bestBuild();
      const url = new URL(manifest.wasm[build], base);
      const module = fetchModule(url);
      module.catch(() => {}); // (said by each figure that starts, through engine.js)
      globalThis[PREFETCH] = { build, url: url.href, module };
    }
    const files = [...manifest.figures[figure.name], ...manifest.words[figure.name][lang], ...manifest.shared[lang]];
    for (const file of files) {
      if (asked.has(file)) continue;
      asked.add(file);
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = new URL(file, base).href;
      (document.head ?? document.documentElement).append(link);
    }
  }

  function load(figure) {
    if (!waiting.delete(figure.tag)) return null;
    later.delete(figure);
    if (base) {
      for (const lang of new Set([...root.querySelectorAll(figure.tag)].map(languageOf))) ahead(figure, lang);
    } else {
      // Every figure draws with the shared engine: start fetching and compiling
      // it now, beside the figure's module, not once that module has loaded
      // (a figure that starts gets the same promise, and says any failure).
      import('./engine.js').then((m) => m.engine()).catch(() => {});
    }
    const loaded = figure.load().catch((err) => {
      for (const el of root.querySelectorAll(figure.tag)) {
        const p = document.createElement('p');
        p.setAttribute('role', 'alert');
        p.textContent = translator({}, languageOf(el))('couldNotStart', { message: err.message });
        el.prepend(p);
      }
    });
    if (!waiting.size) mutations.disconnect();
    return loaded;
  }

  // The first wave: the figures near the viewport when the page is scanned;
  // `later` the others, loaded once the first have drawn (or FIRST_WAVE_MS).
  const first = [];
  const later = new Set();
  let waved = false;
  let crowded = false; // more than FEW figures when the page was first scanned
  function wave() {
    if (waved) return;
    waved = true;
    for (const figure of later) load(figure);
  }
  const inView = (el, margin) => {
    const r = el.getBoundingClientRect();
    return r.top < innerHeight + margin && r.bottom > -margin;
  };

  const near = typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      const figure = waiting.get(e.target.localName);
      if (figure) load(figure);
    }
  }, { rootMargin: `${NEAR}px 0px` }) : null;

  function found(el) {
    const figure = waiting.get(el.localName);
    if (!figure) return;
    // (a heavy figure already near the viewport starts now: the observer would say so only after the next frame)
    if (near && !linked(el) && (figure.worker || (crowded && !waved)) && !inView(el, NEAR)) {
      near.observe(el);
      if (!figure.worker) later.add(figure);
    } else {
      const loaded = load(figure);
      // loaded, and drawn where it starts at once (one that fails never draws: FIRST_WAVE_MS ends the wait)
      const drawn = () => Promise.all([...root.querySelectorAll(figure.tag)].filter((e) => inView(e, START)).map((e) => e.ready));
      if (!waved && loaded) first.push(loaded.then(drawn));
    }
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
    crowded = root.querySelectorAll(selector()).length > FEW;
    scan(root.documentElement ?? root);
  }
  if (!later.size) waved = true;
  else {
    Promise.race([Promise.allSettled(first), new Promise((r) => setTimeout(r, FIRST_WAVE_MS))]).then(wave);
    globalThis.addEventListener?.('beforeprint', wave, { once: true });
  }
}

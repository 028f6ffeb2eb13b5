// page-scheme.js: the colour scheme of the page the figures are on, which
// theme="auto" (the default) follows. What the page says wins, nearest first:
//   <body>, then <html>: data-theme, data-bs-theme, data-mode or data-scheme
//   "dark" or "light", or a `dark` or `light` class (what Hugo, Jekyll,
//   Docusaurus, Tailwind and Bootstrap themes set as the reader toggles);
//   then the root's computed color-scheme, when it names one scheme only.
// When the page says nothing, prefers-color-scheme decides; but a page once
// seen dark that then says nothing is light: a site that toggles a `dark`
// class marks only its dark mode (and sets it itself for a dark system).
// One MutationObserver (on those attributes of <html> and <body>) and one
// media listener per page, shared by every figure; a figure is told only
// when the scheme changes.
const ATTRIBUTES = ['data-theme', 'data-bs-theme', 'data-mode', 'data-scheme'];
const SCHEMES = ['dark', 'light'];

const listeners = new Set();
let observer = null;
let media = null;
let observedBody = null;
let current = null;
let seenDark = false;

/** 'dark', 'light' or null: what `el`'s attributes say. */
function marked(el) {
  if (!el) return null;
  for (const a of ATTRIBUTES) if (SCHEMES.includes(el.getAttribute(a))) return el.getAttribute(a);
  return SCHEMES.find((s) => el.classList.contains(s)) ?? null;
}

/** 'dark', 'light' or null: the root's color-scheme, when it names one only. */
function declared() {
  const words = getComputedStyle(document.documentElement).colorScheme.split(/\s+/);
  const named = SCHEMES.filter((s) => words.includes(s));
  return named.length === 1 ? named[0] : null;
}

function read() {
  const said = marked(document.body) ?? marked(document.documentElement) ?? declared();
  if (said === 'dark') seenDark = true;
  return said ?? (seenDark || !media?.matches ? 'light' : 'dark');
}

function update() {
  if (document.body && document.body !== observedBody) {
    observedBody = document.body;
    observer.observe(observedBody, { attributes: true, attributeFilter: [...ATTRIBUTES, 'class', 'style'] });
  }
  const was = current;
  current = read();
  if (current !== was) for (const fn of listeners) fn(current);
}

/** The page's scheme now: 'dark' or 'light'. */
export function pageScheme() {
  return listeners.size ? current : read();
}

/**
 * Call `fn(scheme)` whenever the page's scheme changes, until the returned
 * function is called; the page is watched while anyone listens.
 */
export function watchScheme(fn) {
  if (!listeners.size) {
    media = globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null;
    media?.addEventListener('change', update);
    observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: [...ATTRIBUTES, 'class', 'style'] });
    observedBody = null;
    current = null;
    update();
  }
  else if (document.body !== observedBody) update(); // a <body> that came after the first figure
  listeners.add(fn);
  return () => {
    if (!listeners.delete(fn) || listeners.size) return;
    observer.disconnect();
    media?.removeEventListener('change', update);
    observer = media = observedBody = null;
  };
}

// figure-element.js: what every figure element has in common.
//
// A subclass declares `static props` (attributes that set its initial state,
// mirrored as properties), `static css`, `build()` (makes its DOM once, after
// the engine is loaded), `render()` (draws this.state; called through
// requestAnimationFrame after each change) and `syncControls()` (makes every
// control show this.state; called after each render, so no control can show
// a state the figure does not draw). It starts when it nears the viewport.
// Off the page it does nothing: no frame, no announcement; a figure with work
// in the background (a worker) starts it in onPage() and stops it in
// disconnectedCallback(); what it makes on the main thread after it draws
// (what a step or a choice will show) it makes through inTasks(), a task at
// a time.
// Until it has drawn, it shows its light-DOM children (the page's picture of
// it, or a sentence) through a <slot>: what a reader without JavaScript, a
// feed, reader mode or a printout gets, and what shows while it loads. Once
// it draws, the figure takes the slot's place (the light DOM stays slotted,
// hidden, for a printout while printsPicture() says the picture says more).
// A figure with no light DOM says "Loading" only once it loads.
//
// Words come from `static strings` (the figure's tables, one import per
// language, see i18n.js) through this.t(key, args), in the language the
// element's or the page's `lang` picks. A figure loads that language's
// table while it loads the engine, and no other; a change of the element's
// own `lang` loads the other language's, then rebuilds the figure in it.
// A figure that teaches with an example may take the page's own: it
// defines useExample(data), which gets the parsed JSON of a
// <script type="application/json" data-example> child before build() and
// throws an ExampleError (a string key and its arguments) when the data
// will not do; the figure then says why, in its language, above itself,
// and keeps its own example.
//
// A prop is {type: 'number' | 'boolean' | 'enum' | 'string', default, ...}
// (props.js says what each means; a figure's declarations are in its
// <name>.props.js, which pictures drawn without a browser read too).
// Attributes, properties and links all pass through parseProp, so the
// state is always valid whatever a page or a URL holds.
import { engine } from './engine.js';
import { adopt } from './sheets.js';
import { baseCss } from './styles.js';
import { h } from './dom.js';
import { forgetTheme, theme } from './draw/colors.js';
import { pageScheme, watchScheme } from './page-scheme.js';
import { exportButtons } from './export-buttons.js';
import { applyLinkedState, copyLinkButton } from './state-link.js';
import { parseProp } from './props.js';
import { languageOf, loadTexts, overridesOf, translator } from './i18n.js';
import { ExampleError } from './example.js';
// Modules most figures use, loaded with this one: the bundle (no tree
// shaking there) puts them in the chunk every figure loads, where each
// would be a request of its own (scripts/bundle.mjs).
import './controls.js';
import './draw/drawing.js';
import './draw/scale-canvas.js';
import './example-data.js';
import './keep.js';
import './mat.js';
import './random.js';
import './rich.js';
import './workers/spawn.js';

// The live region follows the summary once changes pause for ANNOUNCE_WAIT
// (a slider let go); while they never pause, at most every ANNOUNCE_EVERY;
// while they come from a run rather than the reader (a model training, whose
// messages pause when the machine is busy), every ANNOUNCE_EVERY; and at
// once when the figure marks a new phase.
const ANNOUNCE_WAIT = 350;
const ANNOUNCE_EVERY = 5000;

const NO_WORDS = async () => ({ default: {} });

// Printing: every figure on the page is drawn in the light theme before the
// page is laid out for paper (styles.js has the rest: @media print).
let printing = false;
const onPage = new Set(); // the connected figures

// Whether `el` has light DOM to show: an element other than a JSON child, or text.
const hasContent = (el) => [...el.childNodes].some((n) => (n.nodeType === 1 ? !n.matches('script') : n.nodeType === 3 && n.textContent.trim()));

export class FigureElement extends HTMLElement {
  static props = {};
  static css = '';
  static strings = { en: NO_WORDS, zh: NO_WORDS };

  static {
    if (typeof addEventListener === 'function') {
      addEventListener('beforeprint', () => {
        printing = true;
        for (const el of onPage) el.#print();
      });
      addEventListener('afterprint', () => {
        printing = false;
        for (const el of onPage) el.#followScheme();
      });
    }
  }

  static get observedAttributes() {
    return [...Object.keys(this.props), 'lang', 'theme'];
  }

  #frame = 0;
  #started = false;
  #observer = null;
  #announceTimer = 0;
  #announceBy = 0; // when the pending summary is spoken at the latest (0: nothing pending)
  #phase;
  #stale = false; // a redraw was asked for while off the page
  #resolveReady;
  #unwatchScheme = null;
  #linkButton = null;
  #problems = [];
  #overrides = [];
  #wanted = null; // the language last asked for: shown, or loading
  #tasking = false; // a run of inTasks under way

  constructor() {
    super();
    this.state = {};
    for (const [k, p] of Object.entries(this.constructor.props)) this.state[k] = p.default;
    this.attachShadow({ mode: 'open' });
    adopt(this.shadowRoot, baseCss, this.constructor.css);
    this.shadowRoot.append(h('slot'));
    /** Resolves once the figure has drawn for the first time. */
    this.ready = new Promise((resolve) => { this.#resolveReady = resolve; });
    /** The current state in words (what the live region announces). */
    this.summary = '';
  }

  connectedCallback() {
    onPage.add(this);
    applyLinkedState(this);
    this.#unwatchScheme ??= watchScheme(this.#followScheme);
    this.#followScheme();
    if (this.attn) {
      if (this.#stale) this.invalidate();
      this.onPage();
    }
    if (this.#started || this.#observer) return;
    if (typeof IntersectionObserver !== 'function') return void this.#start();
    this.#observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.#start();
    }, { rootMargin: '400px 0px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    onPage.delete(this);
    this.#unwatchScheme?.();
    this.#unwatchScheme = null;
    this.#observer?.disconnect();
    this.#observer = null;
    if (this.#frame) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
      this.#stale = true;
    }
    clearTimeout(this.#announceTimer);
    this.#announceBy = 0;
  }

  /**
   * The figure is built and on the page (called once it has started, and
   * again whenever it is put back): a figure with background work starts it here.
   */
  onPage() {}

  // theme="light" or "dark" forces one; otherwise the page's (page-scheme.js).
  // data-dark on the element switches its CSS (styles.js); colours resolved
  // in JavaScript (cell labels, canvases) follow on the next draw.
  #followScheme = () => {
    const theme = this.getAttribute('theme');
    const dark = !printing && (theme === 'dark' || (theme !== 'light' && pageScheme() === 'dark'));
    if (dark === this.hasAttribute('data-dark')) return;
    this.toggleAttribute('data-dark', dark);
    forgetTheme(this);
    this.invalidate();
  };

  // Before printing: a figure that has drawn draws again now, in the light
  // theme (colours resolved in JavaScript too); one that has not, or whose
  // picture says more (printsPicture), shows the page's picture of it,
  // loaded now if it waited to near the viewport.
  #print() {
    this.#followScheme();
    if (!this.hasAttribute('data-ready') || this.hasAttribute('data-print-picture')) {
      for (const img of this.querySelectorAll('img[loading="lazy"]')) img.loading = 'eager';
    }
    if (!this.hasAttribute('data-ready')) return;
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#draw();
  }

  attributeChangedCallback(name, old, value) {
    if (name === 'theme') return void this.#followScheme();
    if (name === 'lang') {
      if (this.attn && old !== value) this.#relanguage();
      return;
    }
    this.state[name] = parseProp(this.constructor.props[name], value);
    this.invalidate();
  }

  async #start() {
    if (this.#started) return;
    this.#started = true;
    this.#observer?.disconnect();
    this.#observer = null;
    if (!hasContent(this)) this.shadowRoot.append(h('div', { class: 'loading' }, translator({}, languageOf(this))('loading')));
    try {
      const lang = (this.#wanted = languageOf(this));
      const [attn, texts] = await Promise.all([engine(), loadTexts(this.constructor.strings, lang)]);
      this.attn = attn;
      this.#useTheirs();
      this.#mount(lang, texts);
      if (this.isConnected) this.onPage();
      this.toggleAttribute('data-ready', true);
      this.#relanguage(); // (in case `lang` changed while loading)
      const rehearse = () => this.#rehearse();
      if (typeof requestIdleCallback === 'function') requestIdleCallback(rehearse, { timeout: 5000 });
      else setTimeout(rehearse, 1000); // (Safari has no idle callbacks)
    } catch (err) {
      const t = this.t ?? translator({}, languageOf(this));
      // said above the page's picture of it, if it has one
      this.shadowRoot.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('couldNotStart', { message: err.message })), h('slot'));
      this.toggleAttribute('data-error', true);
    }
    this.#resolveReady();
  }

  // The page's strings and example, each checked once; what cannot be used
  // is said above the figure (#mount) and left out.
  #useTheirs() {
    try {
      const overrides = overridesOf(this);
      translator({}, 'en', overrides);
      this.#overrides = overrides;
    } catch (err) {
      this.#problems.push(['stringsNotJson', { message: err.message }]);
    }
    const script = this.querySelector(':scope > script[type="application/json"][data-example]');
    if (!script || !this.useExample) return;
    let data;
    try {
      data = JSON.parse(script.textContent);
    } catch (err) {
      return void this.#problems.push(['exampleRejected', { problem: ['exampleNotJson', { message: err.message }] }]);
    }
    try {
      this.useExample(data);
    } catch (err) {
      if (!(err instanceof ExampleError)) throw err;
      this.#problems.push(['exampleRejected', { problem: [err.key, err.args] }]);
    }
  }

  // Rebuild the figure in the language `lang` now picks, once its words
  // have loaded; when they cannot, the figure stays as it is and says so.
  // A later change wins over one still loading.
  async #relanguage() {
    const lang = languageOf(this);
    if (lang === this.#wanted) return;
    this.#wanted = lang;
    let texts;
    try {
      texts = await loadTexts(this.constructor.strings, lang);
    } catch (err) {
      if (this.#wanted !== lang) return;
      this.#wanted = null; // (any later change rebuilds, back to the language shown too)
      return void this.shadowRoot.prepend(h('p', { class: 'error', role: 'alert' }, translator({}, lang)('wordsNotLoaded', { message: err.message })));
    }
    if (this.#wanted === lang) this.#mount(lang, texts);
  }

  // (Re)build the figure in `lang`, whose words are `texts` (loadTexts).
  #mount(lang, texts) {
    this.language = lang;
    this.t = translator(texts, lang, this.#overrides);
    this.live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
    const link = copyLinkButton(this);
    this.#linkButton = link[0];
    const tools = h('div', { class: 'tools' }, [...link, ...exportButtons(this)]);
    const problems = this.#problems.map((problem) => h('p', { class: 'error example-error', role: 'alert' }, this.say(problem)));
    const root = this.build();
    // a figure named by its title, for screen readers' lists of figures
    root.setAttribute('role', 'figure');
    root.setAttribute('lang', this.language === 'zh' ? 'zh-CN' : 'en');
    if (!root.hasAttribute('aria-label')) root.setAttribute('aria-label', root.querySelector('.title')?.textContent ?? this.localName);
    // (the page's picture stays slotted for paper, shown there while printsPicture(): styles.js)
    this.shadowRoot.replaceChildren(...problems, root, tools, this.live, h('slot', { class: 'print-picture' }));
    this.#draw();
  }

  /**
   * Whether a printout shows the page's picture of this figure rather than
   * the figure: true while the picture says more (a model not yet trained,
   * which the picture draws untrained). Drawn figures print themselves.
   */
  printsPicture() {
    return false;
  }

  /** A text: a plain string as it is, or [key, args] of the string table (args may hold more such pairs). */
  say(text) {
    if (!Array.isArray(text)) return text;
    const [key, args = {}] = text;
    return this.t(key, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, Array.isArray(v) ? this.say(v) : v])));
  }

  /** Merge `patch` into the state and redraw on the next frame. */
  set(patch) {
    Object.assign(this.state, patch);
    this.invalidate();
  }

  invalidate() {
    if (!this.attn || this.#frame) return;
    if (!this.isConnected) return void (this.#stale = true);
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#draw();
    });
  }

  /**
   * Run `step` once per task until it returns false or the figure leaves the
   * page: what a figure makes in the background (one such run at a time; a
   * reader's input comes between two steps).
   */
  inTasks(step) {
    if (this.#tasking) return;
    this.#tasking = true;
    const next = () => {
      if (!this.isConnected || !step()) return void (this.#tasking = false);
      setTimeout(next, 0);
    };
    setTimeout(next, 0);
  }

  /**
   * A state near the current one ({prop: value}) whose drawing runs what a
   * reader's first change runs (a slider's new values), or null: see #rehearse.
   */
  rehearsal() {
    return null;
  }

  // A reader's first change ran code that the first drawing ran once or not
  // at all, and V8 compiled it inside that change's frame: twice as long as a
  // later change, at a phone's speed. In the first idle moment, a figure that
  // names a rehearsal() draws that state and then its own again, in one task
  // (never painted): the compiling is done there.
  #rehearse() {
    const patch = this.isConnected && !this.#frame && this.rehearsal();
    if (!patch) return;
    const was = Object.fromEntries(Object.keys(patch).map((k) => [k, this.state[k]]));
    Object.assign(this.state, patch);
    try {
      this.#draw();
    } finally {
      Object.assign(this.state, was); // (the reader's state back, whatever the rehearsal met)
      this.#draw();
    }
  }

  /** Whether a link can restore what the figure shows (false hides "Copy link"). */
  linkable() {
    return true;
  }

  /**
   * What a link to the current view leaves out, as a text (see say()) that
   * "Copy link" adds to "Link copied" (a run trained in the reader's
   * browser); null when a link restores the whole view.
   */
  linkLeavesOut() {
    return null;
  }

  // render(), then make the controls agree with the state, and give keyboard
  // focus back if render replaced the focused element: its replacement
  // carries the same data-key.
  #draw() {
    if (!this.isConnected) return void (this.#stale = true);
    this.#stale = false;
    const focused = this.shadowRoot.activeElement;
    const key = focused?.dataset?.key;
    // the theme is read before render writes anything: read after, it
    // would make the browser restyle the figure mid-render
    theme(this.shadowRoot);
    this.render();
    this.syncControls?.();
    this.#linkButton.hidden = !this.linkable();
    this.toggleAttribute('data-print-picture', this.printsPicture() && !!this.querySelector('img, svg, picture')); // (a picture: not a sentence)
    if (key && !focused.isConnected) this.shadowRoot.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }

  /**
   * Describe the current state for screen readers, at a human pace: once
   * changes pause, every few seconds while they do not (or while `paced`:
   * the changes are a run's, not the reader's), and at once when `phase` (a
   * short key such as 'training' or 'done') differs from the last one given.
   */
  announce(text, { phase, paced = false } = {}) {
    this.summary = text;
    clearTimeout(this.#announceTimer);
    const now = performance.now();
    if (phase !== undefined && phase !== this.#phase) {
      this.#phase = phase;
      this.#announceBy = now;
    } else if (this.live.textContent === text) {
      return void (this.#announceBy = 0);
    }
    this.#announceBy ||= now + ANNOUNCE_EVERY;
    this.#announceTimer = setTimeout(() => {
      this.#announceBy = 0;
      this.live.textContent = this.summary;
    }, Math.max(0, paced ? this.#announceBy - now : Math.min(ANNOUNCE_WAIT, this.#announceBy - now)));
  }
}

/** Register `cls` as `tag` (once), with a property per declared attribute. */
export function defineFigure(tag, cls) {
  for (const name of Object.keys(cls.props)) {
    if (Object.getOwnPropertyDescriptor(cls.prototype, name)) continue;
    Object.defineProperty(cls.prototype, name, {
      get() { return this.state[name]; },
      set(v) { this.setAttribute(name, String(v)); },
    });
  }
  if (!customElements.get(tag)) customElements.define(tag, cls);
}

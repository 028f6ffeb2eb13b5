// figure-element.js: what every figure element has in common.
//
// A subclass declares `static props` (attributes that set its initial state,
// mirrored as properties), `static css`, `build()` (makes its DOM once, after
// the engine is loaded) and `render()` (draws this.state; called through
// requestAnimationFrame after each change). It starts when it nears the
// viewport. Until it upgrades, the page's light-DOM children (a short text)
// are what a reader without JavaScript sees; the shadow root hides them.
import { engine } from './engine.js';
import { adopt } from './sheets.js';
import { baseCss } from './styles.js';
import { mathStyles } from './math.js';
import { h } from './dom.js';
import { attrNumber } from './format.js';
import { exportButtons } from './export.js';
import { applyLinkedState, copyLinkButton } from './state-link.js';

function parse(prop, value) {
  if (value === null) return prop.default;
  if (prop.type === 'number') return attrNumber(value, prop.default, prop.min, prop.max);
  if (prop.type === 'boolean') return value !== 'false';
  if (prop.type === 'enum') return prop.values.includes(value) ? value : prop.default;
  return value;
}

export class FigureElement extends HTMLElement {
  static props = {};
  static css = '';

  static get observedAttributes() {
    return Object.keys(this.props);
  }

  #frame = 0;
  #started = false;
  #observer = null;
  #announceTimer = 0;
  #resolveReady;

  constructor() {
    super();
    this.state = {};
    for (const [k, p] of Object.entries(this.constructor.props)) this.state[k] = p.default;
    this.attachShadow({ mode: 'open' });
    adopt(this.shadowRoot, baseCss, this.constructor.css);
    mathStyles(this.shadowRoot);
    this.shadowRoot.append(h('div', { class: 'loading' }, 'Loading figure\u2026'));
    /** Resolves once the figure has drawn for the first time. */
    this.ready = new Promise((resolve) => { this.#resolveReady = resolve; });
    /** The current state in words (what the live region announces). */
    this.summary = '';
  }

  connectedCallback() {
    applyLinkedState(this);
    if (this.#started || this.#observer) return;
    if (typeof IntersectionObserver !== 'function') return void this.#start();
    this.#observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.#start();
    }, { rootMargin: '400px 0px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
  }

  attributeChangedCallback(name, _old, value) {
    this.state[name] = parse(this.constructor.props[name], value);
    this.syncControls?.();
    this.invalidate();
  }

  async #start() {
    if (this.#started) return;
    this.#started = true;
    this.#observer?.disconnect();
    this.#observer = null;
    try {
      this.attn = await engine();
      this.live = h('p', { class: 'sr-only', 'aria-live': 'polite' });
      const tools = h('div', { class: 'tools' }, [...copyLinkButton(this), ...exportButtons(this)]);
      this.shadowRoot.replaceChildren(this.build(), tools, this.live);
      this.render();
      this.toggleAttribute('data-ready', true);
    } catch (err) {
      this.shadowRoot.replaceChildren(h('p', { class: 'error', role: 'alert' }, `This figure could not start: ${err.message}`));
      this.toggleAttribute('data-error', true);
    }
    this.#resolveReady();
  }

  /** Merge `patch` into the state and redraw on the next frame. */
  set(patch) {
    Object.assign(this.state, patch);
    this.invalidate();
  }

  invalidate() {
    if (!this.attn || this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.render();
    });
  }

  /** Describe the current state for screen readers (debounced while dragging). */
  announce(text) {
    this.summary = text;
    clearTimeout(this.#announceTimer);
    this.#announceTimer = setTimeout(() => { this.live.textContent = text; }, 350);
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

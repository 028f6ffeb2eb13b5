// probes.js: what the browser tests install in every page before its own scripts
// (Chromium and Firefox: an init script; WebKit: the test server puts it first in
// each HTML page, drivers/server.js).
// ---- page-side probes (installed in every page as window.__fig) ----------
//
// snapshot(el): what a figure shows, once its worker has answered (a
//   training figure's settled()): its summary, every control's value, the
//   value each control of a declared attribute (data-prop) shows, its markup
//   (generated ids, hover marks and the live region left out; all <details>
//   opened) and its canvases' pixels; and whether a link leaves part of the
//   view out (linkLeavesOut(): a run trained in the page). Two figures in
//   the same state have equal snapshots.
// twin(el): the snapshot of a fresh figure made from el's state, written as
//   the attributes a copied link would carry (a training figure's twin
//   loads its model if el's has). Equal to snapshot(el) exactly
//   when every control shows the state the figure draws and the link can
//   restore the view (assertSameView compares only what a link holds when
//   it leaves part of the view out).
// textBoxes(el): every piece of text (HTML text lines, SVG text, typeset
//   math) and every slider and checkbox, with its box and, for text, whether
//   an ancestor clips it.
// contrasts(el): each piece of text with its colour and the colour behind it
//   (the shape under an SVG label, else the nearest background), as RGB.
export function probes() {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  // a canvas's pixels as 'WxH:hash' (not its PNG: Firefox puts a chunk of its own in every one)
  // (read through a canvas of its own: reading the figure's would make Chromium warn
  // that a canvas read often wants willReadFrequently)
  let scratch = null;
  function pixels(c) {
    if (!c.width || !c.height) return `${c.width}x${c.height}:`;
    scratch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    Object.assign(scratch.canvas, { width: c.width, height: c.height });
    scratch.drawImage(c, 0, 0);
    const words = new Uint32Array(scratch.getImageData(0, 0, c.width, c.height).data.buffer);
    let h = 0x811c9dc5;
    for (let k = 0; k < words.length; k++) h = Math.imul(h ^ words[k], 0x01000193);
    return `${c.width}x${c.height}:${(h >>> 0).toString(16)}`;
  }
  const GENERATED = /^[sc]-\d+$/;
  // the value a control of a declared attribute shows
  const shownValue = (c) => (c.localName === 'fieldset' ? c.querySelector('input:checked')?.value ?? null
    : c.type === 'checkbox' ? c.checked : c.type === 'range' ? c.dataset.value : c.localName === 'input' ? c.value
      : c.getAttribute('role') === 'radiogroup' ? [...c.children].findIndex((b) => b.getAttribute('aria-checked') === 'true')
        : c.textContent);
  async function snapshot(el, { markup = true } = {}) {
    await el.settled?.();
    const root = el.shadowRoot.firstElementChild;
    const closed = [...root.querySelectorAll('details:not([open])')];
    closed.forEach((d) => { d.open = true; });
    if (closed.length) await frames(); // (what a closed <details> holds is painted once it opens: its toggle event)
    const controls = [...root.querySelectorAll('input, button')].filter((c) => !c.closest('.tools')).map((c) => [
      c.type, c.type === 'checkbox' || c.type === 'radio' ? c.checked : c.type === 'range' ? c.value : c.type === 'text' ? c.value : c.textContent,
      c.disabled, c.closest('[hidden]') !== null]);
    const props = [...root.querySelectorAll('[data-prop]')].filter((c) => !c.closest('.tools')).map((c) => [c.dataset.prop, shownValue(c)]);
    let html = '';
    if (markup) {
      const copy = root.cloneNode(true);
      copy.querySelectorAll('.tools, .sr-only, [data-kept]').forEach((n) => n.remove()); // (kept: parts out of sight, to be shown again)
      // the caption and outline of the cell under the pointer or focus
      copy.querySelectorAll('.mat .cap').forEach((c) => { c.textContent = ''; });
      copy.querySelectorAll('.mat rect.on').forEach((r) => r.remove());
      for (const n of copy.querySelectorAll('*')) {
        for (const a of ['id', 'for', 'name']) if (GENERATED.test(n.getAttribute(a) ?? '')) n.removeAttribute(a);
        if (n.localName === 'input') { n.removeAttribute('checked'); n.removeAttribute('value'); } // their live values are in `controls`
        if (n.getAttribute('class') === '') n.removeAttribute('class');
        if (n.getAttribute('style') === '') n.removeAttribute('style');
      }
      // markup with each element's attributes in name order (the order they were set in does not matter)
      const serialize = (n) => (n.nodeType === 3 ? n.textContent : n.nodeType !== 1 ? ''
        : `<${n.localName}${[...n.attributes].map((a) => ` ${a.name}="${a.value}"`).sort().join('')}>${[...n.childNodes].map(serialize).join('')}</${n.localName}>`);
      html = [...copy.childNodes].map(serialize).join('');
    }
    const canvases = [...root.querySelectorAll('canvas')].filter((c) => !c.closest('[data-kept]')).map(pixels);
    return { summary: el.summary, controls, props, html, canvases, partial: el.linkLeavesOut?.() != null };
  }
  async function twin(el) {
    const { changedState } = await import('/web/kit/state-link.js');
    const t = document.createElement(el.localName);
    for (const [k, v] of Object.entries(changedState(el))) t.setAttribute(k, v);
    let box = document.getElementById('__twins');
    if (!box) {
      box = document.createElement('div');
      box.id = '__twins';
      box.style.cssText = 'position:fixed;left:0;top:0;width:720px;opacity:0;pointer-events:none';
      document.body.append(box);
    }
    box.replaceChildren(t);
    await t.ready;
    if (el.worker && t.wake) t.wake(); // a training figure's model loads when asked: ask the twin too
    await frames();
    const snap = await snapshot(t);
    t.remove();
    return snap;
  }
  const rect = (r) => ({ x: r.left, y: r.top, w: r.width, h: r.height });
  // drawn on screen: not display:none, not in a closed <details>, not visually hidden
  const shown = (n) => n.checkVisibility() && !n.closest('.sr-only, .katex-mathml, [hidden]');
  function textBoxes(el) {
    const root = el.shadowRoot.firstElementChild;
    const out = [];
    const clipper = (node) => {
      for (let a = node.parentElement; a && a !== root; a = a.parentElement) {
        const o = getComputedStyle(a);
        if (/auto|scroll/.test(o.overflowX)) return null; // scrolls by design
        if (/hidden|clip/.test(o.overflowX) && !a.matches('.sr-only')) return rect(a.getBoundingClientRect());
      }
      return null;
    };
    const visible = (n) => shown(n) && getComputedStyle(n).visibility !== 'hidden';
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const p = t.parentElement;
      if (!t.textContent.trim() || p.closest('svg, .katex') || !visible(p)) continue;
      range.selectNodeContents(t);
      for (const r of range.getClientRects()) if (r.width > 0) out.push({ kind: 'text', text: t.textContent.trim().slice(0, 40), ...rect(r), clip: clipper(p) });
    }
    for (const t of svgTexts(root)) {
      if (!t.textContent.trim() || !visible(t) || t.closest('.katex') || /rotate/.test(t.closest('text').getAttribute('transform') ?? '')) continue;
      out.push({ kind: 'svg', text: t.textContent.slice(0, 40), ...rect(t.getBoundingClientRect()), clip: clipper(t.closest('svg')) });
    }
    for (const c of canvasTexts(root)) out.push({ kind: 'svg', text: c.text, ...c.box, clip: clipper(c.canvas) });
    for (const k of root.querySelectorAll('.katex')) if (visible(k)) out.push({ kind: 'math', text: k.textContent.slice(0, 40), ...rect(k.getBoundingClientRect()), clip: clipper(k) });
    for (const c of root.querySelectorAll('input[type=range], input[type=checkbox]')) {
      if (visible(c) && getComputedStyle(c).opacity !== '0') out.push({ kind: 'control', text: c.type, ...rect(c.getBoundingClientRect()), clip: null });
    }
    return { host: rect(el.getBoundingClientRect()), boxes: out };
  }
  // SVG text as drawn: a text, or each span of a text made of spans
  const svgTexts = (root) => [...root.querySelectorAll('svg text, svg tspan')].filter((t) => !t.querySelector('tspan'));
  // the texts a canvas paints from its drawing (drawing.js: matrix.view.js
  // keeps its cells so), each with its box on the page and the colour of the
  // last square painted before it under its centre
  function canvasTexts(root) {
    const out = [];
    for (const canvas of root.querySelectorAll('canvas')) {
      if (!canvas.drawing || !shown(canvas)) continue;
      const { width, items } = canvas.drawing;
      const r = canvas.getBoundingClientRect();
      const k = r.width / width;
      items.forEach((t, n) => {
        if (t.kind !== 'text') return;
        const [cx, cy] = [t.x + t.width / 2, t.y + t.height / 2];
        const under = items.slice(0, n).findLast((b) => b.kind === 'box' && b.fill && cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height);
        out.push({ canvas, text: t.text, box: { x: r.left + k * t.x, y: r.top + k * t.y, w: k * t.width, h: k * t.height }, ink: t.color, fill: under?.fill });
      });
    }
    return out;
  }
  let ctx = null;
  function rgba(css) {
    ctx ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data);
  }
  const over = (fg, bg) => fg.slice(0, 3).map((c, k) => Math.round((c * fg[3] + bg[k] * (255 - fg[3])) / 255));
  // the solid colour behind an HTML element: its own background or an ancestor's, blended upwards
  function behind(node, host) {
    const layers = [];
    for (let a = node; a; a = a.parentElement ?? a.getRootNode().host) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 255 || a === host) break;
    }
    return layers.reduceRight((acc, c) => over(c, acc), [255, 255, 255]);
  }
  function contrasts(el) {
    const root = el.shadowRoot.firstElementChild;
    const out = [];
    const faded = (n) => { for (let a = n; a && a !== root; a = a.parentElement) if (Number(getComputedStyle(a).opacity) < 1) return true; return false; };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const p = t.parentElement;
      if (!t.textContent.trim() || p.closest('svg, button:disabled') || !shown(p) || faded(p)) continue;
      const cs = getComputedStyle(p);
      const bg = behind(p, el);
      out.push({ text: t.textContent.trim().slice(0, 30), fg: over(rgba(cs.color), bg), bg, large: parseFloat(cs.fontSize) >= 24 || (parseFloat(cs.fontSize) >= 18.66 && Number(cs.fontWeight) >= 700) });
    }
    for (const t of svgTexts(root)) {
      if (!t.textContent.trim() || !shown(t) || t.closest('.katex') || faded(t.closest('svg'))) continue;
      const cs = getComputedStyle(t);
      const r = t.getBoundingClientRect();
      const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
      let bg = behind(t.closest('svg'), el);
      if (cs.stroke !== 'none' && /stroke/.test(cs.paintOrder) && parseFloat(cs.strokeWidth) >= 2) bg = over(rgba(cs.stroke), bg); // a halo
      else {
        // the topmost filled shape drawn before the text under its centre
        const shapes = [...t.closest('svg').querySelectorAll('rect, circle')].filter((sh) => sh.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
        for (const sh of shapes) {
          const b = sh.getBoundingClientRect();
          const f = getComputedStyle(sh);
          if (f.fill === 'none' || Number(f.fillOpacity) === 0 || cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) continue;
          const c = rgba(f.fill);
          bg = over([c[0], c[1], c[2], Math.round(c[3] * Number(f.fillOpacity))], bg);
        }
      }
      out.push({ text: t.textContent.slice(0, 30), fg: over(rgba(cs.fill), bg), bg, large: parseFloat(cs.fontSize) >= 24 });
    }
    for (const c of canvasTexts(root)) if (!faded(c.canvas)) out.push({ text: c.text, fg: rgba(c.ink).slice(0, 3), bg: rgba(c.fill ?? 'white').slice(0, 3), large: false });
    return out;
  }
  window.__fig = { frames, snapshot, twin, textBoxes, contrasts, pixels };
}

// watch(): what goes wrong in the page, as window.__problems (read by the drivers'
// page.problems()): console errors and warnings, uncaught errors (a ResizeObserver
// loop included) and rejections, resources that fail to load, CSP violations.
export function watch() {
  if (window.__problems) return;
  const problems = [];
  window.__problems = problems;
  const text = (v) => (v instanceof Error ? v.message : typeof v === 'string' ? v : (() => { try { return JSON.stringify(v); } catch { return String(v); } })());
  for (const [level, name] of [['error', 'error'], ['warn', 'warning']]) {
    const native = console[level];
    console[level] = function (...args) {
      problems.push(`console ${name}: ${args.map(text).join(' ')}`);
      return native.apply(this, args);
    };
  }
  addEventListener('error', (e) => {
    if (e.target === window || e instanceof ErrorEvent) problems.push(`page error: ${e.message}`);
    else problems.push(`failed to load: <${e.target.localName}> ${e.target.src ?? e.target.href ?? ''}`);
  }, true);
  addEventListener('unhandledrejection', (e) => problems.push(`page error: ${text(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) => problems.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
}

// engines(): what the three engines' tests (engines/everywhere.js) ask of a page, as
// window.__engines, since their drivers can only send it functions and JSON.
//   ready(tag)        bring the figure into view until it has drawn (figures above it
//                     grow as they start); its worker answered; two frames
//   fingerprint(tag)  its summary, markup and canvases' pixels, hashed
//   settled(tag)      once its worker has answered and two frames have passed: its fingerprint
//   controls(tag)     its controls a reader reaches, [{ i, kind, label, ways, linkable }]:
//                     `ways` how each is worked ('pointer' or a key), in order
//   point(tag, i)     where a pointer works control i (a slider: away from its value)
//   focus(tag, i)     keyboard focus on control i (a radio group: its checked option)
//   downloads(tag)    what its SVG and PNG buttons download: { svg, svgParses, png: [w, h] }
//   layout(tag)       its box and its main parts' boxes, relative to it
export function engines() {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const figure = (tag) => {
    const e = document.querySelector(tag);
    if (!e) throw new Error(`no ${tag} on the page`);
    return e;
  };
  const started = (e) => e.hasAttribute('data-ready') || e.hasAttribute('data-error');
  async function ready(tag, { timeout = 90_000 } = {}) {
    const e = figure(tag);
    const until = Date.now() + timeout;
    while (!started(e)) {
      if (Date.now() > until) {
        throw new Error(`${tag} did not draw within ${timeout / 1000} s (${customElements.get(tag) ? 'defined' : 'not defined'}, `
          + `${Math.round(e.getBoundingClientRect().top)} px from the top, page ${document.visibilityState}, ${innerWidth} x ${innerHeight})`);
      }
      e.scrollIntoView({ block: 'center', behavior: 'instant' });
      // until it starts, or a quarter second (a figure above may have grown and pushed it away)
      await new Promise((resolve) => {
        const seen = new MutationObserver(() => { if (started(e)) { seen.disconnect(); resolve(); } });
        seen.observe(e, { attributes: true });
        setTimeout(() => { seen.disconnect(); resolve(); }, 250);
      });
    }
    if (e.hasAttribute('data-error')) throw new Error(`${tag} failed: ${e.shadowRoot.textContent.slice(0, 300)}`);
    await settle(e);
  }
  async function settle(e) {
    await e.settled?.();
    await frames();
  }
  const root = (tag) => figure(tag).shadowRoot.firstElementChild;
  const all = (tag) => [...root(tag).querySelectorAll('input, button, summary, [tabindex="0"], textarea')];
  // (a hash: the markup of a large figure is slow to hand to a driver)
  function fingerprint(tag) {
    const e = figure(tag);
    const text = `${e.summary}\n${e.shadowRoot.innerHTML}\n${[...e.shadowRoot.querySelectorAll('canvas')].map(window.__fig.pixels).join()}`;
    let h = 0x811c9dc5;
    for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
    return `${text.length}:${(h >>> 0).toString(16)}`;
  }
  // buttons whose work a generic test cannot judge, or that start long or lasting work
  const SKIP = /^(Copy link|SVG|PNG|Show|Back to (the )?demo|Reset weights|Measure up to|Stop|Play all steps|Pause|Continue training|Start over)/;
  const WAYS = {
    range: ['key', 'pointer'], radio: ['pointer', 'key'], checkbox: ['pointer', 'Space'], button: ['pointer'], summary: ['pointer'],
    pick: ['ArrowRight', 'pick'], handle: ['ArrowUp'], roving: ['ArrowRight', 'pointer'],
  };
  function controls(tag) {
    const seen = new Set();
    return all(tag).flatMap((c, i) => {
      if (!c.checkVisibility() || c.disabled || c.tabIndex < 0 || c.closest('.tools, [hidden]') || c.type === 'file' || c.localName === 'textarea') return [];
      const label = (c.getAttribute('aria-label') ?? (c.labels?.[0] ?? c).textContent).trim().slice(0, 40);
      if (c.localName === 'button' && c.getAttribute('role') !== 'radio' && (SKIP.test(label) || c.getAttribute('aria-pressed') === 'true' || c.getAttribute('aria-current') === 'true')) return [];
      const kind = c.localName === 'input' ? c.type : c.localName === 'svg' ? (c.classList.contains('pick') ? 'pick' : 'matrix')
        : c.getAttribute('role') === 'slider' ? 'handle' : c.getAttribute('role') === 'radio' ? 'roving' : c.localName === 'button' || c.getAttribute('role') === 'button' ? 'button' : c.localName;
      if (!WAYS[kind]) return [];
      const group = kind === 'radio' ? c.name : kind === 'roving' ? c.parentElement : null;
      if (group) {
        if (seen.has(group)) return [];
        seen.add(group);
      }
      return [{ i, kind, label, ways: WAYS[kind], linkable: ['range', 'radio', 'checkbox'].includes(kind) && !!(c.dataset.prop ?? c.closest('[data-prop]')) }];
    });
  }
  function control(tag, i) {
    const c = all(tag)[i];
    if (c.type === 'radio') return c.closest('fieldset')?.querySelector('input:checked') ?? c;
    if (c.getAttribute('role') === 'radio') return c.parentElement.querySelector('[aria-checked=true]') ?? c;
    return c;
  }
  function focus(tag, i) {
    const c = control(tag, i);
    c.scrollIntoView({ block: 'center', behavior: 'instant' });
    c.focus();
    // the key that moves it: a slider to the end it is farthest from; a radio group to
    // the next option, or from the last to the one before (WebKit does not wrap around)
    if (c.type === 'range') return Number(c.value) - Number(c.min) > (Number(c.max) - Number(c.min)) / 2 ? 'Home' : 'End';
    if (c.type === 'radio') return c === [...c.closest('fieldset').querySelectorAll('input')].at(-1) ? 'ArrowLeft' : 'ArrowRight';
    return null;
  }
  function point(tag, i) {
    let c = control(tag, i);
    if (c.type === 'radio') c = [...c.closest('fieldset').querySelectorAll('input')].find((o) => !o.checked) ?? c;
    if (c.getAttribute('role') === 'radio') c = [...c.parentElement.children].find((o) => o.getAttribute('aria-checked') !== 'true') ?? c;
    const target = c.type === 'radio' && c.labels?.[0] ? c.labels[0] : c;
    target.scrollIntoView({ block: 'center', behavior: 'instant' });
    const r = target.getBoundingClientRect();
    if (c.type !== 'range') return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    const at = (Number(c.value) - Number(c.min)) / (Number(c.max) - Number(c.min) || 1);
    return { x: r.left + r.width * (at > 0.5 ? 0.1 : 0.9), y: r.top + r.height / 2 };
  }
  async function downloads(tag) {
    const e = figure(tag);
    const got = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () { if (this.download) got.push(this.href); else click.call(this); };
    try {
      const button = (name) => [...e.shadowRoot.querySelectorAll('.tools button')].find((b) => b.textContent.trim() === name);
      button('SVG').click();
      button('PNG').click();
      for (let k = 0; k < 400 && got.length < 2; k++) await new Promise((r) => setTimeout(r, 25));
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    if (got.length < 2) throw new Error(`${tag}: ${got.length} of the 2 downloads came`);
    const svg = await (await fetch(got[0])).text();
    const bitmap = await createImageBitmap(await (await fetch(got[1])).blob());
    const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
    // the figure's one-letter MathML identifiers, drawn italic: in the file as italic letters
    const italic = (c) => (c === 'h' ? '\u210e' : String.fromCodePoint((c <= 'Z' ? 0x1d434 - 65 : 0x1d44e - 97) + c.charCodeAt(0)));
    const letters = [...new Set([...e.shadowRoot.querySelectorAll('mi:not([mathvariant])')].filter((m) => m.checkVisibility() && /^[A-Za-z]$/.test(m.textContent))
      .map((m) => m.textContent))];
    return { svg: svg.slice(0, 300), svgParses: !parsed.querySelector('parsererror'), png: [bitmap.width, bitmap.height],
      upright: letters.filter((c) => !svg.includes(italic(c))) };
  }
  const box = (r, o) => ({ x: Math.round(r.left - o.left), y: Math.round(r.top - o.top), w: Math.round(r.width), h: Math.round(r.height) });
  async function layout(tag) {
    await ready(tag);
    const e = figure(tag);
    // a figure that measures: its sweep over first (its table and notes grow as it runs,
    // and two engines are never at the same point of it)
    for (const until = Date.now() + 120_000; /waiting|running/.test(e.sweep?.phase) && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
    await frames();
    e.scrollIntoView({ block: 'start', behavior: 'instant' });
    await frames();
    const o = e.getBoundingClientRect();
    // its main parts: drawings and control groups, not what they hold
    const parts = [...root(tag).querySelectorAll('svg, canvas, fieldset, input[type=range], textarea, .tools')]
      .filter((p) => p.checkVisibility() && !p.parentElement.closest('svg, fieldset, .tools, .katex') && !p.closest('.katex, [hidden], details:not([open])'))
      .map((p) => ({ part: p.localName + (p.getAttribute('class') ? `.${p.getAttribute('class').split(' ')[0]}` : ''), ...box(p.getBoundingClientRect(), o) }));
    // a segmented choice's legend beside its options, where the row has room for both
    const apart = [...root(tag).querySelectorAll('fieldset.choice')].filter((f) => f.checkVisibility()).flatMap((f) => {
      const [l, opts] = [f.querySelector('legend').getBoundingClientRect(), f.querySelector('.opts').getBoundingClientRect()];
      const room = f.parentElement.getBoundingClientRect().width >= l.width + opts.width + 16;
      return room && Math.abs((l.top + l.bottom) / 2 - (opts.top + opts.bottom) / 2) > 4 ? [f.querySelector('legend').textContent] : [];
    });
    return { ...box(o, { left: 0, top: o.top }), parts, apart };
  }
  window.__engines = { frames, ready, settle: (tag) => settle(figure(tag)), settled: async (tag) => { await settle(figure(tag)); return fingerprint(tag); }, fingerprint, controls, focus, point, downloads, layout };
}

/** The script the test server puts first in every HTML page (and the drivers' init script). */
export const PROBE_SCRIPT = `(${watch})();\n(${probes})();\n(${engines})();\n`;

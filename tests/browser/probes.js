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
  const GENERATED = /^[sc]-\d+$/;
  // the value a control of a declared attribute shows
  const shownValue = (c) => (c.localName === 'fieldset' ? c.querySelector('input:checked')?.value ?? null
    : c.type === 'checkbox' ? c.checked : c.type === 'range' ? c.dataset.value : c.localName === 'input' ? c.value
      : c.getAttribute('role') === 'radiogroup' ? [...c.children].findIndex((b) => b.getAttribute('aria-checked') === 'true')
        : c.textContent);
  async function snapshot(el, { markup = true } = {}) {
    await el.settled?.();
    const root = el.shadowRoot.firstElementChild;
    root.querySelectorAll('details').forEach((d) => { d.open = true; });
    const controls = [...root.querySelectorAll('input, button')].filter((c) => !c.closest('.tools')).map((c) => [
      c.type, c.type === 'checkbox' || c.type === 'radio' ? c.checked : c.type === 'range' ? c.value : c.type === 'text' ? c.value : c.textContent,
      c.disabled, c.closest('[hidden]') !== null]);
    const props = [...root.querySelectorAll('[data-prop]')].filter((c) => !c.closest('.tools')).map((c) => [c.dataset.prop, shownValue(c)]);
    let html = '';
    if (markup) {
      const copy = root.cloneNode(true);
      copy.querySelectorAll('.tools, .sr-only').forEach((n) => n.remove());
      // the caption and outline of the cell under the pointer or focus
      copy.querySelectorAll('.mat .cap').forEach((c) => { c.textContent = ''; });
      copy.querySelectorAll('.mat rect.on').forEach((r) => r.remove());
      for (const n of copy.querySelectorAll('*')) {
        for (const a of ['id', 'for', 'name']) if (GENERATED.test(n.getAttribute(a) ?? '')) n.removeAttribute(a);
        if (n.localName === 'input') { n.removeAttribute('checked'); n.removeAttribute('value'); } // their live values are in `controls`
        if (n.getAttribute('class') === '') n.removeAttribute('class');
      }
      // markup with each element's attributes in name order (the order they were set in does not matter)
      const serialize = (n) => (n.nodeType === 3 ? n.textContent : n.nodeType !== 1 ? ''
        : `<${n.localName}${[...n.attributes].map((a) => ` ${a.name}="${a.value}"`).sort().join('')}>${[...n.childNodes].map(serialize).join('')}</${n.localName}>`);
      html = [...copy.childNodes].map(serialize).join('');
    }
    const canvases = [...root.querySelectorAll('canvas')].map((c) => c.toDataURL());
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
  window.__fig = { frames, snapshot, twin, textBoxes, contrasts };
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

/** The script the test server puts first in every HTML page. */
export const PROBE_SCRIPT = `(${watch})();\n(${probes})();\n`;

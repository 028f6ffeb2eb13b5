// export.js: download what a figure draws (its SVG drawings, canvases, title
// and matrix captions) as one SVG file or one PNG image.
//
// Both are laid out as on screen. Colours are resolved from the figure's
// CSS (custom properties, colour mixes) so the files stand alone. The PNG is
// painted primitive by primitive onto a canvas instead of loading the SVG as
// an image, because a strict Content-Security-Policy forbids images from
// blob: and data: URLs.
import { h } from './dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STYLE_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-linecap',
  'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline'];
const TEXT_SELECTOR = '.title, .mat .cap, h4, .legend';
const SHAPES = 'rect, line, circle, polyline, polygon, path, text';

const visible = (el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && el.closest('details:not([open])') === null;
};

/** What the figure draws: {width, height, background, svgs, canvases, texts}, positions relative to `root`. */
export function collect(root) {
  const box = root.getBoundingClientRect();
  const at = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left - box.left, y: r.top - box.top, width: r.width, height: r.height };
  };
  const all = (sel) => [...root.querySelectorAll(sel)].filter(visible);
  // every text node of the labelled HTML parts, placed where it is drawn
  const texts = all(TEXT_SELECTOR).filter((el) => !el.closest('svg')).flatMap((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('svg')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      out.push({ text: node.textContent, style: getComputedStyle(node.parentElement), x: r.left - box.left, y: r.top - box.top, height: r.height });
    }
    return out;
  });
  return {
    width: Math.ceil(box.width),
    height: Math.ceil(box.height),
    background: getComputedStyle(root.getRootNode().host ?? root).backgroundColor,
    origin: { x: box.left, y: box.top },
    svgs: all('svg').filter((el) => !el.parentElement.closest('svg, .katex')).map((el) => ({ el, ...at(el) })),
    canvases: all('canvas').map((el) => ({ el, ...at(el) })),
    texts,
  };
}

// ---- SVG ----------------------------------------------------------------

function inlineStyles(src, dst) {
  if (src.nodeType !== 1) return;
  const cs = getComputedStyle(src);
  dst.setAttribute('style', STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';'));
  dst.removeAttribute('class');
  dst.removeAttribute('tabindex');
  [...src.childNodes].forEach((c, k) => inlineStyles(c, dst.childNodes[k]));
}

/** The figure as a standalone SVG document (a string). */
export function toSvg(root) {
  const d = collect(root);
  const doc = document.implementation.createDocument(SVG_NS, 'svg');
  const svg = doc.documentElement;
  const el = (tag, attrs) => {
    const e = doc.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  for (const [k, v] of Object.entries({ width: d.width, height: d.height, viewBox: `0 0 ${d.width} ${d.height}` })) svg.setAttribute(k, v);
  svg.append(el('rect', { width: d.width, height: d.height, fill: d.background }));
  for (const t of d.texts) {
    const node = el('text', { x: t.x, y: t.y + t.height / 2, 'dominant-baseline': 'central', fill: t.style.color,
      'font-family': t.style.fontFamily, 'font-size': t.style.fontSize, 'font-weight': t.style.fontWeight });
    node.textContent = t.text;
    svg.append(node);
  }
  for (const c of d.canvases) {
    svg.append(el('image', { x: c.x, y: c.y, width: c.width, height: c.height, href: c.el.toDataURL('image/png'), style: 'image-rendering:pixelated' }));
  }
  for (const s of d.svgs) {
    const copy = doc.importNode(s.el, true);
    inlineStyles(s.el, copy);
    for (const [k, v] of Object.entries({ x: s.x, y: s.y, width: s.width, height: s.height })) copy.setAttribute(k, v);
    svg.append(copy);
  }
  return new XMLSerializer().serializeToString(doc);
}

// ---- PNG ----------------------------------------------------------------

const numbers = (text) => (text.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);

function shapePath(el) {
  const a = (name) => el[name]?.baseVal?.value ?? Number(el.getAttribute(name) ?? 0);
  const p = new Path2D();
  switch (el.localName) {
    case 'rect': p.roundRect?.(a('x'), a('y'), a('width'), a('height'), a('rx')) ?? p.rect(a('x'), a('y'), a('width'), a('height')); break;
    case 'line': p.moveTo(a('x1'), a('y1')); p.lineTo(a('x2'), a('y2')); break;
    case 'circle': p.arc(a('cx'), a('cy'), a('r'), 0, 2 * Math.PI); break;
    case 'polyline': case 'polygon': {
      const v = numbers(el.getAttribute('points') ?? '');
      for (let k = 0; k + 1 < v.length; k += 2) (k ? p.lineTo : p.moveTo).call(p, v[k], v[k + 1]);
      if (el.localName === 'polygon') p.closePath();
      break;
    }
    case 'path': return new Path2D(el.getAttribute('d') ?? '');
    default: return null;
  }
  return p;
}

function paint(ctx, el, d, scale) {
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility === 'hidden') return;
  const m = el.getScreenCTM();
  ctx.setTransform(scale * m.a, scale * m.b, scale * m.c, scale * m.d, scale * (m.e - d.origin.x), scale * (m.f - d.origin.y));
  const alpha = Number(cs.opacity);
  if (el.localName === 'text') {
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    ctx.textAlign = { middle: 'center', end: 'right' }[cs.textAnchor] ?? 'left';
    ctx.textBaseline = /central|middle/.test(cs.dominantBaseline) ? 'middle' : 'alphabetic';
    ctx.globalAlpha = alpha * Number(cs.fillOpacity);
    ctx.fillStyle = cs.fill;
    ctx.fillText(el.textContent, numbers(el.getAttribute('x') ?? '0')[0] ?? 0, numbers(el.getAttribute('y') ?? '0')[0] ?? 0);
    return;
  }
  const path = shapePath(el);
  if (!path) return;
  if (cs.fill !== 'none' && el.localName !== 'line' && el.localName !== 'polyline') {
    ctx.globalAlpha = alpha * Number(cs.fillOpacity);
    ctx.fillStyle = cs.fill;
    ctx.fill(path);
  }
  if (cs.stroke !== 'none') {
    ctx.globalAlpha = alpha * Number(cs.strokeOpacity);
    ctx.strokeStyle = cs.stroke;
    ctx.lineWidth = parseFloat(cs.strokeWidth) || 1;
    ctx.lineCap = cs.strokeLinecap;
    ctx.setLineDash(cs.strokeDasharray === 'none' ? [] : numbers(cs.strokeDasharray));
    ctx.stroke(path);
  }
}

/** The figure painted onto a canvas at `scale` device pixels per CSS pixel. */
export function toCanvas(root, scale = 2) {
  const d = collect(root);
  const canvas = document.createElement('canvas');
  canvas.width = d.width * scale;
  canvas.height = d.height * scale;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = d.background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (const t of d.texts) {
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.globalAlpha = 1;
    ctx.font = `${t.style.fontWeight} ${t.style.fontSize} ${t.style.fontFamily}`;
    ctx.fillStyle = t.style.color;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillText(t.text, t.x, t.y + t.height / 2);
  }
  for (const c of d.canvases) {
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    ctx.globalAlpha = 1;
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(c.el, c.x, c.y, c.width, c.height);
  }
  for (const s of d.svgs) for (const el of s.el.querySelectorAll(SHAPES)) paint(ctx, el, d, scale);
  return canvas;
}

// ---- download -----------------------------------------------------------

function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** "SVG" and "PNG" buttons that download what `figure` (an element with a shadow root) draws. */
export function exportButtons(figure) {
  const root = () => figure.shadowRoot.firstElementChild;
  const name = (ext) => `${figure.localName}.${ext}`;
  return [
    h('button', { type: 'button', title: 'Download this figure as SVG', onclick: () => download(new Blob([toSvg(root())], { type: 'image/svg+xml' }), name('svg')) }, 'SVG'),
    h('button', { type: 'button', title: 'Download this figure as PNG', onclick: () => toCanvas(root()).toBlob((b) => download(b, name('png')), 'image/png') }, 'PNG'),
  ];
}

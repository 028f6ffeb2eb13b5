// export.js: download a figure as the reader sees it, as one SVG file or one
// PNG image: its text, panels, swatches, controls, SVG drawings and canvases.
//
// collect() walks the figure once and turns what is on screen into a short
// list of drawing items in CSS pixels (boxes, lines of text, controls,
// drawings, canvases); toSvg() and toCanvas() each draw that list. Colours
// and fonts come from the computed styles, so the files stand alone. The PNG
// is painted item by item onto a canvas instead of loading an SVG as an
// image, because a strict Content-Security-Policy (img-src 'self') forbids
// images from blob: and data: URLs.
import { ascent, paintItems, placed } from './draw/drawing.js';
import { mathAuto } from './mathml-core.js';
// Loaded by a figure's Download buttons (export-buttons.js) when first pressed: it
// reaches what every figure does, so in the bundle what it shares with the figures
// stays in their one common chunk, not split out by who imports what (as kit.js).
import './figure-element.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const STYLE_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'stroke-linecap',
  'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline',
  'visibility', 'overflow']; // (a figure's rotated labels may stand outside its drawing)
const SHAPES = 'rect, line, circle, polyline, polygon, path, text';
const SKIP = '.tools, .sr-only, .katex-mathml, script, style, template';
const MARGIN = 12; // px of background around the figure

const clear = (c) => !c || c === 'transparent' || /rgba\(.*,\s*0\)$/.test(c);
const px = (v) => parseFloat(v) || 0;

/**
 * The lines a text node is drawn on: [{text, x, y, width, height}], found by
 * measuring word by word (a node that wraps spans several lines).
 */
function textLines(node, origin) {
  const range = document.createRange();
  const pre = /^pre/.test(getComputedStyle(node.parentElement).whiteSpace);
  const words = [...node.textContent.matchAll(pre ? /[^\n]+/g : /\S+/g)];
  const lines = [];
  for (const w of words) {
    range.setStart(node, w.index);
    range.setEnd(node, w.index + w[0].length);
    const r = range.getBoundingClientRect();
    if (!r.width) continue;
    const line = lines.at(-1);
    if (line && Math.abs(line.top - r.top) < r.height / 2 && r.left >= line.right - 1) {
      line.end = w.index + w[0].length;
      line.right = r.right;
    } else {
      lines.push({ start: w.index, end: w.index + w[0].length, left: r.left, right: r.right, top: r.top, height: r.height });
    }
  }
  const text = node.textContent;
  return lines.map((l) => ({ text: pre ? text.slice(l.start, l.end) : text.slice(l.start, l.end).replace(/\s+/g, ' '),
    x: l.left - origin.x, y: l.top - origin.y, width: l.right - l.left, height: l.height }));
}

function borders(cs, box) {
  const sides = ['Top', 'Right', 'Bottom', 'Left'].map((s) => ({
    width: px(cs[`border${s}Width`]), style: cs[`border${s}Style`], color: cs[`border${s}Color`] }));
  const shown = sides.filter((s) => s.width > 0 && s.style !== 'none' && s.style !== 'hidden' && !clear(s.color));
  if (!shown.length) return [];
  const same = shown.length === 4 && shown.every((s) => s.width === shown[0].width && s.color === shown[0].color && s.style === shown[0].style);
  const dash = (s) => (s.style === 'dashed' ? [3 * s.width, 2 * s.width] : s.style === 'dotted' ? [s.width, s.width] : []);
  if (same) {
    const w = shown[0].width;
    return [{ kind: 'box', ...box, x: box.x + w / 2, y: box.y + w / 2, width: box.width - w, height: box.height - w,
      radius: Math.max(0, box.radius - w / 2), stroke: shown[0].color, lineWidth: w, dash: dash(shown[0]) }];
  }
  const [t, r, b, l] = sides;
  const { x, y, width: W, height: H } = box;
  const segment = (s, x1, y1, x2, y2) => (s.width > 0 && s.style !== 'none' && !clear(s.color)
    ? [{ kind: 'line', x1, y1, x2, y2, stroke: s.color, lineWidth: s.width, dash: dash(s), opacity: box.opacity }] : []);
  return [...segment(t, x, y + t.width / 2, x + W, y + t.width / 2), ...segment(r, x + W - r.width / 2, y, x + W - r.width / 2, y + H),
    ...segment(b, x, y + H - b.width / 2, x + W, y + H - b.width / 2), ...segment(l, x + l.width / 2, y, x + l.width / 2, y + H)];
}

function intersect(a, b) {
  if (!a) return { x: b.x, y: b.y, width: b.width, height: b.height };
  const [x, y] = [Math.max(a.x, b.x), Math.max(a.y, b.y)];
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x), height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y) };
}

/** A range slider or a checkbox as simple shapes, the way it shows its value. */
function control(el, cs, box) {
  const accent = cs.accentColor === 'auto' ? cs.color : cs.accentColor;
  const muted = 'rgb(160, 164, 172)';
  if (el.type === 'range') {
    const [min, max, v] = [px(el.min || 0), px(el.max || 100), px(el.value)];
    const f = max > min ? (v - min) / (max - min) : 0;
    const r = 7;
    const cy = box.y + box.height / 2;
    const x0 = box.x + r;
    const x1 = box.x + box.width - r;
    const xt = x0 + f * (x1 - x0);
    return [
      { kind: 'box', x: x0, y: cy - 2, width: x1 - x0, height: 4, radius: 2, fill: muted, opacity: box.opacity },
      { kind: 'box', x: x0, y: cy - 2, width: xt - x0, height: 4, radius: 2, fill: accent, opacity: box.opacity },
      { kind: 'box', x: xt - r, y: cy - r, width: 2 * r, height: 2 * r, radius: r, fill: accent, opacity: box.opacity },
    ];
  }
  if (el.type === 'checkbox' || el.type === 'radio') {
    const round = el.type === 'radio' ? box.width / 2 : 3;
    if (!el.checked) return [{ kind: 'box', ...box, x: box.x + 0.5, y: box.y + 0.5, width: box.width - 1, height: box.height - 1, radius: round, stroke: muted, lineWidth: 1 }];
    const { x, y, width: w, height: hh } = box;
    return [{ kind: 'box', ...box, radius: round, fill: accent },
      { kind: 'polyline', points: [[x + 0.25 * w, y + 0.5 * hh], [x + 0.43 * w, y + 0.7 * hh], [x + 0.76 * w, y + 0.3 * hh]], stroke: '#ffffff', lineWidth: 2, opacity: box.opacity }];
  }
  return [];
}

/** What the figure shows, as drawing items in CSS pixels relative to `root` and a margin: {width, height, origin, background, items}. */
export function collect(root) {
  const rootBox = root.getBoundingClientRect();
  const origin = { x: rootBox.left - MARGIN, y: rootBox.top - MARGIN };
  const items = [];
  // `clip`: the box that ancestors with hidden overflow leave visible (null: nothing clips)
  const walk = (el, opacity, clip) => {
    if (el.matches(SKIP)) return;
    const cs = getComputedStyle(el);
    // checkVisibility also hides the content of a closed <details>
    if (cs.display === 'none' || cs.visibility === 'hidden' || !el.getClientRects().length || el.checkVisibility?.() === false) return;
    const alpha = opacity * Number(cs.opacity);
    if (alpha === 0) return;
    const r = el.getBoundingClientRect();
    const box = { x: r.left - origin.x, y: r.top - origin.y, width: r.width, height: r.height, radius: px(cs.borderTopLeftRadius), opacity: alpha, clip };
    const add = (...list) => items.push(...list.map((it) => ({ clip, ...it })));
    if (el.localName === 'svg') return void add({ kind: 'svg', el, ...box });
    if (el.localName === 'canvas') {
      // a canvas that keeps its drawing as items (drawing.js) is written as those: its text stays text
      const d = el.drawing;
      return void add(...(d ? placed(d.items, box.x, box.y, box.width / d.width).map((it) => ({ ...it, opacity: alpha * (it.opacity ?? 1) }))
        : [{ kind: 'canvas', el, ...box }]));
    }
    if (el.localName === 'input') return void add(...control(el, cs, box));
    if (!clear(cs.backgroundColor)) add({ kind: 'box', ...box, fill: cs.backgroundColor });
    add(...borders(cs, box));
    if (cs.outlineStyle !== 'none' && px(cs.outlineWidth) > 0 && !el.matches(':focus-visible')) {
      const [w, o] = [px(cs.outlineWidth), px(cs.outlineOffset)];
      add({ kind: 'box', x: box.x - o - w / 2, y: box.y - o - w / 2, width: box.width + 2 * o + w, height: box.height + 2 * o + w,
        radius: box.radius, stroke: cs.outlineColor, lineWidth: w, opacity: alpha });
    }
    if (el.localName === 'textarea') return;
    const inner = cs.overflowX === 'visible' && cs.overflowY === 'visible' ? clip : intersect(clip, box);
    const font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    for (const child of el.childNodes) {
      if (child.nodeType === 1) walk(child, alpha, inner);
      else if (child.nodeType === 3 && child.textContent.trim()) {
        // a MathML identifier of one letter is drawn italic (math-auto): as its italic character
        const mi = el.localName === 'mi' && !el.hasAttribute('mathvariant');
        for (const line of textLines(child, origin)) items.push({ kind: 'text', ...line, text: mi ? mathAuto(line.text) : line.text, font, color: cs.color, ascent: ascent(font), opacity: alpha, clip: inner });
      }
    }
  };
  walk(root, 1, null);
  const host = root.getRootNode().host ?? root;
  return { width: Math.ceil(rootBox.width + 2 * MARGIN), height: Math.ceil(rootBox.height + 2 * MARGIN), origin,
    background: getComputedStyle(host).backgroundColor, items };
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
    for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
    return e;
  };
  for (const [k, v] of Object.entries({ width: d.width, height: d.height, viewBox: `0 0 ${d.width} ${d.height}` })) svg.setAttribute(k, v);
  svg.append(el('rect', { width: d.width, height: d.height, fill: d.background }));
  const faded = (it) => (it.opacity < 1 ? it.opacity : null);
  const defs = el('defs', {});
  svg.append(defs);
  const clips = new Map();
  for (const it of d.items) {
    let target = svg;
    if (it.clip) {
      const key = [it.clip.x, it.clip.y, it.clip.width, it.clip.height].join(',');
      if (!clips.has(key)) {
        clips.set(key, `clip${clips.size}`);
        const path = el('clipPath', { id: clips.get(key) });
        path.append(el('rect', { x: it.clip.x, y: it.clip.y, width: it.clip.width, height: it.clip.height }));
        defs.append(path);
      }
      target = el('g', { 'clip-path': `url(#${clips.get(key)})` });
      svg.append(target);
    }
    if (it.kind === 'box') {
      target.append(el('rect', { x: it.x, y: it.y, width: it.width, height: it.height, rx: it.radius || null, opacity: faded(it),
        fill: it.fill ?? 'none', stroke: it.stroke, 'stroke-width': it.lineWidth, 'stroke-dasharray': it.dash?.length ? it.dash.join(' ') : null }));
    } else if (it.kind === 'line') {
      target.append(el('line', { x1: it.x1, y1: it.y1, x2: it.x2, y2: it.y2, stroke: it.stroke, 'stroke-width': it.lineWidth, opacity: faded(it),
        'stroke-dasharray': it.dash?.length ? it.dash.join(' ') : null }));
    } else if (it.kind === 'polyline') {
      target.append(el('polyline', { points: it.points.map((p) => p.join(',')).join(' '), fill: 'none', stroke: it.stroke, 'stroke-width': it.lineWidth }));
    } else if (it.kind === 'text') {
      const t = el('text', { x: it.x, y: it.y + it.ascent, fill: it.color, style: `font:${it.font};white-space:pre`, opacity: faded(it) });
      t.textContent = it.text;
      target.append(t);
    } else if (it.kind === 'canvas') {
      target.append(el('image', { x: it.x, y: it.y, width: it.width, height: it.height, href: it.el.toDataURL('image/png'),
        opacity: faded(it), style: 'image-rendering:pixelated' }));
    } else if (it.kind === 'svg') {
      const copy = doc.importNode(it.el, true);
      inlineStyles(it.el, copy);
      for (const [k, v] of Object.entries({ x: it.x, y: it.y, width: it.width, height: it.height })) copy.setAttribute(k, v);
      if (it.opacity < 1) copy.setAttribute('opacity', it.opacity);
      target.append(copy);
    }
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

// One SVG primitive, placed by its screen transform (viewBox, transforms) relative to `origin`.
function paintShape(ctx, el, origin, scale, opacity) {
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility === 'hidden') return;
  const m = el.getScreenCTM();
  ctx.setTransform(scale * m.a, scale * m.b, scale * m.c, scale * m.d, scale * (m.e - origin.x), scale * (m.f - origin.y));
  const alpha = opacity * Number(cs.opacity);
  if (el.localName === 'text') {
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    ctx.textAlign = { middle: 'center', end: 'right' }[cs.textAnchor] ?? 'left';
    ctx.textBaseline = /central|middle/.test(cs.dominantBaseline) ? 'middle' : 'alphabetic';
    ctx.globalAlpha = alpha * Number(cs.fillOpacity);
    ctx.fillStyle = cs.fill;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''); // not a <title> tooltip
    ctx.fillText(own, numbers(el.getAttribute('x') ?? '0')[0] ?? 0, numbers(el.getAttribute('y') ?? '0')[0] ?? 0);
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
  paintItems(ctx, d.items, scale, (c, it) => {
    if (it.kind === 'canvas') {
      c.imageSmoothingEnabled = false;
      c.drawImage(it.el, it.x, it.y, it.width, it.height);
    } else if (it.kind === 'svg') {
      for (const el of it.el.querySelectorAll(SHAPES)) paintShape(c, el, d.origin, scale, it.opacity);
    }
  });
  return canvas;
}

// ---- download -----------------------------------------------------------

function save(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** Download what `root` (a figure's root element) shows, as a `kind` ('svg' or 'png') file named `name`. */
export function download(kind, root, name) {
  if (kind === 'svg') save(new Blob([toSvg(root)], { type: 'image/svg+xml' }), name);
  else toCanvas(root).toBlob((b) => save(b, name), 'image/png');
}

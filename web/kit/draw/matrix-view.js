// matrix.view.js: a matrix drawn as coloured squares (the project's notation).
//
// Colour comes from scale.js only. The squares and their values are painted
// on a canvas: a slider step recolours and relabels every cell, and the
// browser restyles and lays out a hundred SVG or HTML texts in several
// milliseconds where a canvas paints them in a fraction of one. An SVG on
// top keeps what a reader points at or a page styles: the axis labels, the
// seams between cells, the outlines of marked and active cells, and one
// transparent square over them all that finds the cell under the pointer
// (a rect per cell made a change of shape rebuild hundreds of elements).
// Hover, tap or keyboard focus shows a cell's value in the
// caption; arrow keys move between cells, Enter or Space "picks" a cell (for
// figures that react to a click on a cell). The SVG carries the matrix's
// accessible name (role img), as before: its squares were never read out.
import { h, s, reconcile, setAttr, setText } from '../dom.js';
import { labelFor, maxAbs, rgbColor } from './scale.js';
import { rgbText, theme } from './colors.js';
import { num, roundShares } from '../format.js';
import { centredText, lineBox } from './drawing.js';

const LABEL_CHAR = 6.6; // px per character of an axis label at 11px
const VALUE_PX = 10; // the values' font size

const POOL = 4; // canvases per matrix view at most (a four-way choice goes round without painting)
const MISSES = 3; // pictures kept in a row that no change came back to: then none (a slider's), until one does
const WARM = 2 * POOL; // pictures kept after one was shown again: a switch's or a stepper's keep coming back, a slider's seldom

const themeIds = new WeakMap(); // a theme's colours (colors.theme's object) -> a number, for the canvases' keys
let themes = 0;
const themeId = (colours) => {
  if (!themeIds.has(colours)) themeIds.set(colours, ++themes);
  return themeIds.get(colours);
};

function asRows(M) {
  if (Array.isArray(M)) return M.map((r) => Array.from(r));
  return Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
}

/**
 * Paint `cells` ({i, j, rgb, fill, label, ink}; label and ink may be null) onto
 * `canvas` as n x m squares of `cell` CSS px. The canvas also offers them
 * as `canvas.drawing` (drawing.js items, made when asked): for downloads,
 * which keep the values as text, and for tests.
 */
const contexts = new WeakMap(); // canvas -> its 2D context (asking again costs more than painting a few cells)

function paintCells(canvas, cells, { n, m, cell, font, values }) {
  const pixelwise = isPixelwise(cells.length, values);
  const [w, hgt] = canvasSize(cells.length, { n, m, cell, values });
  if (canvas.width !== w || canvas.height !== hgt) [canvas.width, canvas.height] = [w, hgt];
  if (canvas.classList.contains('pixels') !== pixelwise) canvas.classList.toggle('pixels', pixelwise);
  let ctx = contexts.get(canvas);
  if (!ctx) contexts.set(canvas, ctx = canvas.getContext('2d'));
  ctx.setTransform(w / (m * cell), 0, 0, hgt / (n * cell), 0, 0);
  if (pixelwise) paintPixels(ctx, cells, { n, m }); // (putImageData: pixels, whatever the transform)
  else if (cells.length < n * m) ctx.clearRect(0, 0, m * cell, n * cell); // (a matrix smaller than its view: the rest stays empty)
  // a colour is set only when it changes: the canvas parses every colour string it is given
  let style = '';
  const use = (color) => { if (color !== style) ctx.fillStyle = style = color; };
  for (const c of pixelwise ? [] : cells) {
    use(c.fill);
    ctx.fillRect(c.j * cell, c.i * cell, cell, cell);
  }
  if (values) { // (a font set is parsed: not for a view without values)
    ctx.font = font;
    ctx.textAlign = 'center';
    const { ascent, height } = lineBox(font);
    const baseline = (i) => (i + 0.5) * cell - height / 2 + ascent; // where centredText puts it
    for (const ink of new Set(cells.map((c) => c.ink))) {
      if (!ink) continue;
      use(ink);
      for (const c of cells) if (c.ink === ink) ctx.fillText(c.label, (c.j + 0.5) * cell, baseline(c.i));
    }
  }
  canvas.drawing = {
    width: m * cell,
    height: n * cell,
    get items() {
      return cells.flatMap((c) => [{ kind: 'box', x: c.j * cell, y: c.i * cell, width: cell, height: cell, fill: c.fill },
        ...(c.label ? [centredText(c.label, (c.j + 0.5) * cell, (c.i + 0.5) * cell, font, c.ink)] : [])]);
    },
  };
}

// A large matrix without values (a mask, a map of weights) is painted as
// one canvas pixel per cell, which the page scales up without smoothing
// (image-rendering: pixelated, styles.js): square by square, the colour
// string each one sets (parsed by the canvas) cost more than the squares
// (efficient's 32 x 32 windows), and a canvas as large as the screen's
// pixels costs its memory and a clearing pass; a small matrix is quicker
// square by square, and values need the screen's pixels.
const MANY = 256;
const isPixelwise = (count, values) => count >= MANY && !values;

/** The canvas's size in pixels for `count` cells of an n x m view: one per cell, or as many as the screen's (a download redraws from `drawing`, at its own scale). */
function canvasSize(count, { n, m, cell, values }) {
  const scale = isPixelwise(count, values) ? 1 / cell : globalThis.devicePixelRatio || 1;
  return [m * cell, n * cell].map((v) => Math.round(v * scale));
}

function paintPixels(ctx, cells, { n, m }) {
  const image = new ImageData(m, n); // (cells past M's stay transparent)
  const { data } = image;
  for (const c of cells) {
    const at = (c.i * m + c.j) * 4;
    data[at] = c.rgb[0];
    data[at + 1] = c.rgb[1];
    data[at + 2] = c.rgb[2];
    data[at + 3] = 255;
  }
  ctx.putImageData(image, 0, 0); // (every pixel replaced, the empty ones too)
}

/** Copy canvas `from`'s pixels into `to` (the same size). */
function copy(from, to) {
  let ctx = contexts.get(to);
  if (!ctx) contexts.set(to, ctx = to.getContext('2d'));
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalCompositeOperation = 'copy'; // (replaces every pixel: no clearing pass first)
  ctx.drawImage(from, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
}

/** Whether canvases `a` and `b` have the same size in pixels. */
const sameSize = (a, b) => a.width === b.width && a.height === b.height;

/**
 * matrixView({t, name, cell, values, rowLabels, colLabels, digits, shares, onpick, describe, size})
 * returns {el, update(M, {max, marks, groups})}. With `size` ({rows, cols},
 * either optional) the view keeps that shape whatever M's: M's cells are
 * drawn from the top left, the rest is left empty and its labels dimmed. A
 * stepper that grows a matrix then repaints it without laying out a new
 * shape (new labels, a new SVG size: ~3 ms at a phone's speed per matrix). `marks` is a Set of "i,j" cells to
 * outline; with `groups: true`, update's `groups: h` draws a bar in each
 * head's colour under every block of cols/h columns. `shares: true` marks
 * rows of attention weights: they are printed so that each row adds up to 1
 * (format.roundShares). Value labels are black or white, whichever
 * contrasts more with their cell. `t`: the figure's translator (its aria text).
 */
export function matrixView({ t, name, cell = 22, values = false, rowLabels, colLabels, digits = 2, shares = false, onpick, describe, groups = false, size = {} } = {}) {
  // Labels can also change later: update(M, {rowLabels, colLabels}).
  const cap = h('div', { class: 'cap', 'aria-live': 'polite' });
  const capName = h('span', { class: 'name' }, name);
  const capText = document.createTextNode('');
  // The canvas shown, and up to POOL - 1 canvases off the page that keep
  // what it showed before: a switch, a choice or a stepper that goes back to
  // a state shows it again instead of painting every cell and value anew.
  // A picture of the size shown is copied (into the canvas shown, or out of
  // it): putting another canvas in the page restyles and lays it out, and a
  // slider step would do that for every matrix. A picture of another size
  // (a stepper's next shape) comes in on its own canvas: resizing the canvas
  // shown costs more than that.
  let canvas = h('canvas', { 'aria-hidden': 'true' });
  let shownKey = ''; // what the canvas shows ('' nothing yet)
  const kept = []; // {canvas, key, used, drawing}
  let uses = 0;
  let misses = 0; // repaints in a row that went to a picture not shown lately
  let warm = 0; // new pictures still to keep since a kept one was last shown again
  const lately = []; // the keys of the last POOL pictures shown
  let canvasCss = '';
  let placed = ''; // the canvasCss the canvas shown has
  const svg = s('svg', { tabindex: 0, role: 'img', focusable: 'true', class: onpick ? 'pick' : null });
  const el = h('figure', { class: 'mat' }, [h('div', { class: 'layered' }, [canvas, svg]), cap]);
  let rows = [];
  let active = null; // [i, j]
  let shape = '';
  let marked = ''; // the marks as last drawn
  let geometry = { lw: 0, th: 0, n: 0, m: 0 };
  let font = ''; // the values' canvas font, in the figure's font family
  let max = 1; // the colour scale's full value
  let waiting = false; // for the view to be placed in its figure
  let closedBy = null; // the closed <details> the view waits in, to be painted when it opens
  let caption = ''; // the caption as last written
  const hit = s('rect', { class: 'hit' });
  const seams = s('path', { class: 'seams' });
  const marks = s('g');
  const markRects = []; // marks' rects, reused
  const on = s('rect', { class: 'on', visibility: 'hidden' });
  const bars = s('g', { class: 'groups' });
  let barsFor = ''; // the heads and shape the bars were drawn for
  const barSets = new Map(); // heads and shape -> their bars

  const label = (i, j) => {
    const r = rowLabels?.[i] ?? i + 1;
    const c = colLabels?.[j] ?? j + 1;
    return `${name}[${r}, ${c}] = ${num(rows[i][j], digits)}`;
  };
  const showCaption = () => {
    const [n, m] = [rows.length, rows[0]?.length ?? 0];
    const text = active ? label(...active) : `${n}\u00d7${m}`;
    if (text === caption) return; // (a slider step leaves it as it was)
    caption = text;
    // the caption's nodes are kept: a stepper's new shape changes a text's data, not the caption's elements
    const kids = active ? [capText] : [capName, capText];
    if (cap.childNodes.length !== kids.length || cap.firstChild !== kids[0]) cap.replaceChildren(...kids);
    capText.data = active ? text : ` ${text}`;
  };
  const box = (i, j) => ({ x: geometry.lw + j * cell, y: geometry.th + i * cell, width: cell, height: cell });
  const setActive = (cellIndex) => {
    if (cellIndex?.[0] === active?.[0] && cellIndex?.[1] === active?.[1]) return;
    active = cellIndex;
    if (active && !on.isConnected) svg.insertBefore(on, hit); // made when first needed: many views are never pointed at
    setAttr(on, 'visibility', active ? 'visible' : 'hidden');
    if (active) for (const [k, v] of Object.entries(box(...active))) setAttr(on, k, v);
    showCaption();
  };
  // the cell under a pointer event, or null
  const cellAt = (e) => {
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const [i, j] = [Math.floor((p.y - geometry.th) / cell), Math.floor((p.x - geometry.lw) / cell)];
    return i >= 0 && i < rows.length && j >= 0 && j < rows[0].length ? [i, j] : null; // (not the empty part of a view larger than M)
  };
  hit.addEventListener('pointermove', (e) => setActive(cellAt(e)));
  hit.addEventListener('click', (e) => {
    const c = cellAt(e);
    if (!c) return;
    setActive(c);
    onpick?.(...c);
  });

  const longest = (labels) => Math.max(1, ...labels.map((t) => String(t).length));

  function build(n, m) {
    const lw = rowLabels ? longest(rowLabels) * LABEL_CHAR + 6 : 0;
    const th = colLabels ? longest(colLabels) * LABEL_CHAR * 0.75 + 10 : 0;
    const w = lw + m * cell;
    const hgt = th + n * cell + (groups ? 8 : 0);
    geometry = { lw, th, n, m };
    setAttr(svg, 'viewBox', `0 0 ${w} ${hgt}`); // (an SVG attribute written restyles, even to its value)
    setAttr(svg, 'width', w);
    setAttr(svg, 'height', hgt);
    // the canvas covers the cells, in shares of the SVG: both scale together in a narrow figure
    const pct = (v, of) => `${(100 * v) / of}%`;
    canvasCss = `left:${pct(lw, w)};top:${pct(th, hgt)};width:${pct(m * cell, w)};height:${pct(n * cell, hgt)}`;
    place();
    const kids = [];
    if (rowLabels) rowLabels.forEach((t, i) => kids.push(axisLabel(rowTexts, i, { x: lw - 5, y: th + (i + 0.5) * cell, 'text-anchor': 'end' }, t)));
    for (const [k, v] of Object.entries({ ...box(0, 0), width: m * cell, height: n * cell, 'data-rows': n, 'data-cols': m })) setAttr(hit, k, v);
    const lines = [...Array.from({ length: n + 1 }, (_, i) => `M${lw} ${th + i * cell}h${m * cell}`),
      ...Array.from({ length: m + 1 }, (_, j) => `M${lw + j * cell} ${th}v${n * cell}`)];
    setAttr(seams, 'd', lines.join(''));
    marked = '';
    if (colLabels) {
      colLabels.forEach((t, j) => kids.push(axisLabel(colTexts, j, {
        x: lw + (j + 0.5) * cell, y: th - 6, 'text-anchor': 'start',
        transform: `rotate(-40 ${lw + (j + 0.5) * cell} ${th - 6})`,
      }, t)));
    }
    reconcile(svg, [...kids, seams, ...(groups ? [bars] : []), hit]); // (marks and the active outline join when needed)
  }

  // The axis labels' text elements, kept and moved when the shape changes
  // (a causal mask's next step adds a row and a column: two new labels, not
  // all of them made again).
  const rowTexts = [];
  const colTexts = [];
  function axisLabel(pool, k, attrs, text) {
    const el = (pool[k] ??= s('text', { class: 'lab' }));
    for (const [a, v] of Object.entries(attrs)) setAttr(el, a, v);
    setText(el, text);
    return el;
  }

  // the labels of rows or columns past M's (a view larger than M), dimmed: a class, not a new layout
  function dim(pool, shown) {
    pool.forEach((el, k) => {
      const future = el.isConnected && k >= shown;
      if (el.classList.contains('past') !== future) el.classList.toggle('past', future);
    });
  }

  function drawGroups(h) {
    const { lw, th, n, m } = geometry;
    if (barsFor === `${h}|${shape}`) return;
    barsFor = `${h}|${shape}`;
    const w = (m / h) * cell;
    // (made once per head count and shape: a choice that goes back to a head count puts its bars back)
    bars.replaceChildren(...(barSets.get(barsFor) ?? barSets.set(barsFor, Array.from({ length: h }, (_, k) => s('rect', {
      x: lw + k * w + 1, y: th + n * cell + 3, width: w - 2, height: 4, rx: 2, style: `fill:var(--attention-head-${k + 1})`,
    }))).get(barsFor)));
  }

  svg.addEventListener('pointerleave', () => setActive(null));
  svg.addEventListener('blur', () => setActive(null));
  svg.addEventListener('focus', () => { if (!active) setActive([0, 0]); });
  svg.addEventListener('keydown', (e) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const [i, j] = active ?? [0, 0];
    if (moves[e.key]) {
      const [di, dj] = moves[e.key];
      setActive([Math.max(0, Math.min(rows.length - 1, i + di)), Math.max(0, Math.min(rows[0].length - 1, j + dj))]);
      e.preventDefault();
    } else if ((e.key === 'Enter' || e.key === ' ') && onpick) {
      onpick(i, j);
      e.preventDefault();
    }
  });

  // Paint the cells in the figure's theme: once the view is inside its
  // figure (a view updated before it is placed paints when the task that
  // places it is done).
  function repaint() {
    const root = svg.getRootNode();
    if (!root.host) {
      if (!waiting) {
        waiting = true;
        queueMicrotask(() => { waiting = false; if (svg.getRootNode().host) repaint(); });
      }
      return;
    }
    // a view inside a closed <details> is not seen: painted when it opens
    const closed = svg.closest('details:not([open])');
    if (closed) {
      if (closedBy !== closed) {
        closedBy = closed;
        closed.addEventListener('toggle', () => { closedBy = null; repaint(); }, { once: true });
      }
      return;
    }
    // read once: reading a style after this render's writes costs a restyle
    font ||= `${VALUE_PX}px ${getComputedStyle(svg).fontFamily}`;
    const [n, m] = [geometry.n, geometry.m]; // the view's shape (M's cells from the top left)
    // the same numbers at the same scale in the same theme paint the same pixels
    const dpr = globalThis.devicePixelRatio || 1;
    const colours = theme(root); // (once: asking per cell reads the clock a thousand times for efficient's 32 x 32)
    const key = `${dpr}|${font}|${themeId(colours)}|${max}|${n}x${m}|${rows.map((r) => r.join(',')).join(';')}`;
    if (shownKey === key) return;
    const hit = kept.find((p) => p.key === key);
    misses = hit || lately.includes(key) ? 0 : misses + 1;
    lately.unshift(key);
    lately.length = Math.min(lately.length, POOL);
    if (hit) {
      warm = WARM;
      hit.used = ++uses;
      if (sameSize(hit.canvas, canvas)) {
        keep(hit);
        copy(hit.canvas, canvas);
        canvas.drawing = hit.drawing;
        shownKey = key;
      } else {
        show(hit);
      }
      return;
    }
    const cells = rows.flatMap((row, i) => {
      const printed = values ? (shares ? roundShares(row, digits) : row).map((v) => num(v, digits)) : null;
      return row.map((v, j) => {
        const fill = rgbColor(v, max, colours);
        return { i, j, rgb: fill, fill: rgbText(fill), label: printed?.[j] ?? null, ink: values ? labelFor(fill) : null };
      });
    });
    const px = canvasSize(cells.length, { n, m, cell, values });
    if (!shownKey || (canvas.width === px[0] && canvas.height === px[1])) {
      // (copying a picture costs about what painting one does: not for a
      // slider's pictures, which no change comes back to)
      if (warm > 0 || misses <= MISSES) keep(null);
      warm = Math.max(0, warm - 1);
      shownKey = '';
      paintCells(canvas, cells, { n, m, cell, font, values });
      shownKey = key;
    } else {
      const into = slot(null);
      into.key = '';
      paintCells(into.canvas, cells, { n, m, cell, font, values });
      Object.assign(into, { key, drawing: into.canvas.drawing });
      show(into);
    }
  }

  // a kept entry to put a picture in: a new one while there is room, else the one unused longest but `not`
  function slot(not) {
    let into = kept.length < POOL - 1 ? null : kept.filter((p) => p !== not).sort((a, b) => a.used - b.used)[0];
    if (!into) kept.push(into = { canvas: h('canvas', { 'aria-hidden': 'true' }), key: '', used: 0, drawing: null });
    into.used = ++uses;
    return into;
  }

  // copy what the canvas shows into a kept entry (unless one has it already)
  function keep(not) {
    if (!shownKey || kept.some((p) => p.key === shownKey)) return;
    const into = slot(not);
    if (!sameSize(into.canvas, canvas)) [into.canvas.width, into.canvas.height] = [canvas.width, canvas.height];
    into.canvas.className = canvas.className; // (pixels: scaled up as the canvas shown is)
    copy(canvas, into.canvas);
    Object.assign(into, { key: shownKey, drawing: canvas.drawing });
  }

  // put kept entry `p`'s canvas in the page; the canvas shown takes its place in the entry, with its picture
  function show(p) {
    const out = { canvas, key: shownKey, drawing: canvas.drawing };
    canvas.replaceWith(p.canvas);
    [canvas, shownKey, placed] = [p.canvas, p.key, ''];
    place();
    Object.assign(p, out);
  }

  // give the canvas shown the place of the cells (build's canvasCss)
  function place() {
    if (placed === canvasCss) return;
    canvas.style.cssText = canvasCss;
    placed = canvasCss;
  }

  function update(M, opts = {}) {
    rows = asRows(M);
    const [n, m] = [Math.max(size.rows ?? 0, rows.length), Math.max(size.cols ?? 0, rows[0].length)]; // the view's shape
    if (opts.rowLabels) rowLabels = opts.rowLabels;
    if (opts.colLabels) colLabels = opts.colLabels;
    const key = `${n}x${m}|${rowLabels ?? ''}|${colLabels ?? ''}`;
    if (shape !== key) {
      shape = key;
      setActive(null);
      build(n, m);
    }
    if (active && (active[0] >= rows.length || active[1] >= rows[0].length)) setActive(null); // (M shrank under it)
    dim(rowTexts, rowLabels ? rows.length : Infinity);
    dim(colTexts, colLabels ? rows[0].length : Infinity);
    max = opts.max ?? maxAbs(rows.flat());
    repaint();
    const marking = [...(opts.marks ?? [])].join(' ');
    if (marking !== marked) {
      marked = marking;
      // the outlines are kept and moved, and their group stays where it is:
      // a pick moves three rects (a group put back lays out all it holds)
      const outlined = [...(opts.marks ?? [])];
      outlined.forEach((ij, k) => {
        const rect = (markRects[k] ??= s('rect', { class: 'mark' }));
        for (const [a, v] of Object.entries(box(...ij.split(',').map(Number)))) setAttr(rect, a, v);
      });
      reconcile(marks, markRects.slice(0, outlined.length));
      const before = on.isConnected ? on : hit; // (under the active cell's outline)
      if (!marking) marks.remove();
      else if (marks.nextSibling !== before) svg.insertBefore(marks, before);
    }
    if (groups) drawGroups(opts.groups ?? 1);
    const said = describe ? describe(rows) : t('matrixLabel', { name, rows: rows.length, cols: rows[0].length });
    setAttr(svg, 'aria-label', said);
    showCaption();
  }

  return { el, update, svg };
}

// matrix.view.js: a matrix drawn as coloured squares (the project's notation).
//
// Colour comes from scale.js only. Hover, tap or keyboard focus shows a
// cell's value in the caption; arrow keys move between cells, Enter or
// Space "picks" a cell (for figures that react to a click on a cell).
import { h, s } from './dom.js';
import { cssColor, maxAbs } from './scale.js';
import { labelColor, theme } from './colors.js';
import { num, roundShares } from './format.js';

const LABEL_CHAR = 6.6; // px per character of an axis label at 11px

function asRows(M) {
  if (Array.isArray(M)) return M.map((r) => Array.from(r));
  return Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
}

/**
 * matrixView({t, name, cell, values, rowLabels, colLabels, digits, shares, onpick, describe})
 * returns {el, update(M, {max, marks, groups})}. `marks` is a Set of "i,j" cells to
 * outline; with `groups: true`, update's `groups: h` draws a bar in each
 * head's colour under every block of cols/h columns. `shares: true` marks
 * rows of attention weights: they are printed so that each row adds up to 1
 * (format.roundShares). Value labels are black or white, whichever
 * contrasts more with their cell. `t`: the figure's translator (its aria text).
 */
export function matrixView({ t, name, cell = 22, values = false, rowLabels, colLabels, digits = 2, shares = false, onpick, describe, groups = false } = {}) {
  // Labels can also change later: update(M, {rowLabels, colLabels}).
  const cap = h('div', { class: 'cap', 'aria-live': 'polite' });
  const svg = s('svg', { tabindex: 0, role: 'img', focusable: 'true', class: onpick ? 'pick' : null });
  const el = h('figure', { class: 'mat' }, [svg, cap]);
  let rows = [];
  let max = 1;
  let active = null; // [i, j]
  let rects = [];
  let texts = [];
  let drawn = []; // each cell's fill as last written
  let drawnTheme = null; // and the theme its label colour was chosen in
  let shape = '';
  let geometry = { lw: 0, th: 0 };
  const bars = s('g', { class: 'groups' });

  const label = (i, j) => {
    const r = rowLabels?.[i] ?? i + 1;
    const c = colLabels?.[j] ?? j + 1;
    return `${name}[${r}, ${c}] = ${num(rows[i][j], digits)}`;
  };
  const showCaption = () => {
    const [n, m] = [rows.length, rows[0]?.length ?? 0];
    cap.replaceChildren(
      active ? label(...active) : h('span', {}, [h('span', { class: 'name' }, name), ` ${n}\u00d7${m}`]),
    );
  };
  const setActive = (cellIndex) => {
    active = cellIndex;
    rects.forEach((row, i) => row.forEach((r, j) => r.classList.toggle('on', !!active && active[0] === i && active[1] === j)));
    showCaption();
  };

  const longest = (labels) => Math.max(1, ...labels.map((t) => String(t).length));

  function build(n, m) {
    const lw = rowLabels ? longest(rowLabels) * LABEL_CHAR + 6 : 0;
    const th = colLabels ? longest(colLabels) * LABEL_CHAR * 0.75 + 10 : 0;
    const w = lw + m * cell;
    const hgt = th + n * cell + (groups ? 8 : 0);
    geometry = { lw, th, n, m };
    svg.setAttribute('viewBox', `0 0 ${w} ${hgt}`);
    svg.setAttribute('width', w);
    svg.setAttribute('height', hgt);
    const kids = [];
    rects = [];
    texts = [];
    drawn = Array.from({ length: n }, () => new Array(m).fill(null));
    for (let i = 0; i < n; i++) {
      rects.push([]);
      if (rowLabels) kids.push(s('text', { class: 'lab', x: lw - 5, y: th + (i + 0.5) * cell, 'text-anchor': 'end' }, rowLabels[i]));
      for (let j = 0; j < m; j++) {
        const r = s('rect', { class: 'cell', x: lw + j * cell, y: th + i * cell, width: cell, height: cell });
        r.addEventListener('pointerenter', () => setActive([i, j]));
        r.addEventListener('click', () => { setActive([i, j]); onpick?.(i, j); });
        rects[i].push(r);
        kids.push(r);
      }
      // a row's values are the spans of one text: the browser lays out a
      // text element far faster than a dozen (a slider step relabels them all)
      texts.push(values ? Array.from({ length: m }, (_, j) => s('tspan', { class: 'v', x: lw + (j + 0.5) * cell })) : []);
      if (values) kids.push(s('text', { class: 'values', y: th + (i + 0.5) * cell }, texts[i]));
    }
    if (colLabels) {
      colLabels.forEach((t, j) => kids.push(s('text', {
        class: 'lab', x: lw + (j + 0.5) * cell, y: th - 6, 'text-anchor': 'start',
        transform: `rotate(-40 ${lw + (j + 0.5) * cell} ${th - 6})`,
      }, t)));
    }
    svg.replaceChildren(...kids, bars);
  }

  function drawGroups(h) {
    const { lw, th, n, m } = geometry;
    const w = (m / h) * cell;
    bars.replaceChildren(...Array.from({ length: h }, (_, k) => s('rect', {
      x: lw + k * w + 1, y: th + n * cell + 3, width: w - 2, height: 4, rx: 2, style: `fill:var(--attention-head-${k + 1})`,
    })));
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

  function update(M, opts = {}) {
    rows = asRows(M);
    const [n, m] = [rows.length, rows[0].length];
    if (opts.rowLabels) rowLabels = opts.rowLabels;
    if (opts.colLabels) colLabels = opts.colLabels;
    const key = `${n}x${m}|${rowLabels ?? ''}|${colLabels ?? ''}`;
    if (shape !== key) {
      shape = key;
      active = null;
      build(n, m);
    }
    max = opts.max ?? maxAbs(rows.flat());
    const root = svg.getRootNode();
    const now = root.host ? theme(root) : null;
    if (now !== drawnTheme) drawn.forEach((r) => r.fill(null));
    drawnTheme = now;
    rows.forEach((row, i) => {
      const printed = shares ? roundShares(row, digits) : row;
      row.forEach((v, j) => {
        const fill = cssColor(v, max);
        // only what changed is written: a matrix redraws on every slider step
        if (fill !== drawn[i][j]) {
          drawn[i][j] = fill;
          rects[i][j].style.fill = fill;
          if (values) texts[i][j].style.fill = root.host ? labelColor(root, v, max) : 'var(--attention-fg)';
        }
        rects[i][j].classList.toggle('mark', !!opts.marks?.has(`${i},${j}`)); // (a no-op when unchanged)
        const label = values ? num(printed[j], digits) : null;
        if (values && texts[i][j].textContent !== label) texts[i][j].textContent = label;
      });
    });
    if (groups) drawGroups(opts.groups ?? 1);
    svg.setAttribute('aria-label', describe ? describe(rows) : t('matrixLabel', { name, rows: n, cols: m }));
    if (active && (active[0] >= n || active[1] >= m)) active = null;
    showCaption();
  }

  return { el, update, svg };
}

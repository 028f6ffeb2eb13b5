// styles.js: the shadow-root CSS every figure shares (themes, layout, controls).
//
// Appearance is set by --attention-* custom properties on :host; a page can
// override any of them from outside (outer rules win over :host rules).
// Themes: light, and dark where the element has data-dark (set by
// figure-element.js: the page's own scheme, or the theme="light" /
// theme="dark" attribute, which forces one).
import { PALETTE } from './draw/colors.js';

// the palette's colours as the custom properties every rule below reads
const vars = (colours) => Object.entries(colours).map(([k, v]) => `--attention-${k}: ${v};`).join(' ');
const LIGHT = vars(PALETTE.light);
const DARK = vars(PALETTE.dark);

export const baseCss = `
:host { display: block; ${LIGHT} color-scheme: light;
  color: var(--attention-fg); background: var(--attention-bg);
  font: 15px/1.45 var(--attention-font, system-ui, -apple-system, "Segoe UI", sans-serif);
  border: 1px solid var(--attention-border); border-radius: 10px;
  padding: 14px; margin: 1.5em 0; box-sizing: border-box; max-width: 100%; overflow-wrap: break-word; }
:host([data-dark]) { ${DARK} color-scheme: dark; }
:host([theme=dark]) { ${DARK} color-scheme: dark; }
:host([theme=light]) { ${LIGHT} color-scheme: light; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
/* a part kept out of sight to be shown again (keep.js showOne): its style and
   layout are kept too where the browser can (content-visibility), so showing
   it again costs no new layout */
@supports (content-visibility: hidden) { [data-kept] { content-visibility: hidden; margin: 0 !important; } }
[data-part] { contain: style; } /* (for good: keep.js keepOut) */
/* parts that take turns in one place (keep.js showOne): stacked, and a kept
   one keeps the height it had when last shown (auto), so the place is as
   tall as the tallest shown so far */
[data-stack] { display: grid; }
[data-stack] > * { grid-area: 1 / 1; min-width: 0; contain-intrinsic-block-size: auto 0px; }
@supports not (content-visibility: hidden) { [data-kept] { display: none !important; } }
*, *::before, *::after { box-sizing: border-box; }
/* each part of a figure paints on its own (a stacking context: a paint layer in
   Chromium, without clipping): a change repaints the parts it touched, and
   the others' painting is reused (at a phone's speed, 1-2 ms of a change of
   efficient, qkv or multi-head-matmul) */
[role=figure] > * { isolation: isolate; }
.title { font-weight: 650; margin: 0 0 6px; font-size: 1.02em; }
/* a part of a figure: labelled, but not a heading (a figure cannot know where it sits in a page's outline) */
.sub { font-weight: 600; margin: 10px 0 4px; }
.note { color: var(--attention-muted); font-size: 0.88em; margin: 6px 0 0; }
.row { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: center; }
.stack { display: flex; flex-direction: column; gap: 8px; }
.panel { background: var(--attention-panel); border-radius: 8px; padding: 10px; }
.controls { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: center; margin: 8px 0; }
.loading { color: var(--attention-muted); min-height: 120px; display: grid; place-items: center; }
.error { color: var(--attention-negative); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
svg { display: block; max-width: 100%; height: auto; overflow: visible; }
svg text { fill: var(--attention-fg); font-size: 12px; }
:focus-visible { outline: 2px solid var(--attention-accent); outline-offset: 2px; }
/* controls */
.slider { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0 8px; min-width: 0; flex: 1 1 220px; max-width: 420px; }
.slider label { white-space: nowrap; }
/* the thumb and its value stay together; the label goes above them when the row is too narrow */
.slider .track { display: flex; align-items: center; gap: 8px; flex: 1 1 160px; min-width: 0; }
.slider input { flex: 1; min-width: 90px; accent-color: var(--attention-accent); height: 28px; }
.slider output { min-width: 3.5em; font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
/* the legend floats beside its options (a flex fieldset would put it on a line of its own in WebKit) */
fieldset.choice { border: 0; padding: 0; margin: 0; display: block; min-width: 0; }
fieldset.choice legend { float: left; margin-right: 12px; padding: 0; min-height: 34px; display: flex; align-items: center; }
.choice .opts { display: inline-flex; border: 1px solid var(--attention-border); border-radius: 8px; overflow: hidden; }
.choice label { position: relative; padding: 5px 11px; cursor: pointer; user-select: none; min-height: 32px; display: inline-flex; align-items: center; }
.choice label + label { border-left: 1px solid var(--attention-border); }
.choice input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
.choice label:has(input:checked) { background: var(--attention-accent); color: var(--attention-bg); }
.choice label:has(input:focus-visible) { outline: 2px solid var(--attention-accent); outline-offset: 2px; }
.switch { display: inline-flex; align-items: center; gap: 6px; cursor: pointer; min-height: 32px; }
.switch input { width: 18px; height: 18px; accent-color: var(--attention-accent); }
/* text fields in the figure's theme, not the system's (a page's own dark mode on a light system) */
input:not([type]), input[type=text], input[type=search], input[type=number], textarea, select { color: var(--attention-fg); background: var(--attention-bg); }
button { font: inherit; color: inherit; background: var(--attention-panel); border: 1px solid var(--attention-border);
  border-radius: 8px; padding: 4px 12px; min-height: 32px; min-width: 36px; cursor: pointer; }
button:hover { border-color: var(--attention-accent); }
button:disabled { opacity: 0.45; cursor: default; }
/* a measuring figure's Measure button: its words over Measure's, hidden, while it says Stop (measuring.js) */
button.measure { display: inline-grid; justify-items: center; align-items: center; }
button.measure > span { grid-area: 1 / 1; }
button.measure > .room { visibility: hidden; }
/* words laid over the longest they may say, unseen (dom.js steady) */
.steady { display: grid; } .steady > * { grid-area: 1 / 1; } .steady > .room { visibility: hidden; }
.stepper { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.stepper .step-label { font-weight: 600; }
.tools { display: flex; flex-wrap: wrap; gap: 6px; justify-content: flex-end; align-items: center; margin-top: 8px; }
.tools button { font-size: 0.78em; min-height: 26px; padding: 2px 9px; color: var(--attention-muted); }
.tools .tool-status, .tools .tool-label { font-size: 0.8em; color: var(--attention-muted); }
/* matrices */
.mat { display: inline-flex; flex-direction: column; align-items: center; gap: 3px; margin: 0; vertical-align: top; }
.mat .cap { font-size: 0.85em; color: var(--attention-muted); font-variant-numeric: tabular-nums; text-align: center; min-height: 1.3em; }
.mat .cap .name { color: var(--attention-fg); font-weight: 600; }
.layered { position: relative; width: fit-content; max-width: 100%; } /* a canvas under an SVG of the same drawing */
.layered > canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
.layered > canvas.pixels { image-rendering: pixelated; } /* one pixel per cell (matrix-view.js) */
.layered > svg { position: relative; } /* above the canvas */
.mat path.seams { fill: none; stroke: var(--attention-bg); stroke-width: 1; }
.mat rect.hit { fill: transparent; }
.mat svg.pick rect.hit { cursor: pointer; }
.mat rect.mark, .mat rect.on { fill: none; pointer-events: none; }
.mat rect.mark { stroke: var(--attention-accent); stroke-width: 2; }
.mat rect.on { stroke: var(--attention-fg); stroke-width: 2; }
.mat svg:focus-visible { outline: 2px solid var(--attention-accent); }
.mat text.lab { font-size: 11px; fill: var(--attention-muted); dominant-baseline: central; }
.mat text.lab.past { opacity: 0.35; } /* a row or column past the matrix drawn (matrix-view.js size) */
.op { font-size: 1.2em; color: var(--attention-muted); align-self: center; padding: 0 2px; }
.legend { display: inline-flex; align-items: center; gap: 6px; font-size: 0.85em; color: var(--attention-muted); }
/* Until it draws, the figure shows the page's picture of it (figure-element.js),
   which has a frame of its own: no second box around it. */
:host(:not([data-ready], [data-error])) { border-color: transparent; padding: 0; }
::slotted(figure) { margin: 0; }
slot.print-picture { display: none; }
math { font-size: 1.15em; }
math[display="block"] { font-size: 1.3em; margin: 0.3em 0; }
/* On paper: the light theme, colours as drawn (backgrounds too), the page's
   width, one piece, without what only a live figure can use; a figure that
   has not drawn, or whose picture says more (data-print-picture), prints the
   page's picture of it (figure-element.js). */
@media print {
  :host, :host([data-dark]), :host([theme=dark]) { ${LIGHT} }
  :host { print-color-adjust: exact; -webkit-print-color-adjust: exact; break-inside: avoid; width: auto; max-width: 100%; }
  .controls, .slider, fieldset.choice, .switch, label, button, input, select, textarea, .tools, .loading { display: none !important; }
  :host([data-print-picture]) { border-color: transparent; padding: 0; }
  :host([data-print-picture]) [role=figure] { display: none !important; }
  :host([data-print-picture]) slot.print-picture { display: contents; }
  [data-kept] { display: none !important; } /* (no room kept for a part not shown) */
}
`;

// controls.js: the figures' controls, built on native inputs so keyboard,
// touch and screen readers work without extra ARIA plumbing. Each returns
// {el, set(value)}: `el` goes in the DOM, `set` mirrors state changed
// elsewhere (an attribute) without firing the callback.
import { h, setAttr, setText } from './dom.js';

let uid = 0;
const nextId = (p) => `${p}-${++uid}`;

const LOG_STEPS = 400; // positions of a log slider: a press of an arrow key moves 1/400 of the range

/**
 * A labelled range slider over [min, max], whose ends the thumb reaches
 * exactly. `log: true` spaces the positions evenly in log10 of the value (for
 * temperatures from 0.01 to 1000); `values: [...]` offers only those values,
 * one position each (every key press changes the value). The input carries
 * the value it shows in data-value, its ends in data-min and data-max, and
 * the state key it drives in data-prop (`prop`), for tests and assistive tech.
 */
export function slider({ label, min, max, step = 0.01, value, log = false, values = null, prop, format = String, oninput }) {
  const id = nextId('s');
  const ends = values ? [values[0], values.at(-1)] : [min, max];
  let toPos;
  let fromPos;
  let range;
  if (values) {
    toPos = (v) => values.reduce((best, x, k) => (Math.abs(x - v) < Math.abs(values[best] - v) ? k : best), 0);
    fromPos = (p) => values[p];
    range = { min: 0, max: values.length - 1, step: 1 };
  } else if (log) {
    const [a, b] = [Math.log10(min), Math.log10(max)];
    toPos = (v) => Math.round(((Math.log10(v) - a) / (b - a)) * LOG_STEPS);
    // four significant digits: plenty at 400 positions, and the value survives being written into a link
    fromPos = (p) => (p <= 0 ? min : p >= LOG_STEPS ? max : +(10 ** (a + ((b - a) * p) / LOG_STEPS)).toPrecision(4));
    range = { min: 0, max: LOG_STEPS, step: 1 };
  } else {
    toPos = (v) => v;
    fromPos = (p) => p;
    range = { min, max, step };
  }
  const input = h('input', { type: 'range', id, ...range, value: toPos(value), 'data-min': ends[0], 'data-max': ends[1], 'data-prop': prop });
  const out = h('output', { for: id });
  let shown; // the value shown (set() is called after every render of the figure)
  const show = (v) => {
    if (Object.is(v, shown)) return;
    shown = v;
    setText(out, format(v));
    setAttr(input, 'aria-valuetext', format(v));
    input.dataset.value = String(v);
  };
  input.addEventListener('input', () => {
    const v = fromPos(Number(input.value));
    show(v);
    oninput(v);
  });
  show(value);
  return {
    el: h('div', { class: 'slider' }, [h('label', { for: id }, label), h('span', { class: 'track' }, [input, out])]),
    set(v) {
      if (Math.abs(fromPos(Number(input.value)) - v) > 1e-9 * Math.max(1, Math.abs(v))) input.value = toPos(v);
      show(v);
    },
  };
}

/** A segmented choice (native radio buttons): options [{value, label}]. */
export function choice({ label, options, value, prop, onchange }) {
  const name = nextId('c');
  const inputs = options.map((o) =>
    h('input', { type: 'radio', name, value: o.value, checked: o.value === value }));
  inputs.forEach((i) => i.addEventListener('change', () => i.checked && onchange(i.value)));
  const el = h('fieldset', { class: 'choice', 'data-prop': prop }, [
    h('legend', {}, label),
    h('div', { class: 'opts' }, options.map((o, k) => h('label', {}, [inputs[k], o.label]))),
  ]);
  return { el, set: (v) => inputs.forEach((i) => { i.checked = i.value === String(v); }) };
}

/** An on/off switch (a native checkbox with role=switch). */
export function toggle({ label, value, prop, onchange }) {
  const input = h('input', { type: 'checkbox', role: 'switch', checked: value, 'data-prop': prop });
  input.addEventListener('change', () => onchange(input.checked));
  return {
    el: h('label', { class: 'switch' }, [input, label]),
    set: (v) => { input.checked = !!v; },
  };
}

/**
 * Back / play / next through `steps` (labels). `onchange(index)` on every
 * move; play advances every `interval` ms and stops at the last step. `t`:
 * the figure's translator (its words for the buttons).
 */
export function stepper({ steps, value = 0, prop, onchange, interval = 1600, t, label = t('step') }) {
  let index = value;
  let timer = 0;
  const text = h('span', { class: 'step-label', 'aria-live': 'polite' });
  const prev = h('button', { type: 'button', 'aria-label': t('stepPrevious'), 'data-step': 'previous' }, '\u2190');
  const next = h('button', { type: 'button', 'aria-label': t('stepNext'), 'data-step': 'next' }, '\u2192');
  const play = h('button', { type: 'button', 'aria-label': t('stepPlay'), 'data-step': 'play' }, '\u25B6');
  const show = () => {
    setText(text, `${label} ${index + 1}/${steps.length}: ${steps[index]}`);
    // a button about to be disabled under keyboard focus hands focus to its twin
    const focused = prev.getRootNode().activeElement;
    if (prev.disabled !== (index === 0)) prev.disabled = index === 0; // (a same-value write is still a mutation)
    if (next.disabled !== (index === steps.length - 1)) next.disabled = index === steps.length - 1;
    if ((focused === prev || focused === next) && focused.disabled) (focused === prev ? next : prev).focus();
    setText(play, timer ? '\u275A\u275A' : '\u25B6');
    setAttr(play, 'aria-label', t(timer ? 'stepPause' : 'stepPlay'));
  };
  const stop = () => { clearInterval(timer); timer = 0; show(); };
  const go = (i) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    if (index === steps.length - 1) stop();
    show();
    onchange(index);
  };
  prev.addEventListener('click', () => { stop(); go(index - 1); });
  next.addEventListener('click', () => { stop(); go(index + 1); });
  play.addEventListener('click', () => {
    if (timer) return stop();
    if (index === steps.length - 1) go(0);
    timer = setInterval(() => go(index + 1), interval);
    show();
  });
  show();
  return {
    el: h('div', { class: 'stepper', role: 'group', 'aria-label': label, 'data-prop': prop }, [prev, play, next, text]),
    set: (i) => { index = i; show(); },
    stop,
  };
}

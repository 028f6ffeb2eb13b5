// controls.js: the figures' controls, built on native inputs so keyboard,
// touch and screen readers work without extra ARIA plumbing. Each returns
// {el, set(value)}: `el` goes in the DOM, `set` mirrors state changed
// elsewhere (an attribute) without firing the callback.
import { h } from './dom.js';

let uid = 0;
const nextId = (p) => `${p}-${++uid}`;

/**
 * A labelled range slider. With `log: true` the thumb moves over log10 of
 * the value (for temperatures from 0.01 to 1000).
 */
export function slider({ label, min, max, step = 0.01, value, log = false, format = String, oninput }) {
  const id = nextId('s');
  const toPos = (v) => (log ? Math.log10(v) : v);
  const fromPos = (p) => (log ? 10 ** p : p);
  const input = h('input', {
    type: 'range', id, min: toPos(min), max: toPos(max), step: log ? 0.01 : step, value: toPos(value),
  });
  const out = h('output', { for: id });
  const show = (v) => {
    out.textContent = format(v);
    input.setAttribute('aria-valuetext', format(v));
  };
  input.addEventListener('input', () => {
    const v = fromPos(Number(input.value));
    show(v);
    oninput(v);
  });
  show(value);
  return {
    el: h('div', { class: 'slider' }, [h('label', { for: id }, label), input, out]),
    set(v) {
      if (Math.abs(fromPos(Number(input.value)) - v) > 1e-9 * Math.max(1, Math.abs(v))) input.value = toPos(v);
      show(v);
    },
  };
}

/** A segmented choice (native radio buttons): options [{value, label}]. */
export function choice({ label, options, value, onchange }) {
  const name = nextId('c');
  const inputs = options.map((o) =>
    h('input', { type: 'radio', name, value: o.value, checked: o.value === value }));
  inputs.forEach((i) => i.addEventListener('change', () => i.checked && onchange(i.value)));
  const el = h('fieldset', { class: 'choice' }, [
    h('legend', {}, label),
    h('div', { class: 'opts' }, options.map((o, k) => h('label', {}, [inputs[k], o.label]))),
  ]);
  return { el, set: (v) => inputs.forEach((i) => { i.checked = i.value === String(v); }) };
}

/** An on/off switch (a native checkbox with role=switch). */
export function toggle({ label, value, onchange }) {
  const input = h('input', { type: 'checkbox', role: 'switch', checked: value });
  input.addEventListener('change', () => onchange(input.checked));
  return {
    el: h('label', { class: 'switch' }, [input, label]),
    set: (v) => { input.checked = !!v; },
  };
}

/**
 * Back / play / next through `steps` (labels). `onchange(index)` on every
 * move; play advances every `interval` ms and stops at the last step.
 */
export function stepper({ steps, value = 0, onchange, interval = 1600, label = 'Step' }) {
  let index = value;
  let timer = 0;
  const text = h('span', { class: 'step-label', 'aria-live': 'polite' });
  const prev = h('button', { type: 'button', 'aria-label': 'Previous step' }, '\u2190');
  const next = h('button', { type: 'button', 'aria-label': 'Next step' }, '\u2192');
  const play = h('button', { type: 'button', 'aria-label': 'Play all steps' }, '\u25B6');
  const show = () => {
    text.textContent = `${label} ${index + 1}/${steps.length}: ${steps[index]}`;
    prev.disabled = index === 0;
    next.disabled = index === steps.length - 1;
    play.textContent = timer ? '\u275A\u275A' : '\u25B6';
    play.setAttribute('aria-label', timer ? 'Pause' : 'Play all steps');
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
    el: h('div', { class: 'stepper', role: 'group', 'aria-label': label }, [prev, play, next, text]),
    set: (i) => { index = i; show(); },
    stop,
  };
}

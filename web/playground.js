// playground.js: the playground page (playground.html). Pick a figure of the
// registry; each attribute it declares (its `static props`, from its
// <name>.props.js) gets a control of its kind: a number with its range (a
// slider beside it, logarithmic over a wide range), a choice, a switch, a
// text the figure checks. The figure below is the real element from the
// bundle, changed live; a pasted example or strings JSON is checked here
// (syntax, keys) and by the figure (what it can use), each said in place.
// The snippets for plain HTML, Hugo, Jekyll and JSX/MDX, the figure's
// picture (its own SVG and PNG export) and the `attention-wasm snapshot`
// command that draws the same picture at build time follow the state.
import { FIGURES } from './figures/registry.js';
import { toCanvas, toSvg } from './kit/export.js';
import shared from './kit/figure.strings.en.js';

const $ = (id) => document.getElementById(id);
const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children);
  return el;
};

/** The page's state: the figure, its attributes as text (only those set), lang, theme, the two JSON texts. */
const state = { figure: null, attrs: {}, lang: '', theme: '', example: '', strings: '' };
let element = null; // the figure on the stage
let props = {}; // its class's declared props

// ---- the snippets -------------------------------------------------------------

const BUNDLE = '/assets/attention/attention-figures.js';
const SNAPSHOTS = '/assets/attention/snapshots/';
const escapeAttr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const escapeText = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The attributes a snippet writes: those that differ from the default, then lang and theme. */
function written() {
  const out = [];
  for (const [name, prop] of Object.entries(props)) {
    if (!Object.hasOwn(state.attrs, name)) continue;
    const text = state.attrs[name];
    const same = prop.type === 'number' ? Number(text) === prop.default : String(prop.default) === text;
    if (!same) out.push([name, text]);
  }
  if (state.lang) out.push(['lang', state.lang]);
  if (state.theme) out.push(['theme', state.theme]);
  return out;
}

/** The JSON texts the snippets carry, compact (null: none, or not JSON). */
function json(kind) {
  const text = state[kind].trim();
  if (!text) return null;
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return null;
  }
}

export function snippets() {
  const { tag, name } = state.figure;
  const attrs = written();
  const example = json('example');
  const strings = json('strings');
  const fallback = picture();
  const child = (kind, text) => `  <script type="application/json" data-${kind}>${text.replace(/<\//g, '<\\/')}</script>\n`;
  const html = `<script type="module" src="${BUNDLE}"></script>\n`
    + `<${tag}${attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('')}>\n`
    + (example ? child('example', example) : '') + (strings ? child('strings', strings) : '')
    + `${fallback}</${tag}>`;
  const hugoArgs = [`figure="${name}"`, ...attrs.map(([k, v]) => `${k}="${v.replace(/"/g, '\\"')}"`),
    ...(example ? [`example=\`${example}\``] : []), ...(strings ? [`strings=\`${strings}\``] : [])];
  const hugo = `{{< attention ${hugoArgs.join(' ')} />}}`;
  const single = (text) => `'${text.replace(/'/g, "\\'")}'`;
  const jekyllArgs = [`figure="${name}"`, ...attrs.map(([k, v]) => `${k}="${v.replace(/"/g, '&quot;')}"`),
    ...(example ? [`example=${single(example)}`] : []), ...(strings ? [`strings=${single(strings)}`] : [])];
  const jekyll = `{% include attention-figure.html ${jekyllArgs.join(' ')} %}`;
  const template = (text) => `{\`${text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\`}`;
  const jsx = `import 'attention-wasm/figures'; // once, in the page's script: defines the figures' tags\n\n`
    + `<${tag}${attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('')}>\n`
    + (example ? `  <script type="application/json" data-example>${template(example)}</script>\n` : '')
    + (strings ? `  <script type="application/json" data-strings>${template(strings)}</script>\n` : '')
    + `${fallback.replace(/<img ([^>]*)>/, '<img $1 />')}</${tag}>`;
  return { html, hugo, jekyll, jsx };
}

/**
 * What the element holds until it draws (and where scripts do not run): the
 * package's picture of the figure, its default settings in the element's
 * language (dist/snapshots/), captioned with the figure's title; said so when
 * the snippet sets others (the snapshot command draws those).
 */
function picture() {
  const { name } = state.figure;
  const zh = /^zh/i.test(state.lang || document.documentElement.lang);
  const title = element?.shadowRoot?.querySelector('.title')?.textContent.trim() || state.figure.tag;
  const own = written().some(([k]) => k !== 'lang') || json('example') || json('strings');
  const caption = own ? `${title} (${zh ? '图为默认设置' : 'pictured with its default settings'})` : title;
  return '  <figure>\n'
    + `    <img src="${SNAPSHOTS}${name}${zh ? '.zh-CN' : ''}.svg" alt="${escapeAttr(title)}" loading="lazy">\n`
    + `    <figcaption>${escapeText(caption)}</figcaption>\n  </figure>\n`;
}

/** A shell word: as it is when it is plain, else in single quotes. */
const shellWord = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`);

/** The snapshot command for this state (its documented syntax: bin/attention-wasm.js). */
export function command(format = $('format').value) {
  const { name } = state.figure;
  const words = ['npx', 'attention-wasm', 'snapshot', name];
  for (const [k, v] of written()) {
    if (k === 'theme' || k === 'lang') continue;
    words.push(`--${k}`, v);
  }
  if (json('example')) words.push('--example', 'example.json');
  if (state.lang) words.push('--lang', /^zh/i.test(state.lang) ? 'zh-CN' : 'en');
  if (state.theme) words.push('--theme', state.theme);
  words.push('--format', format, '--out', `${name}.${format}`);
  return words.map(shellWord).join(' ');
}

// ---- output boxes -------------------------------------------------------------

/** A titled <pre> with a Copy button; returns the <pre>. */
function outBox(parent, id, title) {
  const pre = h('pre', { id, tabindex: '0' });
  const note = h('span', { class: 'note', role: 'status' });
  const copy = h('button', { type: 'button', 'aria-label': `Copy: ${title}`, onclick: async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent);
      note.textContent = 'Copied.';
    } catch {
      getSelection().selectAllChildren(pre); // a page without clipboard access: the text is selected to copy by hand
      note.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
    }
  } }, 'Copy');
  parent.append(h('div', { class: 'out' }, h('header', {}, h('h3', {}, title), h('div', { class: 'row' }, note, copy)), pre));
  return pre;
}

const outs = {};
function buildOutputs() {
  const box = $('snippets');
  outs.html = outBox(box, 'snippet-html', 'Plain HTML');
  outs.hugo = outBox(box, 'snippet-hugo', 'Hugo (the attention shortcode)');
  outs.jekyll = outBox(box, 'snippet-jekyll', 'Jekyll (the attention-figure include)');
  outs.jsx = outBox(box, 'snippet-jsx', 'JSX or MDX (a custom element needs nothing more)');
  outs.command = outBox($('command-out'), 'snapshot-command', 'The same picture at build time');
}

function showOutputs() {
  const s = snippets();
  for (const k of ['html', 'hugo', 'jekyll', 'jsx']) outs[k].textContent = s[k];
  const notes = [];
  if (json('example')) notes.push('# save your example JSON as example.json first');
  if (json('strings')) notes.push('# a picture uses the figure\'s own words (the command takes no strings)');
  outs.command.textContent = [...notes, command()].join('\n');
}

// ---- attribute controls ---------------------------------------------------------

const LOG_RANGE = 1000; // a number range this wide (or wider) gets a logarithmic slider

/** What the figure made of the text just given to `name` (clamped, snapped, normalized, or its default). */
function said(name, note) {
  const text = state.attrs[name];
  const used = String(element?.[name] ?? '');
  const prop = props[name];
  if (text === undefined || used === text || (prop.type === 'number' && Number(text) === Number(used))) {
    note.textContent = '';
    note.classList.remove('bad');
  } else if (prop.type === 'string' && used === String(prop.default) && prop.normalize?.(text) == null) {
    note.textContent = `The figure cannot use "${text}": it shows its default${prop.default === '' ? '' : ` (${prop.default})`}.`;
    note.classList.add('bad');
  } else {
    note.textContent = `The figure uses ${used === '' ? 'none' : used}.`;
    note.classList.remove('bad');
  }
}

function control(name, prop) {
  const id = `prop-${name}`;
  const note = h('p', { class: 'note', id: `${id}-note`, role: 'status' });
  const set = (text) => {
    state.attrs[name] = text;
    element?.setAttribute(name, text);
    said(name, note);
    showOutputs();
  };
  const kind = prop.type === 'number'
    ? `number ${prop.min ?? '−∞'}..${prop.max ?? '∞'}${prop.integer ? ', whole' : ''}`
    : prop.type === 'enum' ? 'choice' : prop.type === 'boolean' ? 'on or off' : 'text';
  const label = h('label', { for: id }, `${name} `, h('span', { class: 'kind' }, `${kind}, default ${prop.default === '' ? 'none' : JSON.stringify(prop.default)}`));
  let input;
  const parts = [];
  if (prop.type === 'number') {
    input = h('input', { type: 'number', id, name, value: String(prop.default), step: prop.integer ? '1' : 'any',
      min: prop.min ?? false, max: prop.max ?? false, 'aria-describedby': `${id}-note` });
    parts.push(input);
    if (Number.isFinite(prop.min) && Number.isFinite(prop.max)) {
      const log = prop.min > 0 && prop.max / prop.min >= LOG_RANGE;
      const toSlider = (v) => (log ? Math.log10(v) : v);
      const fromSlider = (s) => (log ? 10 ** s : s);
      const slider = h('input', { type: 'range', id: `${id}-slider`, 'aria-label': `${name}${log ? ' (logarithmic)' : ''}`,
        min: String(toSlider(prop.min)), max: String(toSlider(prop.max)), step: log ? 'any' : prop.integer ? '1' : 'any',
        value: String(toSlider(prop.default)) });
      slider.addEventListener('input', () => {
        const v = fromSlider(Number(slider.value));
        input.value = String(prop.integer ? Math.round(v) : +v.toPrecision(3));
        set(input.value);
      });
      input.addEventListener('input', () => {
        if (input.value !== '' && Number.isFinite(Number(input.value))) slider.value = String(toSlider(Math.min(prop.max, Math.max(prop.min, Number(input.value)))));
      });
      parts.push(slider);
    }
    input.addEventListener('input', () => set(input.value));
  } else if (prop.type === 'enum') {
    input = h('select', { id, name }, ...prop.values.map((v) => h('option', { value: v, selected: v === prop.default }, v === '' ? '(none)' : v)));
    input.addEventListener('change', () => set(input.value));
    parts.push(input);
  } else if (prop.type === 'boolean') {
    input = h('input', { type: 'checkbox', id, name, checked: prop.default === true });
    input.addEventListener('change', () => set(String(input.checked)));
    parts.push(input);
  } else {
    input = h('input', { type: 'text', id, name, value: String(prop.default), spellcheck: 'false', 'aria-describedby': `${id}-note` });
    input.addEventListener('input', () => set(input.value));
    parts.push(input);
  }
  return h('div', { class: 'prop', 'data-prop': name }, label, ...parts, note);
}

// ---- the figure -----------------------------------------------------------------

/** Put a fresh element on the stage for the state (its attributes and JSON children); resolves once it has drawn. */
async function mount() {
  const { tag } = state.figure;
  const el = document.createElement(tag);
  for (const [k, v] of written()) el.setAttribute(k, v);
  for (const kind of ['example', 'strings']) {
    const text = json(kind);
    if (!text) continue;
    const script = document.createElement('script');
    script.type = 'application/json';
    script.dataset[kind] = '';
    script.textContent = text;
    el.append(script);
  }
  el.append(h('p', {}, 'This interactive figure needs JavaScript.'));
  $('stage').replaceChildren(el);
  element = el;
  await customElements.whenDefined(tag);
  await el.ready;
}

/** Check a JSON text in place: its syntax, and for strings its shape and keys. -> whether the figure can take it. */
function checkJson(kind) {
  const note = $(`${kind}-note`);
  const text = state[kind].trim();
  const say = (msg, bad = true) => { note.textContent = msg; note.classList.toggle('bad', bad); return !bad; };
  if (!text) return say('', false);
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return say(`Not JSON: ${err.message}`);
  }
  if (kind === 'example') return say('JSON: the figure says above itself if it cannot use it.', false);
  if (!data || typeof data !== 'object' || Array.isArray(data)) return say('The words are an object: {"key": "text", "zh": {"key": "文字"}}.');
  const known = new Set([...Object.keys(shared), ...keys.map(([k]) => k)]);
  const unknown = [];
  for (const [k, v] of Object.entries(data)) {
    if ((k === 'en' || k === 'zh') && v && typeof v === 'object') {
      for (const [kk, vv] of Object.entries(v)) if (!known.has(kk) || typeof vv !== 'string') unknown.push(`${k}.${kk}`);
    } else if (!known.has(k) || typeof v !== 'string') unknown.push(k);
  }
  if (unknown.length) return say(`Not a key of this figure, or not a text: ${unknown.join(', ')}.`);
  return say(`${Object.keys(data).length} override(s).`, false);
}

let keys = []; // [[key, English text]] of the figure's own table

async function showKeys(cls) {
  const table = (await cls.strings.en()).default;
  keys = Object.entries(table);
  const text = (v) => (typeof v === 'string' ? v : '(made from the figure\'s numbers)');
  $('keys').replaceChildren(...keys.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, text(v))]),
    h('dt', {}, 'and the keys every figure shares:'), h('dd', {}, Object.keys(shared).join(', ')));
}

/** Show figure `name`: its controls, its element, its words, the outputs. */
export async function pick(name) {
  const figure = FIGURES.find((f) => f.name === name) ?? FIGURES[0];
  state.figure = figure;
  state.attrs = {};
  $('figure').value = figure.name;
  history.replaceState(null, '', `#figure=${figure.name}`); // a link to the playground with this figure
  $('example-box').hidden = !figure.example;
  if (!figure.example) state.example = '';
  $('figure-note').replaceChildren(`<${figure.tag}>: its `, h('a', { href: `figures/${figure.name}/README.md` }, 'README'), '.');
  const mounted = mount();
  const cls = await customElements.whenDefined(figure.tag);
  props = cls.props ?? {};
  $('props').replaceChildren(...Object.entries(props).map(([k, p]) => control(k, p)));
  if (!Object.keys(props).length) $('props').append(h('p', { class: 'note' }, 'This figure has no attributes of its own.'));
  await showKeys(cls);
  checkJson('strings');
  showOutputs();
  await mounted;
  document.body.dataset.figure = figure.name; // (the figure is on the stage and has drawn)
}

// ---- the page ---------------------------------------------------------------------

function download(blob, name) {
  const a = h('a', { href: URL.createObjectURL(blob), download: name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

function init() {
  $('figure').append(...FIGURES.map((f) => h('option', { value: f.name }, f.tag)));
  buildOutputs();
  $('figure').addEventListener('change', () => pick($('figure').value));
  $('lang').addEventListener('change', () => {
    state.lang = $('lang').value;
    if (state.lang) element.setAttribute('lang', state.lang);
    else element.removeAttribute('lang');
    showOutputs();
  });
  $('theme').addEventListener('change', () => {
    state.theme = $('theme').value;
    if (state.theme) element.setAttribute('theme', state.theme);
    else element.removeAttribute('theme');
    showOutputs();
  });
  // a JSON child is read when the figure starts: a new one puts a fresh figure on the stage
  for (const kind of ['example', 'strings']) {
    let timer = 0;
    $(kind).addEventListener('input', () => {
      state[kind] = $(kind).value;
      const ok = checkJson(kind);
      showOutputs();
      clearTimeout(timer);
      if (ok) timer = setTimeout(mount, 300);
    });
  }
  $('format').addEventListener('change', showOutputs);
  const root = () => element.shadowRoot.firstElementChild;
  $('download-svg').addEventListener('click', () => download(new Blob([toSvg(root())], { type: 'image/svg+xml' }), `${state.figure.name}.svg`));
  $('download-png').addEventListener('click', () => toCanvas(root()).toBlob((b) => download(b, `${state.figure.name}.png`), 'image/png'));
  const wanted = new URLSearchParams(location.hash.slice(1)).get('figure');
  pick(wanted ?? FIGURES.find((f) => f.name === 'soft-dictionary')?.name ?? FIGURES[0].name);
}

init();

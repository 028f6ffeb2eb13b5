// figure-types.mjs: the TypeScript declarations of the figures (run by
// build.sh after the bundle), made from the registry and each element's own
// `static props`, so they cannot drift from what the elements accept:
//   dist/figure-element.d.ts        what every figure element has
//   dist/figures/<name>.d.ts        'attention-wasm/figures/<name>': its element's
//                                   interface and its HTMLElementTagNameMap entry
//   dist/attention-figures.d.ts     'attention-wasm/figures': every figure's, engine(), typeset()
// package.json's exports point their "types" conditions here.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const HEADER = '// made by scripts/figure-types.mjs from web/figures/registry.js and each figure\'s static props (do not edit)\n';

/**
 * Every figure as {name, tag, cls, title}: its element's class, read by importing
 * its module in Node, where a class stands in for HTMLElement and
 * customElements keeps what the module defines (a figure does nothing else
 * until it is connected to a page); its title, from its English table.
 */
export async function figureClasses() {
  const defined = new Map();
  globalThis.HTMLElement ??= class {};
  globalThis.customElements ??= { get: (tag) => defined.get(tag), define: (tag, cls) => defined.set(tag, cls) };
  const { FIGURES } = await import('../web/figures/registry.js');
  const { FigureElement } = await import('../web/kit/figure-element.js');
  const figures = [];
  for (const { name, tag, load } of FIGURES) {
    await load();
    const cls = defined.get(tag);
    if (!(cls?.prototype instanceof FigureElement)) throw new Error(`${name}: its module defines no figure element as ${tag}`);
    figures.push({ name, tag, cls, title: (await cls.strings.en()).default.title });
  }
  return { figures, FigureElement };
}

/** AttentionSoftDictionaryElement for soft-dictionary. */
export const interfaceName = (name) => `Attention${name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase())}Element`;

const literal = (v) => JSON.stringify(v);
const range = (p) => `${p.integer ? 'a whole number ' : ''}${p.min}..${p.max}`;

/** A prop's property: its type, and a line saying what it takes. */
function property(key, p) {
  let get;
  let set;
  let doc;
  if (p.type === 'number') {
    [get, set] = ['number', 'number'];
    doc = `${range(p)}${p.snap ? ', moved to the nearest allowed value' : ''} (default ${p.default}); out of range is clamped.`;
  } else if (p.type === 'boolean') {
    [get, set] = ['boolean', 'boolean'];
    doc = `default ${p.default}.`;
  } else if (p.type === 'enum') {
    get = p.values.map(literal).join(' | ');
    // a number-like value may be given as a number (el.heads = 1): the setter writes String(v)
    const numbers = p.values.filter((v) => v !== '' && String(Number(v)) === v);
    set = [get, ...numbers].join(' | ');
    doc = `one of ${p.values.map(literal).join(', ')} (default ${literal(p.default)}); anything else means the default.`;
  } else if (p.type === 'string') {
    [get, set] = ['string', 'string'];
    doc = `default ${literal(p.default)}${p.normalize ? '; text that does not parse means the default' : ''}.`;
  } else {
    throw new Error(`prop ${key}: unknown type ${p.type}`);
  }
  const lines = [`  /** The \`${key}\` attribute as a property: ${doc} */`];
  if (get === set) lines.push(`  ${key}: ${get};`);
  else lines.push(`  get ${key}(): ${get};`, `  set ${key}(value: ${set});`);
  return lines.join('\n');
}

/** Accessors a figure class defines itself beyond its props (heatmap's `data`). */
function extraAccessors(cls, FigureElement) {
  const names = [];
  for (let proto = cls.prototype; proto !== FigureElement.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if ((d.get || d.set) && !(key in cls.props) && !names.includes(key)) names.push(key);
    }
  }
  return names.map((key) => `  /** See the element's section in docs/embedding.md. */\n  ${key}: unknown;`);
}

export function figureDts({ name, tag, cls, title }, FigureElement) {
  const members = [...Object.entries(cls.props).map(([k, p]) => property(k, p)), ...extraAccessors(cls, FigureElement)];
  return `${HEADER}import type { AttentionFigureElement } from '../figure-element.js';

/** <${tag}>${title ? `: ${title.replace(/\*\//g, '* /')}` : ''}. Importing this module defines the tag. */
export interface ${interfaceName(name)} extends AttentionFigureElement {
${members.join('\n')}
}

declare global {
  interface HTMLElementTagNameMap {
    '${tag}': ${interfaceName(name)};
  }
}
`;
}

const BASE = `${HEADER}
/**
 * What every figure element has. Its attributes set its starting state and are
 * mirrored as properties; a change redraws it. The \`theme\` attribute
 * ("light" or "dark"; default: the page's own) is not a property.
 */
export interface AttentionFigureElement extends HTMLElement {
  /** Resolves once the figure has drawn for the first time (or shown why it could not start). */
  readonly ready: Promise<void>;
  /** The current state in words: what the figure announces to screen readers. */
  readonly summary: string;
}
`;

export function indexDts(figures) {
  return `${HEADER}import type { Attention } from '../web/attention.js';
${figures.map(({ name }) => `import './figures/${name}.js';`).join('\n')}

export type { AttentionFigureElement } from './figure-element.js';
${figures.map(({ name }) => `export type { ${interfaceName(name)} } from './figures/${name}.js';`).join('\n')}

/** The engine every figure on the page shares (loadAttention's object). */
export function engine(): Promise<Attention>;

/**
 * Typeset the elements with data-tex under \`root\` (default: the document) as MathML;
 * \`formulas\` maps TeX to MathML made at build time. Resolves when done.
 */
export function typeset(root?: ParentNode, formulas?: Record<string, string>): Promise<void>;
`;
}

export async function writeFigureTypes() {
  const { figures, FigureElement } = await figureClasses();
  await mkdir(join(dist, 'figures'), { recursive: true });
  await writeFile(join(dist, 'figure-element.d.ts'), BASE);
  for (const f of figures) await writeFile(join(dist, 'figures', `${f.name}.d.ts`), figureDts(f, FigureElement));
  await writeFile(join(dist, 'attention-figures.d.ts'), indexDts(figures));
  return figures.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`figure-types.mjs: declarations of ${await writeFigureTypes()} figures in dist/`);
}

// The command `attention-wasm snapshot` (bin/): every figure with a picture
// drawn as SVG and PNG as a reader runs it; what the pictures show is the
// model's numbers; every request it cannot carry out gets one sentence and
// exit status 2 with nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIGURES } from '../../web/figures/registry.js';
import { PALETTE } from '../../web/kit/draw/colors.js';
import { OPTIONS } from '../../bin/snapshot.js';
import { run, parseSvg, readPicture, pngSize } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
const titles = Object.fromEntries(await Promise.all(FIGURES.map(async ({ name }) => [name, (await import(`../../web/figures/${name}/${name}.strings.en.js`)).default.title])));
const COLOURS = new Set(Object.values(PALETTE.light).concat(Object.values(PALETTE.dark)));

// every colour a picture paints is a colour, not a variable: #rrggbb, rgb(), a named one or none
const PAINT = /^(#[0-9a-f]{6}|rgb\(\d+,? ?\d+,? ?\d+\)|none|white|black)$/i;

for (const { name } of FIGURES) {
  test(`${name}: the command draws it as SVG (parsed, titled, described, colours resolved) and as a PNG of the stated size`, async () => {
    const svg = await run(['snapshot', name]);
    assert.equal(svg.code, 0, svg.stderr);
    assert.equal(svg.stderr, '');
    const text = svg.stdout.toString();
    assert.doesNotMatch(text, /var\(/, 'no CSS variable left');
    const pic = readPicture(parseSvg(text));
    assert.equal(pic.root.tagName, 'svg');
    assert.equal(pic.title, titles[name]);
    assert.ok(pic.desc.length > 20, `a summary as its description: ${pic.desc}`);
    assert.ok(pic.texts.length > 3, 'real text, not outlines');
    assert.equal(pic.width, 720);
    for (const node of Array.from(pic.root.getElementsByTagName('*'))) {
      for (const attr of ['fill', 'stroke']) {
        const v = node.getAttribute(attr);
        if (v) assert.match(v, PAINT, `${node.tagName} ${attr}="${v}"`);
      }
    }
    assert.ok([...COLOURS].some((c) => text.includes(c)), 'the palette\'s colours');
    const out = join(dir, `${name}.png`);
    const png = await run(['snapshot', name, '--format', 'png', '--width', '400', '--out', out]);
    assert.equal(png.code, 0, png.stderr);
    assert.equal(png.stdout.length, 0, 'with --out nothing goes to standard output');
    const narrow = readPicture(parseSvg((await run(['snapshot', name, '--width', '400'])).stdout.toString()));
    assert.deepEqual(pngSize(readFileSync(out)), { width: 400, height: narrow.height }, 'the PNG is the SVG at its size');
  });
}

test('soft-dictionary: at temperature 1000 five weights of 20%, at 0.001 one of 100%', async () => {
  const at = async (temperature) => readPicture(parseSvg((await run(['snapshot', 'soft-dictionary', '--temperature', temperature])).stdout.toString()));
  const hot = await at('1000');
  assert.deepEqual(hot.texts.filter((t) => /^\d+%$/.test(t)), ['20%', '20%', '20%', '20%', '20%']);
  assert.match(hot.desc, /no key stands out: 20% each/);
  const cold = await at('0.001');
  assert.deepEqual(cold.texts.filter((t) => /^\d+%$/.test(t)).sort(), ['0%', '0%', '0%', '0%', '100%']);
  assert.match(cold.desc, /largest weight: plum, 100%/);
});

test('Chinese and dark: the words of the figure\'s Chinese table, the dark palette', async () => {
  const r = await run(['snapshot', 'soft-dictionary', '--lang', 'zh-CN', '--theme', 'dark']);
  assert.equal(r.code, 0, r.stderr);
  const text = r.stdout.toString();
  const zh = (await import('../../web/figures/soft-dictionary/soft-dictionary.strings.zh.js')).default;
  const pic = readPicture(parseSvg(text));
  assert.equal(pic.title, zh.title);
  assert.match(pic.root.getAttribute('lang'), /^zh-CN$/);
  assert.ok(text.includes(PALETTE.dark.bg) && !text.includes(PALETTE.light.bg), 'the dark background');
});

test('no figure has an attribute named like one of the command\'s options', async () => {
  for (const { name } of FIGURES) {
    const { props } = await import(`../../web/figures/${name}/${name}.props.js`);
    assert.deepEqual(Object.keys(props).filter((k) => OPTIONS.includes(k)), [], name);
  }
});

test('attributes go through the figure\'s own declarations: numbers clamped, written as the figure keeps them', async () => {
  const a = readPicture(parseSvg((await run(['snapshot', 'soft-dictionary', '--temperature', '5000', '--query', '9,9'])).stdout.toString()));
  assert.match(a.desc, /^Query at 1\.20, 1\.20, temperature 1000\.000:/, 'clamped to the plane and to the slider\'s end');
  const b = readPicture(parseSvg((await run(['snapshot', 'notation', '--value=-0.5'])).stdout.toString()));
  assert.match(b.desc, /^a = −0\.50: the scalar is blue at 50% strength/);
});

// Each case: the arguments, and what the one sentence must name.
const REFUSED = [
  [['snapshot', 'no-such-figure'], /no figure "no-such-figure"/],
  [['snapshot'], /Name a figure/],
  [['snapshot', 'soft-dictionary', '--colour', 'red'], /no attribute --colour; its attributes are --temperature, --query/],
  [['snapshot', 'soft-dictionary', '--temperature', 'hot'], /--temperature of soft-dictionary takes a number from 0\.001 to 1000, not "hot"/],
  [['snapshot', 'soft-dictionary', '--query', 'north'], /--query of soft-dictionary takes text .* not "north"/],
  [['snapshot', 'dot-product', '--user', '1,2'], /--user of dot-product takes/],
  [['snapshot', 'soft-dictionary', '--lang', 'fr'], /--lang takes en or zh-CN, not "fr"/],
  [['snapshot', 'soft-dictionary', '--theme', 'sepia'], /--theme takes light or dark/],
  [['snapshot', 'soft-dictionary', '--format', 'gif'], /--format takes svg or png, not "gif"/],
  [['snapshot', 'soft-dictionary', '--width', 'wide'], /--width takes a whole number of pixels from 280 to 2400, not "wide"/],
  [['snapshot', 'soft-dictionary', '--width', '100'], /--width takes a whole number/],
  [['snapshot', 'soft-dictionary', '--temperature'], /--temperature needs a value/],
  [['snapshot', 'soft-dictionary', 'extra'], /"extra" is not an option/],
  [['snapshot', 'notation', '--example', 'x.json'], /notation takes no example/, { 'x.json': '{}' }],
  [['snapshot', 'soft-dictionary', '--example', 'missing.json'], /--example: cannot read missing\.json \(ENOENT\)/],
  [['snapshot', 'soft-dictionary', '--example', 'bad.json'], /--example: bad\.json is not valid JSON/, { 'bad.json': '{"keys": [' }],
  [['snapshot', 'soft-dictionary', '--example', 'few.json'], /few\.json cannot be soft-dictionary's example: "values" must have 2 entries, as many as "keys", it has 1/,
    { 'few.json': JSON.stringify({ keys: [[0, 0], [0.5, 0.5]], values: [[1, 0, 0]], labels: ['a', 'b'] }) }],
  [['snapshot', 'soft-dictionary', '--out', 'no/such/folder/x.svg'], /--out: cannot write no\/such\/folder\/x\.svg \(ENOENT\)/],
  [['snapshot', 'soft-dictionary', '--out', 'a-folder'], /--out: cannot write a-folder \(EISDIR\)/, {}, ['a-folder']],
  [['dance'], /no command "dance"/],
];

test('what the command cannot do: one sentence naming it, exit status 2, nothing written', async () => {
  for (const [args, said, files = {}, folders = []] of REFUSED) {
    const cwd = mkdtempSync(join(dir, 'case-'));
    for (const [f, body] of Object.entries(files)) writeFileSync(join(cwd, f), body);
    for (const f of folders) mkdirSync(join(cwd, f));
    const before = readdirSync(cwd, { recursive: true }).sort();
    const r = await run(args, { cwd });
    const what = args.join(' ');
    assert.equal(r.code, 2, `${what}: exit status (${r.stderr})`);
    assert.match(r.stderr, said, what);
    assert.match(r.stderr, /^attention-wasm: [^\n]+\.\n/, `${what}: one sentence`);
    assert.equal(r.stdout.length, 0, `${what}: nothing on standard output`);
    assert.deepEqual(readdirSync(cwd, { recursive: true }).sort(), before, `${what}: no file written`);
  }
});

test('--out writes the whole picture; the example flag draws the page\'s own example', async () => {
  const cwd = mkdtempSync(join(dir, 'out-'));
  writeFileSync(join(cwd, 'mine.json'), JSON.stringify({ keys: [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]], values: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], labels: ['rouge', 'vert', 'bleu'] }));
  const r = await run(['snapshot', 'soft-dictionary', '--example', 'mine.json', '--query', '0.5,0.5', '--temperature', '0.001', '--out', 'mine.svg'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(join(cwd, 'mine.svg')));
  const pic = readPicture(parseSvg(readFileSync(join(cwd, 'mine.svg'), 'utf8')));
  assert.ok(['rouge', 'vert', 'bleu'].every((l) => pic.texts.includes(l)), 'the page\'s labels');
  assert.match(pic.desc, /largest weight: vert, 100%/);
  assert.deepEqual(readdirSync(cwd).sort(), ['mine.json', 'mine.svg'], 'no temporary file left');
});

test('induction and tiny-gpt: the pictures show their untrained models\' numbers, and say they are untrained', async () => {
  const { loadAttention } = await import('../../web/attention.js');
  const { createRun } = await import('../../web/figures/induction/induction.model.js');
  const tiny = await import('../../web/figures/tiny-gpt/tiny-gpt.model.js');
  const untrained = (await import('../../web/kit/picture/picture.strings.en.js')).default.untrained;
  const attn = await loadAttention();
  const training = createRun(attn, {});
  const { first, repeats } = training.curve[0];
  training.dispose();
  const ind = readPicture(parseSvg((await run(['snapshot', 'induction'])).stdout.toString()));
  assert.ok(ind.texts.join(' ').includes(`Held-out loss ${first.toFixed(2)} on the first pass, ${repeats.toFixed(2)} on the repeats.`), 'the held-out losses at step 0');
  assert.ok(ind.texts.some((x) => x.startsWith(untrained.slice(0, 30))), 'said to be untrained');
  const simd = await loadAttention({ build: 'simd' });
  const o = tiny.DEFAULTS;
  const model = simd.createTransformer({ vocab: tiny.ALPHABET.length, context: o.context, dModel: o.dModel, heads: o.heads, layers: o.layers, mlp: true, layerNorm: true, seed: o.seed });
  const greedy = tiny.decodings(model, o.prompt, { temperature: o.temperature }).greedy;
  model.dispose();
  const gpt = readPicture(parseSvg((await run(['snapshot', 'tiny-gpt'])).stdout.toString()));
  assert.ok(gpt.texts.join('').includes((o.prompt + greedy.text).slice(0, 20)), 'the untrained model\'s greedy decoding');
  assert.ok(gpt.texts.some((x) => x.includes(`log-probability ${greedy.logProb.toFixed(1)} nats`)), 'its log-probability');
});

// blog-engines.test.js: issue 27, findings 6 and 7. The Hugo theme component
// and the Jekyll include installed and used exactly as docs/embedding.md's
// "Hugo" and "Jekyll" sections say (their config line, copy commands and
// example page), from `npm pack` in a fresh folder: a Hugo site whose baseURL
// has a path and a Jekyll site with a baseurl, built by Debian's hugo and
// jekyll (offline), served by scripts/serve.mjs, opened in Chromium.
//   - every registered figure builds; an unknown one (or, in Hugo, JSON that
//     is not) stops the build, naming it and the page;
//   - the example page's soft dictionary draws its own keys (data-example),
//     its tiny GPT its own title (data-strings), its causal mask its own tokens
//     with preset and lang (attributes the old include dropped), at desktop
//     width and at 360 px, with no console error and no failed request.
// And where scripts do not run, a post's figures are their pictures
// (web/embed/README.md, "Pictures"):
//   - with JavaScript off, every figure shows its picture from an absolute
//     address under the base path (Hugo's absURL drops that path for a path
//     with a leading slash, and a path that already holds it doubles: the
//     addresses are checked whole);
//   - the post through DOMPurify, as a feed reader takes it (scripts
//     stripped, unknown elements unwrapped), keeps every picture, and each
//     loads from a page of another origin; the caption of a default picture
//     under attributes of the post's own says so; the blogger's own picture
//     (made with the package's snapshot command) stands in for the default;
//   - Mozilla's Readability keeps the pictures, and each loads;
//   - the og:image partial writes an absolute address of the PNG, which loads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import DOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { Readability } from '@mozilla/readability';

import { FIGURES } from '../../web/figures/registry.js';
import { start, ready, SCREENSHOTS } from '../browser/harness.js';
import { install } from './install.js';

const DOCS = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
/** The ```lang block of the README's `## heading` section. */
function docs(heading, lang) {
  const section = DOCS.split(/^## /m).find((s) => s.startsWith(`${heading}\n`)) ?? '';
  const block = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
  assert.ok(block, `docs/embedding.md's "${heading}" section has no ${lang} block`);
  return block;
}

// What the README's example pages give their figures; none of it is the figures' own.
const LABELS = ['rose', 'leaf', 'lake'];
const TITLE = 'A GPT trained as you read';
const TOKEN = 'therefore';

const LAYOUT = (content, head = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Figures</title><link rel="icon" href="data:,"><style>body { margin: 0 auto; max-width: 760px; padding: 0 12px; font-family: sans-serif; }</style>${head}</head>
<body><main>${content}</main></body></html>
`;

// What the snippets know of each figure (scripts/blog-data.mjs, as the package ships it).
const DATA = JSON.parse(readFileSync(new URL('../../web/embed/hugo/data/attention_figures.json', import.meta.url), 'utf8'));
const COLD = '0.05'; // the blogger's own temperature, and their picture of it

// A post as a blogger writes it: prose, the default picture, the same figure
// with an attribute of the post's own, and with the blogger's own picture
// of that. `figure(name, params)` writes an engine's snippet; `own` is its
// snapshot parameter.
const PROSE = 'Attention is a soft dictionary: a query is compared with every key, and each value comes back in proportion to how well its key matched. '.repeat(4);
const post = (figure, own) => [
  PROSE,
  figure('soft-dictionary', {}),
  PROSE,
  figure('soft-dictionary', { temperature: COLD }),
  figure('soft-dictionary', { temperature: COLD, ...own }),
  PROSE,
].join('\n\n');
const hugoFigure = (name, params) => `{{< attention figure="${name}"${Object.entries(params).map(([k, v]) => ` ${k}="${v}"`).join('')} />}}`;
const jekyllFigure = (name, params) => `{% include attention-figure.html figure="${name}"${Object.entries(params).map(([k, v]) => ` ${k}="${v}"`).join('')} %}`;

// Each engine: its site's files (after the README's install), the module's
// address, and how it builds.
const ENGINES = {
  hugo: {
    base: '/blog',
    module: '/blog/attention/attention-figures.js',
    pictures: '/blog/attention/snapshots/',
    // the blogger's picture, under static/, named with a leading slash (which absURL would resolve outside the base path)
    own: { dir: 'static/pictures', url: '/blog/pictures/cold.svg', params: () => ({ snapshot: '/pictures/cold.svg' }) },
    missing: ['content/missing.md', '---\ntitle: Missing\n---\n{{< attention figure="soft-dictionary" snapshot="pictures/nowhere.svg" />}}\n'],
    site: (origin) => ({
      'hugo.toml': `baseURL = "${origin}/blog/"\ntitle = "A blog"\ndisableKinds = ["home", "taxonomy", "term", "RSS", "sitemap"]\n${docs('Hugo', 'toml')}`,
      'layouts/_default/single.html': LAYOUT('{{ .Content }}', '{{ partial "attention-og-image.html" . }}'),
      'content/post.md': `---\ntitle: A post\nattention_image: soft-dictionary\n---\n${post(hugoFigure, ENGINES.hugo.own.params())}\n`,
      'content/figures.md': `---\ntitle: Figures\n---\n${docs('Hugo', 'markdown')}`,
      'content/every-figure.md': `---\ntitle: Every figure\n---\n${FIGURES.map((f) => `{{< attention figure="${f.name}" />}}`).join('\n\n')}\n`,
    }),
    unknown: ['content/unknown.md', '---\ntitle: Unknown\n---\n{{< attention figure="tiny-gpts" />}}\n'],
    badJson: ['content/bad.md', '---\ntitle: Bad\n---\n{{< attention figure="soft-dictionary" example=`{"keys": [[0, 1],]}` />}}\n'],
    build: (dir, out) => spawnSync('hugo', ['--source', dir, '--destination', out, '--cacheDir', join(dir, '.cache')], { encoding: 'utf8', timeout: 120_000 }),
  },
  jekyll: {
    base: '/notes',
    module: '/notes/assets/attention/attention-figures.js',
    pictures: '/notes/assets/attention/snapshots/',
    // the blogger's picture, a file of the site; Liquid cannot read its size: the post gives it
    own: {
      dir: 'assets/pictures', url: '/notes/assets/pictures/cold.svg',
      params: (dir) => ({ snapshot: 'assets/pictures/cold.svg', ...svgSize(join(dir, 'assets/pictures/cold.svg')) }),
    },
    missing: ['missing.md', '---\nlayout: default\n---\n{% include attention-figure.html figure="soft-dictionary" snapshot="assets/pictures/nowhere.svg" %}\n'],
    // the README's commands after its `npm install` (done from the tarball here)
    setup: docs('Jekyll', 'sh').split('\n').filter((line) => line && !line.startsWith('npm install')).join('\n'),
    site: (origin, dir) => ({
      '_config.yml': `title: A blog\nbaseurl: /notes\nurl: "${origin}"\n`,
      '_layouts/default.html': LAYOUT('{{ content }}', '{% include attention-og-image.html %}'),
      'post.md': `---\nlayout: default\npermalink: /post/\ntitle: A post\nattention_image: soft-dictionary\n---\n${post(jekyllFigure, ENGINES.jekyll.own.params(dir))}\n`,
      'figures.md': `---\nlayout: default\npermalink: /figures/\n---\n${docs('Jekyll', 'liquid')}`,
      'every-figure.md': `---\nlayout: default\npermalink: /every-figure/\n---\n${FIGURES.map((f) => `{% include attention-figure.html figure="${f.name}" %}`).join('\n\n')}\n`,
    }),
    unknown: ['unknown.md', '---\nlayout: default\n---\n{% include attention-figure.html figure="tiny-gpts" %}\n'],
    build: (dir, out) => spawnSync('jekyll', ['build', '--source', dir, '--destination', out], { encoding: 'utf8', timeout: 120_000 }),
  },
};

let tmp;
let www; // what the server serves: each site built under its base path
let server;
before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'attention-blogs-'));
  www = join(tmp, 'www');
  mkdirSync(www);
  server = await start({ root: www });
});
after(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const write = (dir, files) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
};
const output = (r) => `${r.stdout}${r.stderr}`;

/** A site for `name` installed and written in tmp (once); -> its folder. */
const sites = {};
function site(name) {
  if (sites[name]) return sites[name];
  const engine = ENGINES[name];
  const dir = join(tmp, name);
  const pkg = install(tmp, dir);
  if (engine.setup) execFileSync('bash', ['-euc', engine.setup], { cwd: dir });
  // the blogger's own picture of the figure at their temperature, by the package's command
  mkdirSync(join(dir, engine.own.dir), { recursive: true });
  execFileSync(process.execPath, [join(pkg, 'bin/attention-wasm.js'), 'snapshot', 'soft-dictionary', '--temperature', COLD,
    '--out', join(dir, engine.own.dir, 'cold.svg')]);
  write(dir, engine.site(server.origin, dir));
  return (sites[name] = dir);
}

/** Build `name`'s site into the served folder (once); -> its output folder. */
const builds = {};
function built(name) {
  if (builds[name]) return builds[name];
  const out = join(www, ENGINES[name].base);
  const r = ENGINES[name].build(site(name), out);
  assert.equal(r.status, 0, `${name} build failed:\n${output(r)}`);
  return (builds[name] = out);
}

/** Build `name`'s site with one more page, `[path, text]`, elsewhere; -> the engine's output. */
function buildWith(name, [path, text]) {
  const dir = site(name);
  write(dir, { [path]: text });
  try {
    return ENGINES[name].build(dir, join(tmp, `${name}-failing`));
  } finally {
    rmSync(join(dir, path));
  }
}

/** {snapshot_width, snapshot_height} of an SVG picture, as its <svg> says. */
function svgSize(file) {
  const svg = readFileSync(file, 'utf8').match(/<svg\b[^>]*>/)[0];
  const [snapshot_width, snapshot_height] = ['width', 'height'].map((k) => Math.round(Number(svg.match(new RegExp(`\\s${k}="([\\d.]+)"`))[1])));
  return { snapshot_width, snapshot_height };
}

/** The post's content as its page holds it (what a feed carries). */
const content = (name) => readFileSync(join(built(name), 'post/index.html'), 'utf8').match(/<main>([\s\S]*)<\/main>/)[1];

/** Status and type of what `url` serves, and its bytes. */
async function get(url) {
  const r = await fetch(url);
  return { status: r.status, type: r.headers.get('content-type'), bytes: Buffer.from(await r.arrayBuffer()) };
}

/** Render `html` (a feed item, a reader view) in a page of no origin; -> its pictures, once each has loaded or failed. */
async function rendered(html, screenshot) {
  const context = await server.browser.newContext({ viewport: { width: 760, height: 900 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="margin: 0 auto; max-width: 720px; padding: 12px; font-family: serif">${html}</body></html>`);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete));
    await page.screenshot({ path: screenshot, fullPage: true });
    return await page.evaluate(() => [...document.images].map((i) => ({
      src: i.getAttribute('src'), current: i.currentSrc, loaded: i.naturalWidth > 0,
      caption: i.closest('figure')?.querySelector('figcaption')?.textContent ?? '',
    })));
  } finally {
    await context.close();
  }
}

/** What the page's figures show, for the checks below. */
const shown = (el) => el.evaluate((e) => ({
  text: e.shadowRoot.textContent, errors: [...e.shadowRoot.querySelectorAll('.example-error')].map((p) => p.textContent),
  preset: e.preset, lang: e.lang, width: e.getBoundingClientRect().width,
}));

for (const name of Object.keys(ENGINES)) {
  const { base, module, pictures } = ENGINES[name];
  describe(name, () => {
    test(`every registered figure builds, its module under the base path ${base}/`, () => {
      const html = readFileSync(join(built(name), 'every-figure/index.html'), 'utf8');
      for (const { tag } of FIGURES) assert.match(html, new RegExp(`<${tag}[ >]`), `${tag} is not on the page`);
      const sources = new Set([...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]));
      assert.deepEqual([...sources], [module]);
    });

    test('an unknown figure stops the build, naming it and the page', () => {
      const r = buildWith(name, ENGINES[name].unknown);
      assert.notEqual(r.status, 0, 'the build passed');
      assert.match(output(r), /unknown-?\s?figure.*tiny-gpts/);
      assert.match(output(r), /unknown\.md/);
    });

    if (ENGINES[name].badJson) {
      test('JSON that is not stops the build, naming the page', () => {
        const r = buildWith(name, ENGINES[name].badJson);
        assert.notEqual(r.status, 0, 'the build passed');
        assert.match(output(r), /bad\.md.*\n?.*(invalid character|unmarshal)/);
      });
    }

    test('with JavaScript off, every figure shows its picture from an absolute address under the base path', async () => {
      built(name);
      const { page, problems, context } = await server.open(`${base}/every-figure/`, { javaScriptEnabled: false });
      try {
        const shown = await page.evaluate((tags) => tags.map((tag) => {
          const el = document.querySelector(tag);
          const img = el.querySelector('figure img');
          return {
            tag, text: el.innerText.trim(),
            img: img && { src: img.src, current: img.currentSrc, loaded: img.complete && img.naturalWidth > 0, width: img.getBoundingClientRect().width },
          };
        }), FIGURES.map((f) => f.tag));
        for (const [k, { name: figure }] of FIGURES.entries()) {
          const { tag, text, img } = shown[k];
          assert.ok(img, `${tag} has no picture`);
          assert.equal(img.current, `${server.origin}${pictures}${figure}.svg`, `${tag}'s picture`);
          assert.equal(img.src, `${server.origin}${pictures}${figure}.png`, `${tag}'s picture for software without SVG`);
          assert.ok(img.loaded && img.width > 300, `${tag}'s picture did not load (${img.width} px wide)`);
          assert.ok(text.startsWith(DATA[figure].title), `${tag}'s caption: ${text}`);
          assert.doesNotMatch(text, /JavaScript/, tag);
          const png = await get(img.src);
          assert.deepEqual([png.status, png.type], [200, 'image/png'], img.src);
        }
        await page.goto(`${server.origin}${base}/post/`);
        await page.screenshot({ path: `${SCREENSHOTS}consumer-${name}-no-javascript.png`, fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
      // on a phone, the pictures fit the column
      const phone = await server.open(`${base}/post/`, { javaScriptEnabled: false, width: 360, height: 740 });
      try {
        const widths = await phone.page.evaluate(() => [...document.images].map((i) => i.getBoundingClientRect().right));
        assert.equal(widths.length, 3);
        for (const right of widths) assert.ok(right <= 360, `a picture reaches ${right} px of 360`);
      } finally {
        await phone.context.close();
      }
    });

    test('the post through DOMPurify, as a feed reader: every picture kept, absolute, and loading from another page', async () => {
      built(name);
      const purify = DOMPurify(new JSDOM('').window);
      const item = purify.sanitize(content(name)); // its defaults: scripts out, unknown elements unwrapped
      assert.doesNotMatch(item, /<script|<attention-/);
      const pictures = await rendered(item, `${SCREENSHOTS}consumer-${name}-feed.png`);
      const expected = [
        [`${server.origin}${ENGINES[name].pictures}soft-dictionary.svg`, DATA['soft-dictionary'].title],
        [`${server.origin}${ENGINES[name].pictures}soft-dictionary.svg`, `${DATA['soft-dictionary'].title} (pictured with its default settings; the figure on this page starts from its own)`],
        [`${server.origin}${ENGINES[name].own.url}`, DATA['soft-dictionary'].title],
      ];
      assert.deepEqual(pictures.map((p) => [p.current, p.caption]), expected);
      for (const p of pictures) {
        assert.match(p.src, new RegExp(`^${server.origin}${base}/`), `${p.src} is not absolute under ${base}/`);
        assert.ok(p.loaded, `${p.current} did not load`);
      }
      // the blogger's picture is what they made: the command's numbers at their temperature
      const own = (await get(expected[2][0])).bytes.toString();
      assert.match(own, new RegExp(`temperature ${Number(COLD).toFixed(3)}`));
    });

    test('Readability keeps the pictures, and they load', async () => {
      const url = `${server.origin}${base}/post/`;
      const dom = new JSDOM(readFileSync(join(built(name), 'post/index.html'), 'utf8'), { url });
      const article = new Readability(dom.window.document).parse();
      assert.ok(article?.content, 'Readability found no article');
      const pictures = await rendered(article.content, `${SCREENSHOTS}consumer-${name}-reader.png`);
      assert.equal(pictures.length, 3, `${pictures.length} pictures in the reader view`);
      for (const p of pictures) assert.ok(p.loaded && p.current.startsWith(`${server.origin}${base}/`), `${p.current} did not load`);
    });

    test('the og:image partial writes the absolute address of the PNG, which loads', async () => {
      const html = readFileSync(join(built(name), 'post/index.html'), 'utf8');
      const meta = (key) => html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`))?.[1];
      const url = meta('og:image');
      assert.equal(url, `${server.origin}${ENGINES[name].pictures}soft-dictionary.png`);
      assert.equal(meta('twitter:image'), url);
      assert.equal(meta('twitter:card'), 'summary_large_image');
      const png = await get(url);
      assert.deepEqual([png.status, png.type], [200, 'image/png']);
      // its stated size is the PNG's (IHDR: width and height at bytes 16 and 20)
      assert.deepEqual([meta('og:image:width'), meta('og:image:height')].map(Number), [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]);
    });

    test('a snapshot that is not a file of the site stops the build, naming it', () => {
      const r = buildWith(name, ENGINES[name].missing);
      assert.notEqual(r.status, 0, 'the build passed');
      assert.match(output(r), /nowhere\.svg/);
    });

    for (const width of [1100, 360]) {
      test(`the page's own example, words and attributes reach the figures (${width} px)`, async () => {
        built(name);
        const { page, problems, context } = await server.open(`${base}/figures/`, { width, height: 800 });
        try {
          const dictionary = await shown(await ready(page, 'attention-soft-dictionary'));
          assert.deepEqual(dictionary.errors, [], 'the example was rejected');
          for (const label of LABELS) assert.ok(dictionary.text.includes(label), `the dictionary does not show "${label}"`);
          assert.ok(!dictionary.text.includes('cherry'), 'the dictionary shows its own entries');

          const gpt = await shown(await ready(page, 'attention-tiny-gpt'));
          assert.deepEqual(gpt.errors, []);
          assert.ok(gpt.text.includes(TITLE), 'the tiny GPT does not show the page\'s title (data-strings)');

          const mask = await shown(await ready(page, 'attention-causal-mask'));
          assert.deepEqual(mask.errors, []);
          assert.equal(mask.preset, 'window');
          assert.equal(mask.lang, 'zh-CN');
          assert.ok(mask.text.includes('掩码'), 'the causal mask is not in Chinese');
          assert.ok(mask.text.includes(TOKEN), 'the causal mask does not show the page\'s tokens');

          for (const { width: w } of [dictionary, gpt, mask]) assert.ok(w <= width, `a figure is ${w} px wide`);
          await page.screenshot({ path: `${SCREENSHOTS}consumer-${name}${width < 500 ? '-phone' : ''}.png`, fullPage: true });
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });
    }
  });
}

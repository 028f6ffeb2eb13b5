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
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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

const LAYOUT = (content) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Figures</title><link rel="icon" href="data:,"><style>body { margin: 0 auto; max-width: 760px; padding: 0 12px; font-family: sans-serif; }</style></head>
<body><main>${content}</main></body></html>
`;

// Each engine: its site's files (after the README's install), the module's
// address, and how it builds.
const ENGINES = {
  hugo: {
    base: '/blog',
    module: '/blog/attention/attention-figures.js',
    site: (origin) => ({
      'hugo.toml': `baseURL = "${origin}/blog/"\ntitle = "A blog"\ndisableKinds = ["home", "taxonomy", "term", "RSS", "sitemap"]\n${docs('Hugo', 'toml')}`,
      'layouts/_default/single.html': LAYOUT('{{ .Content }}'),
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
    // the README's commands after its `npm install` (done from the tarball here)
    setup: docs('Jekyll', 'sh').split('\n').filter((line) => line && !line.startsWith('npm install')).join('\n'),
    site: () => ({
      '_config.yml': 'title: A blog\nbaseurl: /notes\n',
      '_layouts/default.html': LAYOUT('{{ content }}'),
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
  install(tmp, dir);
  if (engine.setup) execFileSync('bash', ['-euc', engine.setup], { cwd: dir });
  write(dir, engine.site(server.origin));
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

/** What the page's figures show, for the checks below. */
const shown = (el) => el.evaluate((e) => ({
  text: e.shadowRoot.textContent, errors: [...e.shadowRoot.querySelectorAll('.example-error')].map((p) => p.textContent),
  preset: e.preset, lang: e.lang, width: e.getBoundingClientRect().width,
}));

for (const name of Object.keys(ENGINES)) {
  const { base, module } = ENGINES[name];
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

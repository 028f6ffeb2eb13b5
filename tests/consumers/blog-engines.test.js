// blog-engines.test.js: issue 27, findings 6 and 7. The Hugo theme component
// and the Jekyll include as a blogger installs them (web/embed/README.md):
// the package from `npm pack` in a fresh folder, a Hugo site whose baseURL
// has a path and a Jekyll site with a baseurl, built by Debian's hugo and
// jekyll (offline), served by scripts/serve.mjs, opened in Chromium.
//   - every registered figure builds; an unknown one (or JSON that is not)
//     stops the build, naming it and the page;
//   - a soft dictionary draws the page's own example (data-example), a tiny
//     GPT its own title (data-strings), a causal mask its own tokens with
//     attributes the old include dropped (preset, lang), at desktop width and
//     at 360 px, with no console error and no failed request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { FIGURES } from '../../web/figures/registry.js';
import { start, ready, SCREENSHOTS } from '../browser/harness.js';
import { install } from './install.js';

// The page's own example, title and tokens: none of them is the figures' own.
const DICTIONARY = { keys: [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]], values: [[0.9, 0.1, 0.1], [0.1, 0.7, 0.2], [0.1, 0.3, 0.9]],
  labels: ['rose', 'leaf', 'lake'] };
const TITLE = 'My own tiny GPT';
const TOKENS = ['<s>', 'I', 'think', 'therefore', 'I', 'am'];
const json = (value) => JSON.stringify(value);

const LAYOUT = (content) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Figures</title><link rel="icon" href="data:,"><style>body { margin: 0 auto; max-width: 760px; padding: 0 12px; font-family: sans-serif; }</style></head>
<body><main>${content}</main></body></html>
`;

// Each engine: its site's files, the paths of the pages once built, and how it builds.
const ENGINES = {
  hugo: {
    base: '/blog',
    site: (origin) => ({
      'hugo.toml': `baseURL = "${origin}/blog/"
title = "A blog"
disableKinds = ["home", "taxonomy", "term", "RSS", "sitemap"]
theme = ["../node_modules/attention-wasm/web/embed/hugo"]
`,
      'layouts/_default/single.html': LAYOUT('{{ .Content }}'),
      'content/figures.md': `---
title: Figures
---
A dictionary of my own:

{{< attention figure="soft-dictionary" temperature="0.3" example=\`${json(DICTIONARY)}\` />}}

{{< attention figure="tiny-gpt" steps="200" strings=\`{"title": "${TITLE}"}\` >}}A tiny GPT.{{< /attention >}}

{{< attention figure="causal-mask" preset="window" lang="zh-CN" >}}
<script type="application/json" data-example>${json(TOKENS)}</script>
<p>Masks over my own sentence.</p>
{{< /attention >}}
`,
      'content/every-figure.md': `---\ntitle: Every figure\n---\n${FIGURES.map((f) => `{{< attention figure="${f.name}" />}}`).join('\n\n')}\n`,
    }),
    pages: { figures: 'figures/', every: 'every-figure/' },
    unknown: ['content/unknown.md', '---\ntitle: Unknown\n---\n{{< attention figure="tiny-gpts" />}}\n'],
    badJson: ['content/bad.md', '---\ntitle: Bad\n---\n{{< attention figure="soft-dictionary" example=`{"keys": [[0, 1],]}` />}}\n'],
    build: (dir, out) => spawnSync('hugo', ['--source', dir, '--destination', out, '--cacheDir', join(dir, '.cache')], { encoding: 'utf8', timeout: 120_000 }),
  },
  jekyll: {
    base: '/notes',
    // the install the README gives: the include and its data file, and dist/ under assets/attention/
    copy: { 'web/embed/jekyll/_includes': '_includes', 'web/embed/jekyll/_data': '_data', dist: 'assets/attention' },
    site: () => ({
      '_config.yml': 'title: A blog\nbaseurl: /notes\n',
      '_layouts/default.html': LAYOUT('{{ content }}'),
      'figures.md': `---
layout: default
permalink: /figures/
---
A dictionary of my own:

{% capture dictionary %}
${json(DICTIONARY)}
{% endcapture %}
{% include attention-figure.html figure="soft-dictionary" temperature="0.3" example=dictionary %}

{% include attention-figure.html figure="tiny-gpt" steps="200" strings='{"title": "${TITLE}"}' fallback="A tiny GPT." %}

{% include attention-figure.html figure="causal-mask" preset="window" lang="zh-CN" example='${json(TOKENS)}' %}
`,
      'every-figure.md': `---\nlayout: default\npermalink: /every-figure/\n---\n${FIGURES.map((f) => `{% include attention-figure.html figure="${f.name}" %}`).join('\n\n')}\n`,
    }),
    pages: { figures: 'figures/', every: 'every-figure/' },
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
  for (const [from, to] of Object.entries(engine.copy ?? {})) cpSync(join(pkg, from), join(dir, to), { recursive: true });
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
  const { base, pages } = ENGINES[name];
  describe(name, () => {
    test(`every registered figure builds, its module under the base path ${base}/`, () => {
      const html = readFileSync(join(built(name), pages.every, 'index.html'), 'utf8');
      for (const { tag } of FIGURES) assert.match(html, new RegExp(`<${tag}[ >]`), `${tag} is not on the page`);
      const sources = new Set([...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]));
      const module = name === 'hugo' ? `${base}/attention/attention-figures.js` : `${base}/assets/attention/attention-figures.js`;
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
        const { page, problems, context } = await server.open(`${base}/${pages.figures}`, { width, height: 800 });
        try {
          const dictionary = await shown(await ready(page, 'attention-soft-dictionary'));
          assert.deepEqual(dictionary.errors, [], 'the example was rejected');
          for (const label of DICTIONARY.labels) assert.ok(dictionary.text.includes(label), `the dictionary does not show "${label}"`);
          assert.ok(!dictionary.text.includes('cherry'), 'the dictionary shows its own entries');

          const gpt = await shown(await ready(page, 'attention-tiny-gpt'));
          assert.deepEqual(gpt.errors, []);
          assert.ok(gpt.text.includes(TITLE), 'the tiny GPT does not show the page\'s title (data-strings)');

          const mask = await shown(await ready(page, 'attention-causal-mask'));
          assert.deepEqual(mask.errors, []);
          assert.equal(mask.preset, 'window');
          assert.equal(mask.lang, 'zh-CN');
          assert.ok(mask.text.includes('掩码'), 'the causal mask is not in Chinese');
          assert.ok(mask.text.includes('therefore'), 'the causal mask does not show the page\'s tokens');

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

// size.mjs: what a reader's browser really transfers, measured in headless
// Chromium over a gzip server (level 9, a fresh profile per page, so nothing
// comes from a cache): one page per figure (the snippet a blogger pastes: the
// script and one element), the article's first view, and the article
// scrolled to the end with no button pressed. Every byte counts: JS, CSS,
// wasm, fonts, workers, the article's own files.
//   npm run size                      the table, against the budgets
//   node scripts/size.mjs --root DIR  the same for another checkout (its dist/ built)
//   node scripts/size.mjs --json FILE also write the numbers
//   npm run size -- --write           also write the table to bench/RESULTS.md (its "size" section)
// tests/browser/size.test.js keeps the budgets, and that table within 3%.
import { chromium } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { sectionOf, writeResults } from '../bench/lib/results.mjs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { figurePage } from './figure-page.mjs';
import { FIGURES } from '../web/figures/registry.js';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium.mjs';

/** Budgets in gzip bytes (issue 26): what each page may transfer. */
export const BUDGETS = {
  'attention-soft-dictionary': 80_000,
  'attention-multi-head-it': 80_000,
  'attention-heatmap': 60_000,
  'attention-efficient': 80_000, // its worker's pool comes only with a sweep on every core
  'attention-cost': 80_000, // two builds (it times SIMD against scalar) and its worker
  'article, first view': 200_000,
  'article, scrolled to the end': 300_000,
};

const QUIET_MS = 700; // no request for this long: the page has loaded what it will

/**
 * Measure in a fresh Chromium: one-figure pages for `tags`, and the article
 * (first view, scrolled to the end) with `article`. -> [{page, bytes,
 * requests, files, readyMs}], with the Chromium version as its `browser`.
 * `executable`: the browser itself by default; the test passes the headless shell
 * (chromium.mjs), the same bytes but the favicon's at a third of the CPU.
 */
export async function measure({ root, tags = FIGURES.map((f) => f.tag), article = true, executable = CHROMIUM_EXECUTABLE } = {}) {
  let sent = [];
  let last = 0;
  const server = await serve({ port: 0, root, gzip: true, onSent: (path, bytes) => { sent.push({ path, bytes }); last = performance.now(); } });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS });
  const results = [];
  results.browser = browser.version();
  const quiet = async (page) => {
    // a figure that measures asks for its builds as its sweep starts (measuring.js, after
    // START_MS): on a busy machine later than a quiet spell after its first drawing
    await page.waitForFunction(() => [...document.querySelectorAll('*')].every((e) => !/waiting|running/.test(e.sweep?.phase)), null, { timeout: 120_000 });
    while (performance.now() - last < QUIET_MS) await page.waitForTimeout(100);
  };
  const record = (name, readyMs) => {
    results.push({ page: name, bytes: sent.reduce((a, s) => a + s.bytes, 0), requests: sent.length, files: sent.map((s) => s.path), readyMs });
  };
  try {
    for (const tag of tags) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      await page.route(`${origin}/one.html`, (r) => r.fulfill({ contentType: 'text/html', body: figurePage(tag) }));
      sent = [];
      last = performance.now();
      await page.goto(`${origin}/one.html`);
      await page.waitForFunction((t) => document.querySelector(t)?.matches('[data-ready], [data-error]'), tag, { timeout: 60_000 });
      const readyMs = await page.evaluate(() => performance.now());
      if (await page.locator(`${tag}[data-error]`).count()) throw new Error(`${tag} failed to start`);
      await quiet(page);
      record(tag, readyMs);
      await context.close();
    }
    if (article) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const page = await context.newPage();
      sent = [];
      last = performance.now();
      await page.goto(`${origin}/web/index.html`);
      await quiet(page);
      record('article, first view');
      // down the page as a reader scrolls, letting each figure start
      for (let y = 0; ; y += 700) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.waitForTimeout(150);
        if (await page.evaluate(() => window.scrollY + innerHeight >= document.documentElement.scrollHeight - 2)) break;
      }
      await page.waitForFunction(() => [...document.querySelectorAll('*')].filter((e) => e.localName.startsWith('attention-'))
        .every((e) => e.matches('[data-ready], [data-error]')), null, { timeout: 60_000 });
      await quiet(page);
      record('article, scrolled to the end');
      await context.close();
    }
  } finally {
    await browser.close();
    await new Promise((r) => server.close(r));
  }
  return results;
}

const kb = (n) => (n / 1000).toFixed(1);

/** The file that holds the table (a section of bench/RESULTS.md), and the section's name. */
export const QUOTING = ['bench/RESULTS.md'];
export const SECTION = 'size';

/** The table of `results` as Markdown. */
export function table(results, { ready = false } = {}) {
  const rows = results.map((r) => {
    const budget = BUDGETS[r.page];
    const cells = [r.page, r.requests, kb(r.bytes), budget ? `<= ${kb(budget)}${r.bytes > budget ? ' OVER' : ''}` : ''];
    return `| ${[...cells, ...(ready ? [r.readyMs?.toFixed(0) ?? ''] : [])].join(' | ')} |`;
  });
  return [`| page | requests | KB gzip | budget${ready ? ' | ready, ms' : ''} |`, `| --- | ---: | ---: | ---:${ready ? ' | ---:' : ''} |`, ...rows].join('\n');
}

/** {page: KB} as bench/RESULTS.md's text gives them (null without the section). */
export function quoted(text) {
  const body = sectionOf(text, SECTION);
  if (!body) return null;
  return Object.fromEntries([...body.matchAll(/^\| ([^|]+?) \| \d+ \| ([\d.]+) \|/gm)].map((m) => [m[1], Number(m[2])]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
  const root = resolve(arg('--root') ?? fileURLToPath(new URL('..', import.meta.url)));
  const results = await measure({ root });
  console.log(`size.mjs: ${root}, Chromium over gzip -9, fresh profile per page\n`);
  console.log(table(results, { ready: true }));
  if (arg('--json')) writeFileSync(arg('--json'), JSON.stringify(results, null, 1));
  if (process.argv.includes('--write')) {
    const body = `What a reader's browser transfers, gzip -9, in Chromium with a fresh profile per page (nothing from a cache): each
one-figure page is the script tag and one element (\`scripts/figure-page.mjs\`); the article's first view, and the article
scrolled to the end with no button pressed. KB = 1,000 bytes. Budgets: \`tests/browser/size.test.js\` keeps them, and this
table within 3% of what it measures.

${table(results)}`;
    const file = resolve(root, 'bench/RESULTS.md');
    writeResults(SECTION, { file, title: 'What a page transfers', command: 'npm run size -- --write', browser: results.browser, body });
    console.log(`\n${file}: section "${SECTION}" written`);
  }
  process.exitCode = results.some((r) => BUDGETS[r.page] && r.bytes > BUDGETS[r.page]) ? 1 : 0;
}

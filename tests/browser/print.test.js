// The article on paper, in Chromium and in Firefox (each engine's own
// page.pdf(), as printing to PDF does; backgrounds left to the page, as a
// reader's print dialog leaves them), printed right after it loads (most
// figures have not started: they print their pictures) and after the reader
// scrolled through it (every figure drawn; in Chromium with a dark system
// theme):
//   - pdftotext shows no label of a control or tool button (those the
//     figures' pictures or the prose state as facts are not controls), no
//     "Loading" and no "Press Start" (a training figure not started prints
//     its picture, which draws the model untrained);
//   - the page with the soft dictionary, rasterized by pdftoppm, shows its
//     colours: the soft lookup's swatch, a CSS background that prints only
//     with print-color-adjust: exact, is not white, and its weight bars are
//     the light theme's orange, never the dark theme's;
//   - a training figure prints its current state with its step line: the
//     induction figure, trained for a few steps, prints the step it had
//     reached when printing began (or a later one), not its first;
//   - the article prints as MathML, not TeX;
//   - in Chromium, every canvas a figure shows on screen is on paper too
//     (print media emulated), those inside a button included.
// The PDFs and a PNG of that page go to tests/artifacts/print/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './drivers/index.js';
import { serveTests } from './drivers/server.js';
import { ARTIFACTS } from './harness.js';
import { FIGURES, TAGS } from '../../web/figures/registry.js';

const OUT = join(ARTIFACTS, 'print');
const SNAPSHOTS = new URL('../../dist/snapshots/', import.meta.url);
const LIGHT_ORANGE = [0xc4, 0x5a, 0x00]; // --attention-positive, light and dark (web/kit/styles.js)
const DARK_ORANGE = [0xff, 0x9e, 0x3d];
const words = (text) => text.replace(/\s+/g, ' ').trim();

// What a printout may state: the prose and captions, the pictures' words (and the live figures' own, below).
const ARTICLE = words(readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8').replace(/<[^>]*>/g, ' ').replace(/&\w+;/g, ' '));
const PICTURES = FIGURES.map(({ name }) => words([...readFileSync(new URL(`${name}.svg`, SNAPSHOTS), 'utf8')
  .matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map((m) => m[1].replace(/<[^>]*>/g, '')).join(' '))).join(' ');
const stated = (label, other) => ARTICLE.includes(label) || PICTURES.includes(label) || other.includes(label);

let server;
before(async () => {
  server = await serveTests();
  mkdirSync(OUT, { recursive: true });
});
after(async () => { await server?.close(); });

// Every figure started and drawn, as after a reader scrolled through.
async function scrollThrough(page) {
  await page.evaluate(async (tags) => {
    for (const tag of tags) {
      const el = document.querySelector(tag);
      el.scrollIntoView();
      while (!el.hasAttribute('data-ready') && !el.hasAttribute('data-error')) await new Promise((r) => setTimeout(r, 50));
    }
    window.scrollTo(0, 0);
  }, TAGS);
}

// The labels of every control and tool button on the page (in the figures'
// shadow roots), and the figures' other words.
const CONTROLS = 'button, label, legend, .tools, .controls, .slider, fieldset, .switch, select, textarea';
const controlLabels = (page) => page.evaluate(([tags, controls]) => {
  const roots = tags.map((tag) => document.querySelector(tag).shadowRoot);
  const labels = roots.flatMap((root) => [...root.querySelectorAll(controls)].map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
  const other = roots.map((root) => {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walk.nextNode()) if (!walk.currentNode.parentElement.closest(controls)) texts.push(walk.currentNode.textContent);
    return texts.join(' ');
  }).join(' ');
  return { labels, other: other.replace(/\s+/g, ' ') };
}, [TAGS, CONTROLS]);

/** pdftotext of `pdf`, one string per page. */
const pages = (pdf) => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\f').slice(0, -1);

/** Page `n` (from 1) of `pdf` at 72 dpi: {width, height, rgb} (pdftoppm's PPM). */
function raster(pdf, n, png) {
  const base = join(OUT, 'page');
  execFileSync('pdftoppm', ['-r', '72', '-f', String(n), '-l', String(n), '-singlefile', pdf, base]);
  if (png) execFileSync('pdftoppm', ['-r', '72', '-f', String(n), '-l', String(n), '-singlefile', '-png', pdf, png]);
  const ppm = readFileSync(`${base}.ppm`);
  const [head, w, h] = ppm.toString('latin1', 0, 40).match(/^P6\s+(\d+)\s+(\d+)\s+255\s/);
  return { width: Number(w), height: Number(h), rgb: ppm.subarray(head.length) };
}

/** How many pixels of rows [top, bottom) are within `tol` of `colour` in every channel. */
function count({ width, rgb }, [top, bottom], colour, tol = 10) {
  let n = 0;
  for (let p = top * width * 3; p < bottom * width * 3; p += 3) {
    if (Math.abs(rgb[p] - colour[0]) <= tol && Math.abs(rgb[p + 1] - colour[1]) <= tol && Math.abs(rgb[p + 2] - colour[2]) <= tol) n++;
  }
  return n;
}

/** Where on which page the soft dictionary printed: its title's page and the rows from its title down to the next heading (or the page's end). */
function softDictionary(pdf) {
  const xml = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const sheets = xml.split('<page ').slice(1);
  for (const [k, sheet] of sheets.entries()) {
    const ws = [...sheet.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ top: Number(m[1]), bottom: Number(m[2]), text: m[3] }));
    const at = ws.findIndex((w, i) => w.text === 'dictionary' && ws[i + 1]?.text === 'that' && ws[i + 2]?.text === 'never' && ws[i + 3]?.text === 'says');
    if (at < 0) continue;
    const heading = ws.findIndex((w, i) => i > at && w.text === 'All' && ws[i + 1]?.text === 'at' && ws[i + 2]?.text === 'once,');
    const height = Number(sheet.match(/height="([\d.]+)"/)[1]);
    return { page: k + 1, rows: [Math.floor(ws[at].top), Math.ceil(heading < 0 ? height : ws[heading].top)] };
  }
  assert.fail('the soft dictionary\'s title is on no page');
}

// the two engines side by side (each is mostly waiting: for its browser to start, a page to load, a PDF)
describe('print', { concurrency: 2 }, () => {
  for (const engine of ['chromium', 'firefox']) {
    describe(engine, () => {
      let browser;
      before(async () => { browser = await launch(engine); });
      after(async () => { await browser?.close(); });

      // (a dark system theme in Chromium only: Firefox would start a second browser for it)
      const cases = [[false, 'light'], [true, engine === 'chromium' ? 'dark' : 'light']];
      for (const [scrolled, colorScheme] of cases) {
        const when = scrolled ? `after scrolling through (${colorScheme} system theme)` : 'right after it loads';
        test(`the article printed ${when}: no control label, no "Loading", the soft dictionary in colour, the training figure's step`, async () => {
          const page = await browser.open(server.url('/web/index.html'), { width: 1100, height: 900, colorScheme });
          try {
            let labels = [];
            let trained = 0;
            if (scrolled) {
              await scrollThrough(page);
              const found = await controlLabels(page);
              labels = [...new Set(found.labels)].filter((l) => l.length >= 3 && !stated(l, found.other));
              assert.ok(labels.length > 15, `${labels.length} control labels: ${labels.join(' | ')}`);
              if (engine === 'chromium') {
                // every canvas a figure shows on screen it shows on paper, one inside a button included (heatmap's head maps)
                const canvases = () => page.evaluate((tags) => tags.map((t) => `${t}: ${[...document.querySelector(t).shadowRoot.querySelectorAll('canvas')].filter((c) => c.checkVisibility()).length}`), TAGS);
                const screen = await canvases();
                await page.raw.emulateMedia({ media: 'print' });
                const paper = await canvases();
                await page.raw.emulateMedia({ media: null });
                assert.deepEqual(paper, screen, 'visible canvases per figure, on paper and on screen');
              }
              // a figure mid-training: printed as it stands
              trained = await page.evaluate(async () => {
                const el = document.querySelector('attention-induction');
                el.shadowRoot.querySelector('button').click(); // Start
                const step = () => Number(el.shadowRoot.querySelector('.status').textContent.match(/^Step (\d+)/)[1]);
                while (step() < 20) await new Promise((r) => setTimeout(r, 20));
                return step();
              });
            }
            // a print preview draws each picture as it arrives, a PDF is made at once: the
            // pictures of the figures not started (loading="lazy") arrive first
            await page.evaluate(() => Promise.all([...document.querySelectorAll('img[loading=lazy]')]
              .map((i) => { i.loading = 'eager'; return i.decode().catch(() => {}); })));
            const name = `${engine}-${scrolled ? `scrolled-${colorScheme}` : 'unscrolled'}`;
            const pdf = join(OUT, `article-${name}.pdf`);
            writeFileSync(pdf, await page.raw.pdf({ format: 'A4', printBackground: false }));
            const text = pages(pdf);
            const all = words(text.join(' '));
            assert.doesNotMatch(all, /Loading/, 'a figure says "Loading" on paper');
            // nor asks to press what paper has not (a training figure not started prints its picture)
            assert.doesNotMatch(all, /Press (Start|Write)/, 'a figure asks on paper for a button it does not print');
            for (const label of labels) assert.ok(!all.includes(label), `"${label}" (a control's label) is printed`);
            assert.doesNotMatch(all, /\\boldsymbol|\\sum_/, 'TeX instead of its MathML');
            // each training figure's step line (the induction figure's, in training once scrolled)
            const steps = [...all.matchAll(/Step (\d+) of (\d+) \u00b7/g)].map((m) => Number(m[1]));
            assert.equal(steps.length, 2, `step lines: ${steps}`);
            assert.ok(scrolled ? steps[0] >= trained : steps[0] === 0, `the induction figure printed step ${steps[0]}, having reached ${trained}`);
            // the figures print: every one's title (the live figure's, or its picture's)
            for (const { name: figure } of FIGURES) {
              const title = (await import(`../../web/figures/${figure}/${figure}.strings.en.js`)).default.title;
              assert.ok(all.includes(words(title).slice(0, 24)), `${figure}'s title is not printed`);
            }
            const where = softDictionary(pdf);
            const sheet = raster(pdf, where.page, join(OUT, `soft-dictionary-${name}`));
            // the soft lookup's blend at the default query and temperature, as the live figure shows it
            // (printed unscrolled, the picture of that same state stands in for it)
            const blend = await page.evaluate(async (sd) => {
              const el = document.querySelector(sd);
              const drawn = el.hasAttribute('data-ready');
              el.scrollIntoView();
              await el.ready;
              return { drawn, rgb: getComputedStyle(el.shadowRoot.querySelector('.big.sw')).backgroundColor.match(/\d+/g).map(Number) };
            }, 'attention-soft-dictionary');
            assert.equal(blend.drawn, scrolled, 'the soft dictionary drew before it was scrolled to');
            const swatch = count(sheet, where.rows, blend.rgb, 6);
            assert.ok(swatch > 200, `the soft lookup's swatch, rgb(${blend.rgb}), printed white (${swatch} pixels of its colour)`);
            assert.ok(count(sheet, where.rows, LIGHT_ORANGE) > 100, 'the weight bars are not the light theme\'s orange');
            assert.equal(count(sheet, where.rows, DARK_ORANGE), 0, 'the dark theme\'s orange is printed');
            assert.deepEqual(await page.problems(), []);
          } finally {
            await page.close();
          }
        });
      }
    });
  }
});

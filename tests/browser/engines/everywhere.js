// everywhere.js: what every reader's browser must do, as tests for one engine (each
// engine's file, <engine>.test.js, runs them in its own browser, so that the engines
// run side by side). Chromium's own files test all of it and more; these
// are the checks of the three engines' list:
//   - every figure on a one-figure page draws and reacts to each of its controls (the
//     first of each kind by keyboard and by pointer, the others by one or the other in
//     turn); its SVG and PNG downloads are whole files; no console error
//   - the article draws every figure, each laid out as in Chromium (its size and the
//     boxes of its main parts, within a tolerance), screenshots per engine
//   - a copied link restores every figure changed on the article
//   - the Chinese page draws every figure in Chinese
//   - every figure that trains or measures, all started at once on one page, ends
//   - the heatmap loads a file and refuses a malformed one in place
//   - 360 px in the dark theme: every figure fits, the page does not scroll sideways
// and one test for each defect the three engines showed (links, copy, downloads, theme,
// seams, stopped; the legend's line in the article's layout). A test is named by a key:
// everywhere(engine, { only: [keys] }) or { except: [keys] } runs some of them.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { launch } from '../drivers/index.js';
import { serveTests } from '../drivers/server.js';
import { figurePage } from '../../../scripts/figure-page.mjs';
import { FIGURES, TAGS } from '../../../web/figures/registry.js';
import { SCREENSHOTS, BAD_WORDING, assertSameView } from '../harness.js';

// Runs in the page: the snapshot (probes.js) of figure `tag`, its worker answered
// (a training figure whose model the reader had loaded: loaded again).
async function snapshotOf(tag) {
  const e = document.querySelector(tag);
  await window.__engines.ready(tag);
  e.shadowRoot.activeElement?.blur(); // (a focused control is drawn so)
  return window.__fig.snapshot(e, { markup: e.localName !== 'attention-cost' });
}

// Work control `c` of figure `tag` `how`: 'pointer' (a click where a reader would: a
// slider's track away from its value, an option not chosen), 'key' (a slider: to its
// farther end), or a key pressed with it focused; -> the figure's fingerprint once drawn.
async function act(page, tag, c, how) {
  if (how === 'pointer') await page.click(await page.evaluate(([t, i]) => window.__engines.point(t, i), [tag, c.i]));
  else if (how === 'pick') {
    await page.evaluate(([t, i]) => window.__engines.focus(t, i), [tag, c.i]);
    await page.press('ArrowDown');
    await page.press('Enter');
  } else {
    const key = await page.evaluate(([t, i]) => window.__engines.focus(t, i), [tag, c.i]);
    await page.press(how === 'key' ? key : how);
  }
  return page.evaluate((t) => window.__engines.settled(t), tag);
}

// The same layout as Chromium's: the figure as wide, as high within 12%, the same
// main parts, each within 24 px (or 12% of the figure) of where Chromium puts it and
// of its size there (fonts differ a little from engine to engine).
function sameLayout(mine, theirs, what) {
  assert.deepEqual(mine.apart, [], `${what}: a choice's legend is not on its options' line`);
  assert.ok(Math.abs(mine.w - theirs.w) <= 2, `${what}: ${mine.w} px wide, in Chromium ${theirs.w}`);
  assert.ok(Math.abs(mine.h - theirs.h) <= 0.12 * theirs.h, `${what}: ${mine.h} px high, in Chromium ${theirs.h}`);
  assert.deepEqual(mine.parts.map((p) => p.part), theirs.parts.map((p) => p.part), `${what}: its main parts`);
  mine.parts.forEach((p, k) => {
    const q = theirs.parts[k];
    for (const [a, size] of [['x', theirs.w], ['y', theirs.h], ['w', theirs.w], ['h', theirs.h]]) {
      assert.ok(Math.abs(p[a] - q[a]) <= Math.max(24, 0.12 * size), `${what}: ${p.part} (${k}) ${a} = ${p[a]}, in Chromium ${q[a]}`);
    }
  });
}

/**
 * The figures' tests in `engine` (Chromium's layout is the reference the article's is
 * held to): { before, after, tests: [[name, fn]] }, for an engine's file to hand to
 * node:test (there, so that the runner names that file as theirs).
 */
export function everywhere(engine, { only, except = [] } = {}) {
  let server;
  let browser;
  let chromium;
  const shots = `${SCREENSHOTS}${engine}/`;
  const tests = [];
  const it = (key, name, fn) => { if ((!only || only.includes(key)) && !except.includes(key)) tests.push([`${engine}: ${name}`, fn]); };
  const before = async () => {
    server = await serveTests();
    const reference = engine !== 'chromium' && (!only || only.includes('article'));
    [browser, chromium] = await Promise.all([launch(engine), reference ? launch('chromium') : null, mkdir(shots, { recursive: true })]);
    chromium ??= browser;
    for (const tag of TAGS) server.fake(`/web/embed/${tag}.html`, figurePage(tag));
  };
  const after = async () => { await Promise.all([browser?.close(), chromium !== browser && chromium?.close(), server?.close()]); };

  const problemsOf = async (page) => [...await page.problems(), ...server.failures.splice(0)];

  it('figures', `every figure on a page of its own draws, reacts to each control by keyboard and pointer, and downloads as SVG and PNG`, async () => {
    for (const { tag } of FIGURES) {
      const page = await browser.open(server.url(`/web/embed/${tag}.html`), { width: 1100, height: 900 });
      await page.evaluate(async (t) => {
        await window.__engines.ready(t);
        const e = document.querySelector(t);
        if (e.constructor.props?.steps) e.setAttribute('steps', String(e.constructor.props.steps.min)); // a training figure's shortest run
        await window.__engines.settle(t);
      }, tag);
      // controls can come and go as the figure changes: list them afresh each time
      let worked = 0;
      let now = await page.evaluate((t) => window.__engines.fingerprint(t), tag);
      const kinds = new Map(); // how many controls of each kind were worked: the first every way, the others one way in turn
      for (let k = 0; ; k++) {
        const controls = await page.evaluate((t) => window.__engines.controls(t), tag);
        if (k >= controls.length) break;
        const c = controls[k];
        const nth = kinds.get(c.kind) ?? 0;
        kinds.set(c.kind, nth + 1);
        for (const how of nth ? [c.ways[nth % c.ways.length]] : c.ways) {
          const before = now;
          // a pick: the next row's cell, until one that is not the row picked already
          for (let tries = how === 'pick' ? 4 : 1; tries > 0 && now === before; tries--) now = await act(page, tag, c, how);
          assert.notEqual(now, before, `${tag}: ${c.kind} "${c.label}" (${how}) changes nothing`);
          worked++;
        }
      }
      assert.ok(worked > 0, `${tag}: no control found`);
      const text = await page.evaluate((t) => document.querySelector(t).summary + document.querySelector(t).shadowRoot.textContent, tag);
      assert.doesNotMatch(text, BAD_WORDING, tag);
      const files = await page.evaluate((t) => window.__engines.downloads(t), tag);
      assert.match(files.svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/, `${tag}: the SVG download`);
      assert.ok(files.svgParses, `${tag}: the SVG download is not well-formed XML`);
      assert.ok(files.png[0] > 100 && files.png[1] > 100, `${tag}: the PNG download is ${files.png}`);
      assert.deepEqual(files.upright, [], `${tag}: math letters drawn upright in the SVG and PNG`);
      assert.deepEqual(await problemsOf(page), [], tag);
      await page.close();
    }
  });

  it('article', `the article draws every figure, laid out as in Chromium; a copied link restores every figure changed`, async () => {
    const [page, reference] = await Promise.all([
      browser.open(server.url('/web/index.html'), { width: 1100, height: 1600 }),
      chromium.open(server.url('/web/index.html'), { width: 1100, height: 1600 }),
    ]);
    for (const tag of TAGS) {
      const [mine, theirs] = await Promise.all([page, reference].map((p) => p.evaluate((t) => window.__engines.layout(t), tag)));
      await page.screenshot(`${shots}${tag}.png`, tag);
      sameLayout(mine, theirs, `${engine}: ${tag}`);
    }
    await reference.close();
    // change one control of each figure and copy its link
    const before = {};
    for (const tag of TAGS) {
      const [c] = (await page.evaluate((t) => window.__engines.controls(t), tag)).filter((k) => k.linkable);
      if (c) await act(page, tag, c, c.ways[0]);
      before[tag] = await page.evaluate(snapshotOf, tag);
      assert.equal(before[tag].partial, false, `${tag}: the view before "Copy link" is one a link can restore`);
      await page.click({ selector: `${tag} >>> button.copy-link` });
    }
    const url = await page.url();
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
    const again = await browser.open(url, { width: 1100, height: 900 });
    for (const tag of TAGS) {
      const snap = await again.evaluate(snapshotOf, tag);
      if (await again.evaluate((t) => 'sweep' in document.querySelector(t), tag)) {
        assert.deepEqual(snap.props, before[tag].props, `${tag}: the link does not restore its settings`);
        continue;
      }
      assertSameView(snap, before[tag], `${engine}: ${tag}: the link does not restore the view`);
    }
    assert.deepEqual(await problemsOf(again), []);
    await again.close();
  });

  it('zh', `the Chinese page draws every figure, in Chinese`, async () => {
    const page = await browser.open(server.url('/web/embed/zh.html'), { width: 1100, height: 900 });
    for (const tag of TAGS) {
      const lang = await page.evaluate(async (t) => {
        await window.__engines.ready(t);
        return document.querySelector(t).shadowRoot.querySelector('[role=figure]')?.getAttribute('lang');
      }, tag);
      assert.equal(lang, 'zh-CN', tag);
    }
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  it('workers', `every figure that trains or measures, all started at once on one page, ends`, async () => {
    const workers = FIGURES.filter((f) => f.worker).map((f) => f.tag);
    const page = await browser.open(server.url('/web/embed/example.html'), { width: 1100, height: 900 });
    const ended = await page.evaluate(async (tags) => {
      const main = document.querySelector('main');
      main.replaceChildren(...tags.map((t) => document.createElement(t)));
      for (const t of tags) await window.__engines.ready(t);
      const figures = tags.map((t) => document.querySelector(t));
      for (const e of figures) {
        if (e.constructor.props?.steps) { e.setAttribute('steps', String(e.constructor.props.steps.min)); await e.settled(); e.toggle(); }
      }
      const done = (e) => (e.toggle ? e.msg.step >= e.msg.steps && !e.msg.running : !e.worker && /quick look|Done/.test(e.shadowRoot.querySelector('.status')?.textContent ?? ''));
      const until = Date.now() + 240_000;
      while (!figures.every(done) && Date.now() < until && !figures.some((e) => e.error)) await new Promise((r) => setTimeout(r, 100));
      return figures.map((e) => [e.localName, done(e), e.error ? e.shadowRoot.textContent.slice(0, 200) : e.summary.slice(0, 120)]);
    }, workers);
    for (const [tag, done, said] of ended) assert.ok(done, `${tag} did not end: ${said}`);
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  it('heatmap', `the heatmap loads a file, and refuses a malformed one in place`, async () => {
    const json = { tokens: ['Hello', 'there', 'world'], attention: [[[[1, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]]]] };
    server.fake('/web/embed/good.json', JSON.stringify(json));
    server.fake('/web/embed/badshape.json', JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0], [0.5]] }));
    const page = await browser.open(server.url('/web/embed/attention-heatmap.html'), { width: 1100, height: 900 });
    const said = await page.evaluate(async () => {
      const e = document.querySelector('attention-heatmap');
      await window.__engines.ready('attention-heatmap');
      const text = () => e.shadowRoot.textContent;
      const until = async (re) => { for (let k = 0; k < 200 && !re.test(text()); k++) await new Promise((r) => setTimeout(r, 25)); return re.test(text()); };
      e.setAttribute('src', 'good.json');
      const good = await until(/good\.json: 3 tokens/);
      e.setAttribute('src', 'badshape.json');
      const bad = await until(/Could not show badshape\.json/);
      const svg = !!e.shadowRoot.querySelector('svg.headview');
      // back to the demo: the message goes with what it was about
      [...e.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Back to the demo').click();
      await window.__engines.settle('attention-heatmap');
      return { good, bad, svg, after: e.shadowRoot.querySelector('.msg[role=alert]')?.textContent ?? null, demo: /Showing the demo/.test(text()) };
    });
    assert.deepEqual(said, { good: true, bad: true, svg: true, after: null, demo: true });
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  it('phone', `360 px in the dark theme: every figure fits, and the page does not scroll sideways`, async () => {
    const page = await browser.open(server.url('/web/index.html'), { width: 360, height: 740, colorScheme: 'dark' });
    for (const tag of TAGS) {
      const { width, dark } = await page.evaluate(async (t) => {
        await window.__engines.ready(t);
        const e = document.querySelector(t);
        const bg = getComputedStyle(e.shadowRoot.firstElementChild).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
        return { width: e.getBoundingClientRect().width, dark: bg.reduce((a, b) => a + b) < 3 * 100 };
      }, tag);
      assert.ok(width <= 360, `${tag} is ${width}px wide`);
      assert.ok(dark, `${tag} is not dark`);
    }
    await page.evaluate(() => window.__engines.frames());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 360, `the page scrolls sideways: ${overflow}px`);
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  // (the figures these links lead to: one the browser finds by its id, ones found by the
  // figure's state first in the hash, a training figure and two measuring ones, which
  // load only near the viewport)
  const LINKS = [['#induction', 'attention-induction', {}], ['#cross.word=2', 'attention-cross', { word: '2' }],
    ['#tiny-gpt.head=2', 'attention-tiny-gpt', { head: '2' }], ['#cost.d=64', 'attention-cost', { d: '64' }]];
  it('links', 'a link to a figure (its id, or its state) brings it to the top of the window and keeps it there as the page grows; a figure that trains or measures starts', async () => {
    for (const [hash, tag, state] of LINKS) {
      const page = await browser.open(server.url(`/web/index.html${hash}`), { width: 1100, height: 900 });
      const seen = await page.evaluate(async ([t, keys]) => {
        const e = document.querySelector(t);
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        // it draws with no help (no scrolling by the test), then the page stops growing
        await Promise.race([new Promise((r) => { if (e.hasAttribute('data-ready')) r(); new MutationObserver(() => e.hasAttribute('data-ready') && r()).observe(e, { attributes: true }); }),
          new Promise((r) => setTimeout(r, 60_000))]);
        let still = 0;
        for (let last = '', k = 0; still < 30 && k < 3000; k++) {
          await frame();
          const now = `${document.documentElement.scrollHeight} ${scrollY}`;
          still = now === last ? still + 1 : 0;
          last = now;
        }
        const bottom = scrollY + innerHeight >= document.documentElement.scrollHeight - 2;
        return { drawn: e.hasAttribute('data-ready'), top: Math.round(e.getBoundingClientRect().top), bottom, state: Object.fromEntries(keys.map((k) => [k, e.getAttribute(k)])) };
      }, [tag, Object.keys(state)]);
      assert.ok(seen.drawn, `${hash}: ${tag} did not start`);
      assert.ok(Math.abs(seen.top) <= 2 || (seen.bottom && seen.top > 0 && seen.top < 900), `${hash}: ${tag} is ${seen.top} px from the top of the window`);
      assert.deepEqual(seen.state, state, hash);
      assert.deepEqual(await problemsOf(page), [], hash);
      await page.close();
    }
  });

  it('copy', 'Copy link writes a change back to the default on a page that set another value', async () => {
    const page = await browser.open(server.url('/web/embed/example.html'), { width: 1100, height: 900 });
    const tag = 'attention-multi-head-it'; // heads="1" on the page; two heads by default
    await page.evaluate((t) => window.__engines.ready(t), tag);
    await page.click({ selector: `${tag} >>> label`, text: 'two heads' });
    assert.equal(await page.evaluate((t) => document.querySelector(t).state.heads, tag), '2');
    await page.click({ selector: `${tag} >>> button.copy-link` });
    const url = await page.url();
    assert.match(new URL(url).hash, /multi-head-it\.heads=2/);
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
    const again = await browser.open(url, { width: 1100, height: 900 });
    assert.equal(await again.evaluate(async (t) => { await window.__engines.ready(t); return document.querySelector(t).state.heads; }, tag), '2');
    await again.close();
  });

  it('downloads', 'every figure on the article downloads as SVG and PNG', async () => {
    const page = await browser.open(server.url('/web/index.html'), { width: 1100, height: 900 });
    for (const tag of TAGS) {
      await page.evaluate((t) => window.__engines.ready(t), tag);
      const files = await page.evaluate((t) => window.__engines.downloads(t), tag);
      assert.ok(files.svgParses && files.png[0] > 100, `${tag}: ${JSON.stringify(files).slice(0, 200)}`);
      assert.deepEqual(files.upright, [], `${tag}: math letters drawn upright in the SVG and PNG`);
    }
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  it('theme', 'a page in its own dark mode on a light system: text fields are dark inside the dark figures', async () => {
    const html = figurePage('attention-tiny-gpt').replace('<html lang="en">', '<html lang="en" data-theme="dark">')
      .replace('</main>', '<attention-heatmap></attention-heatmap></main>');
    server.fake('/web/embed/dark-host.html', html);
    const page = await browser.open(server.url('/web/embed/dark-host.html'), { width: 1100, height: 900, colorScheme: 'light' });
    for (const tag of ['attention-tiny-gpt', 'attention-heatmap']) {
      const fields = await page.evaluate(async (t) => {
        await window.__engines.ready(t);
        const e = document.querySelector(t);
        const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
        const lum = (c) => rgb(c).reduce((a, v) => a + v, 0) / 3;
        e.shadowRoot.querySelectorAll('details').forEach((d) => { d.open = true; });
        return [e.hasAttribute('data-dark'), ...[...e.shadowRoot.querySelectorAll('input[type=text], input:not([type]), textarea')]
          .map((f) => { const cs = getComputedStyle(f); return { bg: lum(cs.backgroundColor), fg: lum(cs.color) }; })];
      }, tag);
      const [dark, ...boxes] = fields;
      assert.ok(dark, `${tag} is not dark`);
      assert.ok(boxes.length > 0, `${tag} has no text field`);
      for (const f of boxes) assert.ok(f.bg < 80 && f.fg > 170, `${tag}: a text field is ${JSON.stringify(f)} (its background's and text's mean channel)`);
    }
    assert.deepEqual(await problemsOf(page), []);
    await page.close();
  });

  it('seams', "the matrix figure's 12 x 12 picture, scaled and placed at a fraction of a pixel, shows no seam between its squares", async () => {
    const tag = 'attention-matrix';
    const page = await browser.open(server.url(`/web/embed/${tag}.html`), { width: 1100, height: 900 });
    await page.evaluate(async (t) => {
      // at a fraction of a pixel, and scaled (as a narrow column scales it): squares of 16.75 px
      document.querySelector(t).style.marginTop = '10.5px';
      await window.__engines.ready(t);
      document.querySelector(t).shadowRoot.querySelector('svg.img').style.width = '201px';
      await window.__engines.settle(t);
    }, tag);
    const png = await page.screenshot(`${shots}${tag}-picture.png`, `${tag} >>> svg.img`);
    // each pixel on a line where two rows (or columns) of squares meet must be a mix of
    // the two squares' colours: never lighter or darker than both (the page showing through)
    const sel = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('svg.img rect')].findIndex((r) => r.classList.contains('sel')), tag);
    const seams = await page.evaluate(async ([base64, selected]) => {
      // (the picked square's outline and its neighbours left out)
      const near = (r, c) => selected >= 0 && Math.abs(r - Math.floor(selected / 12)) <= 1 && Math.abs(c - (selected % 12)) <= 1;
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      const at = (x, y) => [0, 1, 2].map((c) => data[4 * (y * width + x) + c]);
      const cell = width / 12;
      const out = [];
      for (let k = 1; k < 12; k++) {
        for (const [along, line] of [['row', (i, d) => at(Math.floor((i + 0.5) * cell), Math.round(k * cell) + d)], ['column', (i, d) => at(Math.round(k * cell) + d, Math.floor((i + 0.5) * cell))]]) {
          if (Math.round(k * cell) + 2 >= (along === 'row' ? height : width)) continue;
          for (let i = 0; i < 12; i++) {
            if (along === 'row' ? near(k - 1, i) || near(k, i) : near(i, k - 1) || near(i, k)) continue;
            const [a, b] = [line(i, -3), line(i, 2)];
            for (const d of [-1, 0]) {
              const p = line(i, d);
              if (p.some((v, c) => v < Math.min(a[c], b[c]) - 6 || v > Math.max(a[c], b[c]) + 6)) out.push(`${along} ${k}, square ${i}: ${p} between ${a} and ${b}`);
            }
          }
        }
      }
      return out;
    }, [png.toString('base64'), sel]);
    assert.deepEqual(seams.slice(0, 5), [], `${seams.length} seams`);
    await page.close();
  });

  it('stopped', 'a training figure whose worker cannot load says so, under a start button that does not say Pause', async () => {
    const tag = 'attention-induction';
    const page = await browser.open(server.url(`/web/embed/${tag}.html`), { width: 1100, height: 900 });
    const seen = await page.evaluate(async (t) => {
      await window.__engines.ready(t);
      const Native = window.Worker;
      window.Worker = class extends Native { constructor(url, options) { super(`${url}`.replace(/\.js$/, '.missing.js'), options); } };
      const e = document.querySelector(t);
      const run = [...e.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Start training');
      run.click();
      for (let k = 0; k < 400 && !e.error; k++) await new Promise((r) => setTimeout(r, 25));
      await window.__engines.settle(t);
      return { error: !!e.error, text: e.shadowRoot.textContent.includes('training worker failed'), button: run.textContent, disabled: run.disabled };
    }, tag);
    assert.deepEqual(seen, { error: true, text: true, button: 'Start training', disabled: true });
    // (the worker's missing file, and nothing else)
    const problems = await problemsOf(page);
    assert.ok(problems.every((p) => /induction\.worker\.missing\.js/.test(p)) && problems.length > 0, problems.join('; '));
    await page.close();
  });

  return { before, after, tests };
}

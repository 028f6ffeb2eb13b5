// host-theme.test.js: issue 27, finding 9. theme="auto" (no theme attribute)
// follows the host page's own dark mode, live: a `dark` class, data-theme,
// data-bs-theme, data-mode or data-scheme on <html> or <body>, the root's
// color-scheme; and prefers-color-scheme when the page says nothing. On a
// page with every figure, toggled back and forth:
//   - every auto figure takes the page's scheme (its CSS: the host's
//     background; its drawn colours: the matrix's canvases, and every figure
//     draws the same again when the page comes back);
//   - theme="light" and theme="dark" still force one;
//   - a scheme change redraws each figure once, and rebuilds none; a change
//     that leaves the scheme (another class) redraws none;
//   - one MutationObserver watches the page for all of them.
// Screenshots of the matrix and the soft dictionary in both, at desktop
// width and 360 px, go to tests/artifacts/screenshots/host-theme-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openAll, frames, SCREENSHOTS } from './harness.js';
import { TAGS } from '../../web/figures/registry.js';

const LIGHT_BG = 'rgb(255, 255, 255)'; // --attention-bg of each theme (web/kit/styles.js)
const DARK_BG = 'rgb(23, 24, 28)';

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A blog with a dark-mode toggle</title><link rel="icon" href="data:,">
<style>body { max-width: 760px; margin: 0 auto; padding: 0 12px; font-family: sans-serif; }
.dark body, body.dark, [data-theme=dark], [data-bs-theme=dark] { background: #111; color: #eee; }</style>
<script type="module" src="/dist/attention-figures.js"></script></head>
<body><main>
${TAGS.map((t) => `<${t}></${t}>`).join('\n')}
<attention-notation id="forced-light" theme="light"></attention-notation>
<attention-notation id="forced-dark" theme="dark"></attention-notation>
</main></body></html>
`;

// Counts, in the page: MutationObservers that watch <html>'s attributes.
const PROBE = () => {
  const Native = window.MutationObserver;
  window.__rootObservers = new Set();
  window.MutationObserver = class extends Native {
    observe(target, options) {
      if (target === document.documentElement && options?.attributes) window.__rootObservers.add(this);
      return super.observe(target, options);
    }
  };
};

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

async function openHost(colorScheme, width = 1100) {
  const opened = await openAll(server, '/host-theme.html', {
    width, colorScheme,
    prepare: async (page) => {
      await page.addInitScript(PROBE);
      await page.route(`${server.origin}/host-theme.html`, (r) => r.fulfill({ body: PAGE, contentType: 'text/html' }));
    },
  });
  const { page } = opened;
  // count each figure's draws, and keep the node its build made
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('main > *')) {
      const render = el.render;
      el.__draws = 0;
      el.render = function () { el.__draws++; return render.call(this); };
      el.__built = el.shadowRoot.querySelector('[role=figure]');
    }
  });
  // the measuring figures' first sweeps end by themselves (they take turns): wait for them, then until nothing draws
  await page.waitForFunction(() => [...document.querySelectorAll('main > *')].every((e) => !e.worker), null, { timeout: 60000 });
  await page.waitForFunction(() => new Promise((r) => {
    const before = [...document.querySelectorAll('main > *')].map((e) => e.__draws);
    setTimeout(() => r([...document.querySelectorAll('main > *')].every((e, i) => e.__draws === before[i])), 600);
  }), null, { timeout: 60000, polling: 700 });
  return opened;
}

/** Every figure as {id, dark, bg, draws, built, picture}; `picture`: its markup and canvases. */
const look = (page) => page.evaluate(() => [...document.querySelectorAll('main > *')].map((e) => ({
  id: e.id || e.localName,
  dark: e.hasAttribute('data-dark'),
  bg: getComputedStyle(e).backgroundColor,
  draws: e.__draws,
  built: e.shadowRoot.contains(e.__built),
  picture: e.shadowRoot.innerHTML + [...e.shadowRoot.querySelectorAll('canvas')].map((c) => c.toDataURL()).join(),
})));

/** Run `act` in the page; every auto figure must then be in `scheme`, drawn once more (`redraws`) or not at all. */
async function expectScheme(page, act, scheme, { redraws }) {
  const wanted = (f) => (f.id === 'forced-light' ? 'light' : f.id === 'forced-dark' ? 'dark' : scheme);
  const was = await look(page);
  // act: script for the page, or a function run here (emulateMedia: the
  // redraw may land before the call returns, so the count starts before it)
  await (typeof act === 'function' ? act() : page.evaluate(act));
  await frames(page);
  // emulateMedia's change reaches the page's listeners as an event, on a
  // loaded machine some frames later: wait (up to ~40 frames) for the scheme.
  for (let i = 0; i < 40 && !(await look(page)).every((f) => f.dark === (wanted(f) === 'dark')); i++) await frames(page);
  const now = await look(page);
  const problems = [];
  now.forEach((f, i) => {
    const want = wanted(f);
    const drew = f.id.startsWith('forced-') ? 0 : redraws;
    if (f.dark !== (want === 'dark') || f.bg !== (want === 'dark' ? DARK_BG : LIGHT_BG)) problems.push(`${f.id}: data-dark ${f.dark}, background ${f.bg}; want ${want}`);
    if (f.draws - was[i].draws !== drew) problems.push(`${f.id}: drew ${f.draws - was[i].draws} times, want ${drew}`);
    if (!f.built) problems.push(`${f.id}: rebuilt`);
  });
  assert.deepEqual(problems, [], `after ${act}`);
  return now;
}

/** The figures whose drawing differs between two looks. */
const changed = (a, b) => a.filter((f, i) => f.picture !== b[i].picture).map((f) => f.id);

test('a dark class, data-theme, data-bs-theme, data-mode, data-scheme and color-scheme on the host page: every auto figure follows, back and forth', async () => {
  const { page, problems, context } = await openHost('light');
  try {
    const light = await look(page);
    assert.deepEqual(light.filter((f) => f.dark !== (f.id === 'forced-dark')).map((f) => f.id), [], 'the page starts light');
    // theme="dark" set on one figure, then removed: it alone turns dark (its canvases too), then back
    const matrix = async () => (await look(page)).find((f) => f.id === 'attention-matrix');
    const m0 = await matrix();
    for (const [act, dark] of [["setAttribute('theme', 'dark')", true], ["removeAttribute('theme')", false]]) {
      const was = await matrix();
      await page.evaluate(`document.querySelector('attention-matrix').${act}`);
      await frames(page);
      const m = await matrix();
      assert.deepEqual([m.dark, m.bg, m.draws - was.draws], [dark, dark ? DARK_BG : LIGHT_BG, 1], act);
      assert.ok((m.picture === m0.picture) === !dark, `${act}: the canvases are ${dark ? 'not repainted' : 'not as before'}`);
    }
    assert.deepEqual((await look(page)).filter((f) => f.dark !== (f.id === 'forced-dark')).map((f) => f.id), [], 'the others stayed light');
    const toggles = [
      ["document.documentElement.classList.add('dark')", "document.documentElement.classList.remove('dark')"],
      ["document.body.classList.add('dark')", "document.body.classList.remove('dark')"],
      ["document.documentElement.dataset.theme = 'dark'", "document.documentElement.dataset.theme = 'light'"],
      ["document.body.dataset.theme = 'dark'", "delete document.body.dataset.theme"],
      ["document.documentElement.setAttribute('data-bs-theme', 'dark')", "document.documentElement.setAttribute('data-bs-theme', 'light')"],
      ["document.body.setAttribute('data-bs-theme', 'dark')", "document.body.removeAttribute('data-bs-theme')"],
      ["document.documentElement.dataset.mode = 'dark'", "document.documentElement.dataset.mode = 'light'"], // Jekyll's Chirpy
      ["document.documentElement.dataset.scheme = 'dark'", "document.documentElement.dataset.scheme = 'light'"], // Hugo's Stack
      ["document.documentElement.style.colorScheme = 'dark'", "document.documentElement.style.colorScheme = ''"],
    ];
    for (const [on, off] of toggles) {
      const dark = await expectScheme(page, on, 'dark', { redraws: 1 });
      const back = await expectScheme(page, off, 'light', { redraws: 1 });
      // "light" said, then nothing said after dark: light still
      await expectScheme(page, "for (const e of [document.documentElement, document.body]) for (const a of ['data-theme', 'data-bs-theme', 'data-mode', 'data-scheme']) e.removeAttribute(a)", 'light', { redraws: 0 });
      // the same drawing as before, in light; and the matrix's canvases painted in the other scheme
      assert.deepEqual(changed(light, back), [], `after ${off}: these draw differently than before`);
      assert.ok(changed(light, dark).includes('attention-matrix'), `after ${on}: the matrix's colours did not change`);
    }
    // what leaves the scheme alone redraws nothing
    await expectScheme(page, "document.body.classList.add('menu-open')", 'light', { redraws: 0 });
    await expectScheme(page, "document.body.classList.add('dark'); document.documentElement.classList.add('dark')", 'dark', { redraws: 1 });
    await expectScheme(page, "document.body.classList.add('sidebar')", 'dark', { redraws: 0 });
    // the nearest says: <body> before <html>
    await expectScheme(page, "document.body.classList.replace('dark', 'light')", 'light', { redraws: 1 });
    await expectScheme(page, "document.body.classList.remove('light')", 'dark', { redraws: 1 });
    // a figure put on the page later takes the scheme at once
    const added = await page.evaluate(() => {
      const el = document.createElement('attention-qkv');
      document.querySelector('main').append(el);
      return el.hasAttribute('data-dark');
    });
    assert.equal(added, true);
    const observers = await page.evaluate(() => window.__rootObservers.size);
    assert.equal(observers, 1, 'MutationObservers on <html> attributes, for 21 figures');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('prefers-color-scheme when the page says nothing; a page seen dark and then unmarked is light', async () => {
  const { page, problems, context } = await openHost('dark');
  try {
    const state = await look(page);
    assert.deepEqual(state.filter((f) => f.dark !== (f.id !== 'forced-light')).map((f) => f.id), [], 'a dark system: dark');
    await expectScheme(page, () => page.emulateMedia({ colorScheme: 'light' }), 'light', { redraws: 1 });
    await expectScheme(page, () => page.emulateMedia({ colorScheme: 'dark' }), 'dark', { redraws: 1 });
    // a site that says light (color-scheme, a class) wins over the system
    await expectScheme(page, "document.documentElement.style.colorScheme = 'light'", 'light', { redraws: 1 });
    await expectScheme(page, "document.documentElement.style.colorScheme = 'light dark'", 'dark', { redraws: 1 });
    // a toggle that marks only its dark mode: unmarked is light, whatever the system
    await expectScheme(page, "document.documentElement.classList.add('dark')", 'dark', { redraws: 0 });
    await expectScheme(page, "document.documentElement.classList.remove('dark')", 'light', { redraws: 1 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('screenshots: the matrix and the soft dictionary in both schemes, at desktop width and 360 px', async () => {
  // loaded once at desktop width, then narrowed (the figures follow their width)
  const { page, problems, context } = await openHost('light', 1100);
  try {
    for (const width of [1100, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(async () => { for (const e of document.querySelectorAll('main > *')) await e.settled?.(); });
      for (const scheme of ['light', 'dark']) {
        await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), scheme === 'dark');
        await frames(page);
        for (const tag of ['attention-matrix', 'attention-soft-dictionary']) {
          const el = page.locator(tag);
          await el.scrollIntoViewIfNeeded();
          const fits = await el.evaluate((e) => e.getBoundingClientRect().width);
          assert.ok(fits <= width, `${tag} is ${fits}px wide at ${width}px`);
          await el.screenshot({ path: `${SCREENSHOTS}host-theme-${tag}-${scheme}${width === 360 ? '-phone' : ''}.png` });
        }
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

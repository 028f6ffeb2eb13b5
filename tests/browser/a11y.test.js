// Accessibility: axe-core (WCAG 2.x A and AA rules plus best practices) finds
// nothing on the article and the embedding example (desktop light, 360 px
// dark), the strict-CSP page (desktop light) and the Chinese article (360 px
// dark), with every figure drawn; every figure has
// an accessible name and a live region that says what it shows now; with
// prefers-reduced-motion nothing on the page animates.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { start, openAll, ready, summary, ALL_FIGURES, SCREENSHOTS } from './harness.js';

const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

/** Run axe on the whole page (open shadow roots included); -> its violations, one line per element. */
async function axeViolations(page) {
  // evaluated through the DevTools protocol, which the page's CSP does not govern (an inline <script> would be blocked)
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => (await window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  })).violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target.join(' >> ')}: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}`) })));
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n}`));
}

// each page loaded once, then seen at each width and in each scheme in turn (its
// figures follow a resize and a change of prefers-color-scheme as they happen)
const PAGES = {
  '/web/index.html': [[1100, 'light'], [360, 'dark']],
  '/web/embed/example.html': [[1100, 'light'], [360, 'dark']],
  // the same figures as the article's, seen once: under the strict CSP, and in Chinese
  '/web/embed/csp-test.html': [[1100, 'light']],
  '/web/embed/zh.html': [[360, 'dark']],
};

for (const [path, views] of Object.entries(PAGES)) {
  test(`axe finds no violations: ${path} at ${views.map(([w, s]) => `${w} px ${s}`).join(', ')}`, async () => {
    const [[width0, scheme0]] = views;
    const { page, problems, context } = await openAll(server, path, { width: width0, colorScheme: scheme0 });
    for (const [width, colorScheme] of views) {
      await page.setViewportSize({ width, height: 30000 });
      await page.emulateMedia({ colorScheme });
      // every figure redrawn at this width and in this scheme
      await page.evaluate(async () => {
        for (const e of document.querySelectorAll('*')) if (e.localName.startsWith('attention-')) await e.settled?.();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
      const found = await axeViolations(page);
      const groups = {};
      for (const line of found) (groups[line.split(' ')[0]] ??= []).push(line);
      const byRule = Object.entries(groups).map(([rule, lines]) => `${rule}: ${lines.length}\n  ${lines.slice(0, 4).join('\n  ')}`);
      assert.equal(found.length, 0, `${width} px, ${colorScheme}: ${found.length} violations:\n${byRule.join('\n')}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// one article page, with prefers-reduced-motion (which changes no name or live region)
test('every figure has an accessible name and a live region saying what it shows; with prefers-reduced-motion nothing animates or moves smoothly', async () => {
  const { page, context } = await openAll(server, '/web/index.html', {
    prepare: (p) => p.emulateMedia({ reducedMotion: 'reduce' }),
  });
  const moving = await page.evaluate(() => {
    const out = [];
    const visit = (root) => {
      for (const n of root.querySelectorAll('*')) {
        const cs = getComputedStyle(n);
        const long = (list) => list.split(',').some((d) => parseFloat(d) > 0.01);
        if (long(cs.transitionDuration) || (cs.animationName !== 'none' && long(cs.animationDuration))) out.push(`${root.host?.localName ?? 'page'} ${n.localName}.${n.className?.baseVal ?? n.className}`);
        if (cs.scrollBehavior === 'smooth') out.push(`${n.localName} scrolls smoothly`);
        if (n.shadowRoot) visit(n.shadowRoot);
      }
    };
    visit(document);
    return out;
  });
  assert.deepEqual(moving, []);
  await page.screenshot({ path: `${SCREENSHOTS}reduced-motion.png` });
  const tags = await page.evaluate(() => [...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.startsWith('attention-')))]);
  assert.ok(tags.length >= ALL_FIGURES.length);
  for (const tag of tags) {
    const el = await ready(page, tag);
    const info = await el.evaluate((e) => {
      const root = e.shadowRoot.firstElementChild;
      const live = e.shadowRoot.querySelector(':host > [aria-live]');
      return { role: root.getAttribute('role'), label: root.getAttribute('aria-label'), live: live?.getAttribute('aria-live'), text: live?.textContent };
    });
    assert.equal(info.role, 'figure', tag);
    assert.ok(info.label?.length > 3, `${tag} has no accessible name`);
    assert.equal(info.live, 'polite', tag);
    await el.evaluate((e) => e.settled?.()); // a training figure: its worker has answered
    // the live region follows the summary after a short pause
    const said = () => el.evaluate((e) => e.shadowRoot.querySelector(':host > [aria-live]').textContent === e.summary);
    await page.waitForFunction((t) => { const e = document.querySelector(t); return e.shadowRoot.querySelector(':host > [aria-live]').textContent === e.summary; }, tag, { timeout: 5000 }).catch(() => {});
    assert.ok(await said(), `${tag}: the live region does not say the summary: ${await summary(el)}`);
  }
  await context.close();
});

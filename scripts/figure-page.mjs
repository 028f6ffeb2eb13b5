// figure-page.mjs: the page a blogger makes for one figure: the snippet they
// paste (the bundle's module script and one element, with its attributes and
// children: the text readers without JavaScript see, a data-example) in a
// column as wide as the article's (web/article.css), so that the figure has
// the width it has there. scripts/size.mjs measures such pages; the browser
// tests open them (tests/browser/harness.js: openFigure).

const quote = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The page's HTML: `tag` with `attrs` ({name: value}) and `children` (HTML), the bundle at `bundle`. */
export const figurePage = (tag, { attrs = {}, children = '', bundle = '/dist/attention-figures.js' } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${tag}</title>
<style>:root { color-scheme: light dark; } body { margin: 0 auto; max-width: 46rem; padding: 1.5rem 1rem; }</style>
<script type="module" src="${bundle}"></script>
</head><body><main>
<${tag}${Object.entries(attrs).map(([k, v]) => ` ${k}="${quote(v)}"`).join('')}>${children}</${tag}>
</main></body></html>`;

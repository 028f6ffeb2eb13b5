// sheets.js: put CSS text into a shadow root or the document, once per text.
// Constructed style sheets are shared by every figure; engines without them
// get a <style> element instead.
const cache = new Map();

function sheet(css) {
  if (!cache.has(css)) {
    const sh = new CSSStyleSheet();
    sh.replaceSync(css);
    cache.set(css, sh);
  }
  return cache.get(css);
}

const constructable = () => typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;

/** Add CSS texts to `root` (a ShadowRoot or document). */
export function adopt(root, ...cssTexts) {
  if (constructable() && 'adoptedStyleSheets' in root) {
    const add = cssTexts.map(sheet).filter((sh) => !root.adoptedStyleSheets.includes(sh));
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...add];
    return;
  }
  const parent = root === document ? document.head : root;
  for (const css of cssTexts) {
    const style = document.createElement('style');
    style.textContent = css;
    parent.prepend(style);
  }
}

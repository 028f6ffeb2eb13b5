// article.js: the article page's only script. Loading the bundle defines
// every figure element as the page uses it. (The page's formulas are MathML
// in the page itself, typeset by the build: scripts/article.mjs.)
import '../dist/attention-figures.js';

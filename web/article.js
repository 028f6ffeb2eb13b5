// article.js: the article page's only script. Loading the bundle defines
// every figure element as the page uses it; the page's own formulas are
// typeset from MathML the build made (dist/article-math.js).
import { typeset } from '../dist/attention-figures.js';
import formulas from '../dist/article-math.js';

typeset(document, formulas);

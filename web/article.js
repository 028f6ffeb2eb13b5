// article.js: the article page's only script. Loading the bundle defines
// every figure element; then the page's own formulas are typeset.
import { typeset } from '../dist/attention-figures.js';

typeset(document);

// rich.js: a string-table text as DOM nodes, so translated sentences can
// hold math and emphasis without HTML (and a page's override cannot inject
// any): $…$ is typeset by KaTeX (which escapes what it cannot parse), **…**
// is bold, the rest becomes text nodes.
import { mathSpan } from './math.js';

export function rich(text) {
  return text.split(/(\$[^$]+\$|\*\*[^*]+\*\*)/).filter(Boolean).map((part) => {
    if (part.length > 2 && part.startsWith('$') && part.endsWith('$')) return mathSpan(part.slice(1, -1));
    if (part.length > 4 && part.startsWith('**') && part.endsWith('**')) {
      const strong = document.createElement('strong');
      strong.textContent = part.slice(2, -2);
      return strong;
    }
    return document.createTextNode(part);
  });
}

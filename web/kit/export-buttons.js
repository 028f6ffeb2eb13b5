// export-buttons.js: "Download" and its "SVG" and "PNG" buttons under a
// figure. What makes the files (export.js, an eighth of what every figure
// loaded with it) is fetched when a reader first presses one.
import { h } from './dom.js';

/**
 * "Download" and its "SVG" and "PNG" buttons, which download what `figure`
 * (an element with a shadow root) shows. What a button does is on it, not
 * in a tooltip (which a finger never sees). If export.js cannot load, the
 * figure says so above itself (once, however often it is pressed).
 */
export function exportButtons(figure) {
  let said = null; // what the figure says of a failed download
  const failed = (err) => {
    const p = h('p', { class: 'error', role: 'alert' }, figure.t('downloadFailed', { message: err.message }));
    if (said?.isConnected) said.replaceWith(p);
    else figure.shadowRoot.prepend(p);
    said = p;
  };
  const press = (kind) => () => import('./export.js').then(
    (files) => files.download(kind, figure.shadowRoot.firstElementChild, `${figure.localName}.${kind}`), failed);
  return [
    h('span', { class: 'tool-label' }, figure.t('download')),
    h('button', { type: 'button', onclick: press('svg') }, 'SVG'),
    h('button', { type: 'button', onclick: press('png') }, 'PNG'),
  ];
}

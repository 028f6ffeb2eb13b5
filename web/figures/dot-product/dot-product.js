// <attention-dot-product>: a user's tastes, a movie's content, their match.
// Attributes: user="a,r,c" and movie="a,r,c" (each -1..1).
import { props, parseTriple } from './dot-product.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, replace, setText } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { rich } from '../../kit/rich.js';
import { num } from '../../kit/format.js';
import { dotProductModel, reading, FEATURES, DEFAULT_USER, DEFAULT_MOVIE } from './dot-product.model.js';


class DotProduct extends FigureElement {
  static strings = { en: () => import('./dot-product.strings.en.js'), zh: () => import('./dot-product.strings.zh.js') };

  static props = props;

  static css = `
  .sliders { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
  .sliders .panel { display: grid; gap: 4px; }
  .eq { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 12px 0 6px; }
  ul { margin: 4px 0; padding-left: 1.2em; font-size: 0.92em; }
  .slider label { min-width: 4.6em; }`;

  build() {
    const features = FEATURES.map((f) => this.t(f));
    const group = (who, key, ends) => h('div', { class: 'panel' }, [
      h('strong', {}, who),
      ...features.map((f, i) => {
        const sl = slider({
          label: f, min: -1, max: 1, step: 0.05, value: this.vec(key)[i], format: (v) => num(v),
          oninput: (v) => { const x = this.vec(key); x[i] = v; this.set({ [key]: x.map((t) => +t.toFixed(2)).join(',') }); },
        });
        (this.sliders ??= {})[`${key}${i}`] = sl;
        return sl.el;
      }),
      h('span', { class: 'note' }, ends),
    ]);
    this.views = {
      u: matrixView({ t: this.t, name: 'u', cell: 34, values: true, colLabels: features }),
      m: matrixView({ t: this.t, name: 'm', cell: 34, values: true, colLabels: features }),
      p: matrixView({ t: this.t, name: 'u\u2299m', cell: 34, values: true, colLabels: features }),
      s: matrixView({ t: this.t, name: this.t('score'), cell: 40, values: true }),
    };
    this.list = h('ul');
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'sliders' }, [
        group(this.t('user'), 'user', this.t('userEnds')),
        group(this.t('movie'), 'movie', this.t('movieEnds')),
      ]),
      h('div', { class: 'eq' }, [this.views.u.el, h('span', { class: 'op' }, '\u00d7'), this.views.m.el,
        h('span', { class: 'op' }, '='), this.views.p.el, h('span', { class: 'op' }, '\u03a3 \u2192'), this.views.s.el]),
      this.list,
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  vec(key) {
    return parseTriple(this.state[key], key === 'user' ? DEFAULT_USER : DEFAULT_MOVIE);
  }

  rehearsal() {
    const user = this.vec('user');
    user[0] = user[0] > 0 ? -0.5 : 0.5; // (the user's first slider)
    return { user: user.join(',') };
  }

  syncControls() {
    if (!this.sliders) return;
    for (const key of ['user', 'movie']) this.vec(key).forEach((v, i) => this.sliders[`${key}${i}`].set(v));
  }

  render() {
    const [u, m] = [this.vec('user'), this.vec('movie')];
    const { products, score } = dotProductModel(this.attn, u, m);
    this.views.u.update([u], { max: 1 });
    this.views.m.update([m], { max: 1 });
    this.views.p.update([products], { max: 1 });
    this.views.s.update([[score]], { max: 3 });
    const features = FEATURES.map((f) => this.t(f));
    // one item per feature, made once; a change rewrites their words
    if (this.list.childElementCount !== features.length) replace(this.list, features.map(() => h('li')));
    features.forEach((feature, i) => setText(this.list.children[i], this.t('term', { feature, u: num(u[i]), m: num(m[i]), p: num(products[i]), reading: this.t(reading(u[i], m[i])) })));
    this.announce(this.t('summary', { score: num(score), features, products: products.map((p) => num(p)) }));
  }
}

defineFigure('attention-dot-product', DotProduct);

// attention-tiny-gpt: the claims of DESIGN's catalogue row, on the figure's
// own model with its default seed and budget (the SIMD build the browser
// runs), and what the article says of it:
//   after the default budget the held-out loss is well below the bigram
//     model's (at least 0.3 nats per character), while at the start it is
//     near a uniform guess, above the bigram model's;
//   beam search's sequence log-probability is at least greedy's (from the
//     figure's prompt and a few others), and sampling's is below greedy's;
//   the samples as it learns fill with the article's words (more of them
//     at the end than after 100 steps).
// Also: the text is the article's (scripts/article-text.mjs on the current
// web/index.html), the split keeps the end out of training, the bigram
// model is a proper one. The measured numbers are printed as diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.js';
import {
  ALPHABET, DEFAULTS, attentionOn, bigramLoss, createRun, decode, decodings, encode, evenWindows, readingText, splitText,
} from '../../web/figures/tiny-gpt.model.js';
import { ARTICLE_TEXT } from '../../web/figures/tiny-gpt.text.js';
import { articleText } from '../../scripts/article-text.mjs';

const attn = await engine();
const f3 = (x) => x.toFixed(3);

test('the text: the article\'s own (regenerate with bash build.sh), in the alphabet, the last tenth held out', () => {
  const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
  assert.equal(ARTICLE_TEXT, articleText(html), 'web/figures/tiny-gpt.text.js is stale: run bash build.sh (or node scripts/article-text.mjs)');
  assert.ok(ARTICLE_TEXT.length > 15000);
  assert.ok([...ARTICLE_TEXT].every((c) => ALPHABET.includes(c)));
  assert.ok(!/<|&\w+;|  /.test(ARTICLE_TEXT), 'no tags, entities or double spaces');
  assert.match(ARTICLE_TEXT, /^attention attention is /, 'starts with the title and the first sentence');
  assert.equal(decode(encode('Soft-Max, "Q K^T"!')), 'soft-max, "q kt"!');
  const { train, heldOut } = splitText(ARTICLE_TEXT);
  assert.equal(train.length + heldOut.length, ARTICLE_TEXT.length);
  assert.ok(Math.abs(heldOut.length / ARTICLE_TEXT.length - DEFAULTS.heldOut) < 1e-3);
  assert.equal(decode(heldOut), ARTICLE_TEXT.slice(train.length));
  const w = evenWindows(heldOut, 65, 32);
  assert.equal(w.length, 32);
  assert.ok(w.every((x) => x.length === 65));
  assert.deepEqual(w.at(-1), heldOut.slice(-65));
});

test('the text the figure reads before the reader types: a whole sentence of the article, 30 to 50 characters, in the alphabet', () => {
  const text = readingText(ARTICLE_TEXT);
  assert.ok(text.length >= 30 && text.length <= 50, text);
  assert.ok(ARTICLE_TEXT.includes(`. ${text}. `), 'a whole sentence');
  assert.ok([...text].every((c) => ALPHABET.includes(c)));
  assert.equal(readingText('no sentence of the right length'), 'no sentence of the right length'.slice(0, 40));
});

test('the bigram model: add-one counts; a text that repeats one pair costs far less than a uniform guess, unseen pairs as much as one', () => {
  const V = 4;
  const text = Int32Array.from({ length: 200 }, (_, i) => i % 2);
  const seen = bigramLoss(text, text, V);
  assert.ok(seen < 0.05, `${seen}`);
  assert.ok(Math.abs(seen + Math.log(101 / 104)) < 0.01, 'p(1 | 0) = (100 + 1) / (100 + 4)');
  assert.ok(Math.abs(bigramLoss(text, Int32Array.of(2, 3, 2, 3), V) - Math.log(V)) < 1e-12, 'a row never seen is uniform');
});

test('after the default budget the held-out loss is well below the bigram model\'s; beam >= greedy > sampling in log-probability', (t) => {
  const run = createRun(attn, {}, ARTICLE_TEXT);
  const start = run.curve[0];
  const samples = [];
  while (!run.done) {
    run.train(100);
    samples.push(decodings(run.model, DEFAULTS.prompt, { seed: run.step + 1 }).sample.text);
  }
  const end = run.curve.at(-1);
  t.diagnostic(`bigram: train ${f3(run.bigram.train)}, held out ${f3(run.bigram.heldOut)}; model at step 0: held out ${f3(start.heldOut)}; `
    + run.curve.filter((p) => p.step % 100 === 0).map((p) => `step ${p.step}: train ${f3(p.train)}, held out ${f3(p.heldOut)}`).join('; '));
  samples.forEach((text, k) => t.diagnostic(`sample at step ${100 * (k + 1)}: ${JSON.stringify(DEFAULTS.prompt + text)}`));
  assert.equal(run.step, DEFAULTS.steps);
  assert.ok(start.heldOut > run.bigram.heldOut && Math.abs(start.heldOut - Math.log(ALPHABET.length)) < 0.05, `start ${start.heldOut}`);
  assert.ok(end.heldOut < run.bigram.heldOut - 0.3, `held-out ${end.heldOut}, bigram ${run.bigram.heldOut}`);
  assert.ok(end.train < end.heldOut, 'the model fits its training text better than the held-out text');
  // real words: those of two or more letters that the article uses
  const vocabulary = new Set(ARTICLE_TEXT.match(/[a-z]{2,}/g));
  const words = (text) => (text.match(/[a-z]{2,}/g) ?? []).filter((w) => vocabulary.has(w)).length;
  t.diagnostic(`real words in the samples, every 100 steps: ${samples.map(words).join(', ')}`);
  assert.ok(words(samples.at(-1)) >= 4 && words(samples.at(-1)) > words(samples[0]), `the last sample has the article's words: ${samples.at(-1)}`);

  for (const prompt of [DEFAULTS.prompt, 'the ', 'softmax', 'q', 'each head ']) {
    const d = decodings(run.model, prompt);
    t.diagnostic(`prompt ${JSON.stringify(prompt)}: ${Object.entries(d).map(([k, v]) => `${k} ${v.logProb.toFixed(2)} ${JSON.stringify(v.text)}`).join('; ')}`);
    assert.ok(d.beam.logProb >= d.greedy.logProb - 1e-9, `beam ${d.beam.logProb} < greedy ${d.greedy.logProb} from ${JSON.stringify(prompt)}`);
    assert.ok(d.sample.logProb < d.greedy.logProb, `sampling ${d.sample.logProb} >= greedy ${d.greedy.logProb} from ${JSON.stringify(prompt)}`);
    assert.equal(d.greedy.text.length, DEFAULTS.sampleSteps);
  }

  const view = attentionOn(run.model, 'Where does each head look? '.repeat(4));
  assert.equal(view.chars.length, DEFAULTS.context, 'the last context characters');
  assert.equal(view.attention.length, DEFAULTS.layers);
  assert.equal(view.attention[0].length, DEFAULTS.heads);
  assert.equal(attentionOn(run.model, '\u00e9\u00e9'), null, 'nothing the model can read');
  run.dispose();
  assert.equal(attn.memoryInUse(), 0);
});

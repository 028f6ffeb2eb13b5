// training.js: the training part's JavaScript: the gradients of attention and
// multi-head attention (backward.js), and tiny transformers with their
// trainer, GPT blocks and decoding (transformer.js, generate.js). Only
// loadAttention({ parts: 'all' }) imports it, by a dynamic import() that
// bundlers make a chunk of its own, so a page that only shows attention never
// downloads it.
export {
  attentionBackward, multiHeadAttentionBackward, putAttentionBackward, runAttentionBackward, runBackwardDkv, runBackwardDq,
  runBackwardForward, runMhaBackward, toAttentionBackward, toMhaBackwardCall,
} from './backward.js';
export { createTransformer, toAdamW, toConfig, toTokens } from './transformer.js';

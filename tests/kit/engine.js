// Shared by the figure model tests: one engine for the whole file.
import { loadAttention } from '../../web/attention.js';

let promise;
export const engine = () => (promise ??= loadAttention());

// Chromium (playwright-core): of what every engine must do (everywhere.js), what
// Chromium's own files (tests/browser/*.test.js) do not already check.
import { test, before, after } from 'node:test';
import { everywhere } from './everywhere.js';

const suite = everywhere('chromium', { only: ['workers', 'links', 'copy', 'downloads', 'theme', 'heatmap', 'stopped'] });
before(suite.before);
after(suite.after);
for (const [name, fn] of suite.tests) test(name, fn);

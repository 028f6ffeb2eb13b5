// Chromium (playwright-core): of what every engine must do (everywhere.js), what
// Chromium's own files (tests/browser/*.test.js) do not already check.
import { everywhere } from './everywhere.js';

everywhere('chromium', { only: ['links', 'copy', 'downloads', 'theme', 'heatmap', 'stopped'] });

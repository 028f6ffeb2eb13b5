// Firefox ESR (puppeteer-core over WebDriver BiDi): what every engine must do (everywhere.js).
import { test, before, after } from 'node:test';
import { everywhere } from './everywhere.js';

const suite = everywhere('firefox', { except: ['downloads'] }); // (every figure's downloads: on its own page)
before(suite.before);
after(suite.after);
for (const [name, fn] of suite.tests) test(name, fn);

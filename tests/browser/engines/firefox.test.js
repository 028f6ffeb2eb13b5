// Firefox ESR (puppeteer-core over WebDriver BiDi): what every engine must do (everywhere.js).
import { everywhere } from './everywhere.js';

everywhere('firefox', { except: ['downloads'] }); // (every figure's downloads: on its own page)

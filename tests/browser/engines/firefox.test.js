// Firefox ESR (puppeteer-core over WebDriver BiDi): what every engine must do (everywhere.js).
import { everywhere } from './everywhere.js';

everywhere('firefox');

// WebKitGTK (MiniBrowser through WebKitWebDriver, on Xvfb): what every engine must do (everywhere.js).
import { everywhere } from './everywhere.js';

everywhere('webkit', { except: ['downloads'] }); // (every figure's downloads: on its own page)

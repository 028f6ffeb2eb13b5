// read-file.node.js: Node's built-ins that reading a file: URL needs, for a
// Node without process.getBuiltinModule (before 20.16 and 22.3; load.js asks
// that first). package.json "imports": "#read-file" under the "node"
// condition; read-file.js under any other. The package's only node: imports.
import * as fs from 'node:fs';
import * as url from 'node:url';

export default { fs, url };

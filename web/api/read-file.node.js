// read-file.node.js: what only Node can do for the loader (package.json
// "imports": "#read-file" under the "node" condition; read-file.js is every
// other host's). The package's only node: imports are here.
import { readFile as read } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** The bytes of a file: URL (a .wasm of the package, or the caller's own). */
export const readFile = (url) => read(url);

/** What a relative wasmUrl is relative to: the working directory. */
export const baseUrl = () => pathToFileURL(process.cwd()).href.replace(/\/?$/, '/');

// sources.js: the figures' source files, for tests that read code: every
// .js file under web/figures/ and web/kit/, as paths relative to web/.
import { readFileSync, readdirSync } from 'node:fs';

export const WEB = new URL('../../web/', import.meta.url);

/** Every .js file under web/<dir>/, recursively, as 'dir/sub/file.js', sorted. */
export const jsFiles = (dir) => readdirSync(new URL(`${dir}/`, WEB), { recursive: true })
  .filter((f) => f.endsWith('.js')).map((f) => `${dir}/${f}`).sort();

/** The source of web/<path>. */
export const readWeb = (path) => readFileSync(new URL(path, WEB), 'utf8');

/** The figures' and the toolkit's files. */
export const FIGURE_AND_KIT_FILES = [...jsFiles('figures'), ...jsFiles('kit')];

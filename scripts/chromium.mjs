// chromium.mjs: Debian's Chromium through playwright-core, with the flags
// every headless run here uses (tests, benches, the size measurement).
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';
/**
 * The tests' Chromium: Debian's chromium-headless-shell, the same Chromium (version and
 * Blink) built as the old headless shell, without the browser's own UI: the build
 * Playwright runs headless tests in, and a fifth less CPU for the same pages here
 * (the suite's limit on two cores; a third of it for a one-figure page). Benches and the
 * published sizes (npm run size) use the browser itself; the shell loads the same files
 * but the favicon.
 */
export const CHROMIUM_TEST_EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium-headless-shell';
// The browser's own omnibox popup is a WebUI page, loaded in every new window (a fresh
// context): about 2 s of a core beside a page's first load on two cores, which a reader's
// browser, its UI long running, does not spend then. Left out, as the shell has none.
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
  '--disable-features=PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup'];

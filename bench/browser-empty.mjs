// browser-empty.mjs: what Node built-ins resolve to in the browser bench's
// page (bench/browser.html's import map). Nothing in a page calls them.
export default {};

// chromium.mjs: Debian's Chromium through playwright-core, with the flags
// every headless run here uses (tests, benches, the size measurement).
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

// chromium.mjs: Debian's Chromium through playwright-core, with the flags
// every headless run here uses (tests, benches, the size measurement).
import { chromium } from 'playwright-core';

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Where a Chromium shared by a whole test run listens (scripts/test.mjs sets it for the files it runs). */
export const SHARED_CHROMIUM = 'ATTENTION_TEST_CHROMIUM';

/**
 * A Chromium: the test run's shared one when there is one (each test file then
 * works in contexts of its own, and its close() lets go of the browser without
 * ending it), else a fresh one. A launch costs about 1.5 CPU-seconds, and a
 * run has some forty files that open pages.
 */
export function launchChromium() {
  const shared = process.env[SHARED_CHROMIUM];
  return shared ? chromium.connect(shared) : chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
}

/** Launch the Chromium a test run shares: { wsEndpoint, close() }. */
export const launchSharedChromium = async () => {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
};

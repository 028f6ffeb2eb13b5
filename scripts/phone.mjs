// phone.mjs: a phone in headless Chromium, as Lighthouse's mobile profile
// has it: 360 x 740 CSS px at device pixel ratio 2, touch, the CPU slowed 4x
// and, for loading, its slow 4G (150 ms more per request, 1.6 Mbit/s down,
// 750 kbit/s up). Used by bench/figures.mjs (--phone, --network slow4g) and
// the browser tests of touch and loading; what a test asserts from here
// never depends on time (the request chain's depth, touches).
//   const context = await browser.newContext(PHONE);
//   const cdp = await emulate(page, { cpu: 4, network: 'slow4g' });
//   const chain = watchRequests(cdp, origin);  ...  chain.depth()
//   await touchDrag(cdp, [[x0, y0], [x1, y1], ...]);

/** playwright's context options for the phone (its viewport in CSS px). */
export const PHONE = Object.freeze({
  viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
});

/** Network conditions by name, as CDP's Network.emulateNetworkConditions takes them (bytes per second). */
export const NETWORKS = Object.freeze({
  slow4g: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 },
  // a round trip of 100 ms alone, at full speed: what a test counts round trips over
  latency: { offline: false, latency: 100, downloadThroughput: -1, uploadThroughput: -1 },
});

/**
 * Slow `page`'s CPU `cpu` times and, with `network` (a name of NETWORKS),
 * its network; -> the CDP session (Network enabled), for watchRequests.
 */
export async function emulate(page, { cpu = 1, network = null } = {}) {
  if (network !== null && !Object.hasOwn(NETWORKS, network)) {
    throw new RangeError(`emulate: network must be one of ${Object.keys(NETWORKS).join(', ')}, got ${JSON.stringify(network)}`);
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  if (cpu !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  if (network) await cdp.send('Network.emulateNetworkConditions', NETWORKS[network]);
  return cdp;
}

// The URL of the script whose code started a request: the innermost frame
// with a URL of its stack (async parents too), else the initiator's URL.
function initiatorUrl(initiator) {
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find((f) => f.url);
    if (frame) return frame.url;
  }
  return initiator.url ?? null;
}

/**
 * Record the requests a page makes from now on (CDP's Network domain on
 * `cdp`): -> {requests, depth(until), chain(until), bytes(until)}. A
 * request's depth is 1 for the document, else 1 + the deepest of its
 * initiator (the script that asked for it) and every request that came back
 * before it was sent (a module's import() runs once its static imports have
 * loaded; a figure asks for its words once its module has run): the number
 * of round trips that happened one after another before it started. Over a
 * network with latency (NETWORKS) that is how the page's requests wait on
 * one another, whatever the machine's speed (unless a script keeps the page
 * busy for longer than a round trip between two requests it could make at once).
 * `until` (ms of the wall clock, as the page's performance.timeOrigin +
 * performance.now()) counts only the requests sent before it. data: URLs and the favicon are left out.
 */
export function watchRequests(cdp) {
  const requests = []; // {id, url, from, sent, done (ms, wall clock), bytes}
  const byId = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    const url = e.request.url;
    if (url.startsWith('data:') || url.endsWith('/favicon.ico') || byId.has(e.requestId)) return;
    // sent: the wall clock in ms (as performance.timeOrigin + performance.now() in the page)
    const r = { id: e.requestId, url, from: e.type === 'Document' ? null : initiatorUrl(e.initiator), sent: e.wallTime * 1000, at: e.timestamp, done: null, bytes: 0 };
    byId.set(e.requestId, r);
    requests.push(r);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) Object.assign(r, { done: r.sent + (e.timestamp - r.at) * 1000, bytes: e.encodedDataLength });
  });
  const before = (until) => requests.filter((r) => until === undefined || r.sent <= until);
  // in the order sent: the depth of each request is known before any sent after it
  function depths(until) {
    const list = before(until).sort((x, y) => x.sent - y.sent);
    const depth = new Map();
    const first = new Map(); // url -> its first request
    for (const r of list) {
      const parent = r.from === null ? null : first.get(r.from);
      let d = parent ? depth.get(parent) + 1 : 1;
      for (const q of list) if (q.done !== null && q.done < r.sent && depth.has(q)) d = Math.max(d, depth.get(q) + 1);
      depth.set(r, d);
      if (!first.has(r.url)) first.set(r.url, r);
    }
    return list.map((r) => [r, depth.get(r)]);
  }
  return {
    requests,
    /** The deepest request's depth (the page's sequential round trips). */
    depth: (until) => Math.max(0, ...depths(until).map(([, d]) => d)),
    /** [url, depth, sent, done] of each request, in the order sent (ms of the wall clock). */
    chain: (until) => depths(until).map(([r, d]) => [r.url, d, r.sent, r.done]),
    /** The bytes received (headers and gzip body). */
    bytes: (until) => before(until).reduce((a, r) => a + r.bytes, 0),
  };
}

/** Drag a finger along `points` ([x, y] in CSS px of the viewport): touchStart at the first, a touchMove per point after it, touchEnd. `each(k)` is awaited after each move. */
export async function touchDrag(cdp, points, each = async () => {}) {
  const at = ([x, y]) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(points[0]) });
  for (let k = 1; k < points.length; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(points[k]) });
    await each(k);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

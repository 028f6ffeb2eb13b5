// busy.mjs: what a change costs Chromium's main thread, read from a trace.
// The page marks each change and the moment its frame is painted
// (console.timeStamp 'change' and 'painted', changes.mjs); between the two,
// the main thread's tasks are summed: the change's script, the frame's
// callbacks, style, layout and paint, and any task queued meanwhile. Idle
// time is not counted, nor the wait inside a commit for the compositor to
// take the frame: without a GPU, as here, that wait is this machine's
// rasterising in software, which a phone does on its GPU.

const CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline';

/** Run `run()` (a promise) with a trace on `cdp`; -> {result, events}. */
export async function traced(cdp, run) {
  const events = [];
  const collect = (e) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  try {
    return { result: await run(), events };
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
  }
}

/** Per marked change in `events`: the main thread's busy ms from 'change' to the next 'painted'. */
export function busyTimes(events) {
  const stamps = events.filter((e) => e.name === 'TimeStamp' && ['change', 'painted'].includes(e.args?.data?.message)).sort((a, b) => a.ts - b.ts);
  if (!stamps.length) return [];
  const { pid, tid } = stamps[0]; // the page's main thread
  const on = (name) => events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === name);
  const [tasks, commits] = [on('RunTask'), on('Commit')];
  const within = (list, from, to) => list.reduce((sum, e) => sum + Math.max(0, Math.min(to, e.ts + e.dur) - Math.max(from, e.ts)), 0);
  const times = [];
  for (let i = 0; i < stamps.length - 1; i++) {
    const [a, b] = [stamps[i], stamps[i + 1]];
    if (a.args.data.message !== 'change' || b.args.data.message !== 'painted') continue;
    times.push((within(tasks, a.ts, b.ts) - within(commits, a.ts, b.ts)) / 1000);
  }
  return times;
}

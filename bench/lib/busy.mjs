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

// The marked changes in `events`: the page's main thread {pid, tid} and, per
// change, [from, to] in the trace's microseconds.
function marked(events) {
  const stamps = events.filter((e) => e.name === 'TimeStamp' && ['change', 'painted'].includes(e.args?.data?.message)).sort((a, b) => a.ts - b.ts);
  const spans = [];
  for (let i = 0; i < stamps.length - 1; i++) {
    if (stamps[i].args.data.message === 'change' && stamps[i + 1].args.data.message === 'painted') spans.push([stamps[i].ts, stamps[i + 1].ts]);
  }
  return { pid: stamps[0]?.pid, tid: stamps[0]?.tid, spans };
}

/** Per marked change in `events`: the main thread's busy ms from 'change' to the next 'painted'. */
export function busyTimes(events) {
  const { pid, tid, spans } = marked(events);
  const on = (name) => events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === name);
  const [tasks, commits] = [on('RunTask'), on('Commit')];
  const within = (list, from, to) => list.reduce((sum, e) => sum + Math.max(0, Math.min(to, e.ts + e.dur) - Math.max(from, e.ts)), 0);
  return spans.map(([a, b]) => (within(tasks, a, b) - within(commits, a, b)) / 1000);
}

// Trace event names, by the part of a frame they are in (self time: an
// event's time less its children's). A task's own time, and events of kinds
// not listed, are "other".
const PARTS = {
  script: /^(FunctionCall|EventDispatch|FireAnimationFrame|TimerFire|RunMicrotasks|EvaluateScript|v8\.|V8\.|MinorGC|MajorGC|GCEvent|HandlePostMessage|FireIdleCallback)/,
  style: /^(UpdateLayoutTree|RecalculateStyles|ScheduleStyleRecalculation|ParseAuthorStyleSheet|InvalidateLayout)/,
  layout: /^(Layout|UpdateLayerTree|IntersectionObserverController)/,
  paint: /^(Paint|PrePaint|Layerize|PaintImage|RasterTask|Decode|Canvas|UpdateLayer|CompositeLayers)/,
};

/** Per marked change in `events`: busyTimes' ms split into {script, style, layout, paint, other}. */
export function busyParts(events) {
  const { pid, tid, spans } = marked(events);
  const mine = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur > 0).sort((x, y) => x.ts - y.ts || y.dur - x.dur);
  return spans.map(([a, b]) => {
    const clip = (e) => Math.max(0, Math.min(b, e.ts + e.dur) - Math.max(a, e.ts));
    const nodes = [];
    const stack = []; // the events that enclose this one
    for (const e of mine) {
      if (e.ts + e.dur <= a || e.ts >= b) continue;
      while (stack.length && stack.at(-1).end <= e.ts) stack.pop();
      const parent = stack.at(-1);
      if (!parent && e.name !== 'RunTask') continue; // what runs inside a task, as busyTimes counts
      const node = {
        end: e.ts + e.dur,
        self: clip(e),
        skip: e.name === 'Commit' || !!parent?.skip, // the commit's wait, left out as busyTimes does
        part: e.name === 'RunTask' ? 'other' : Object.keys(PARTS).find((k) => PARTS[k].test(e.name)) ?? parent?.part ?? 'other',
      };
      if (parent) parent.self -= node.self;
      stack.push(node);
      nodes.push(node);
    }
    const parts = { script: 0, style: 0, layout: 0, paint: 0, other: 0 };
    for (const n of nodes) if (!n.skip) parts[n.part] += n.self / 1000;
    return parts;
  });
}

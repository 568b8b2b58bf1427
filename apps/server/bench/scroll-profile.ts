// Where a scroll's time goes, from a Chromium performance trace (the DevTools protocol's Tracing domain): the
// renderer's main thread by kind of work (self time, as the Performance panel's summary counts it), its raster and
// image decode workers, and the display compositor. In thread CPU time (the events' `tdur`), per scrolled frame:
// what the page costs, whatever else the machine runs (wall times on a shared machine stretch with its load).
// The browser benches trace one scroll more than they measure, uncounted.
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { ScrollResult } from './browser-measures';

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread CPU time of the event, µs. */
  tdur?: number;
  args?: { name?: string };
}

const kinds = ['script', 'gc', 'style', 'layout', 'paint', 'loading', 'other'] as const;
type Kind = (typeof kinds)[number];

/** CPU milliseconds per scrolled frame (one scroll step), by where they went. */
export interface ScrollProfile {
  /** Scroll steps traced (each one animation frame's scroll). */
  frames: number;
  /** The renderer's main thread: its tasks in all, and their self time by kind. */
  main: number;
  byKind: Record<Kind, number>;
  /** Layouts that a script forced (read a size after a change, inside a script): layout thrash. */
  forcedLayouts: number;
  /** The renderer's workers: software raster of the page's tiles, and image decoding. */
  raster: number;
  decode: number;
  /** The display compositor (viz, in the GPU process: with no GPU it draws each frame in software). */
  viz: number;
}

const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8',
  'v8.execute',
  'blink',
  'cc',
  'viz',
  'loading',
  '__metadata',
];

/** A main-thread trace event's kind of work, by its name (Chromium's names as of version 14x). */
const patterns: [Kind, RegExp][] = [
  ['gc', /^(V8\.GC|MinorGC|MajorGC|BlinkGC|ThreadState::|CppGC)/],
  [
    'script',
    /^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|BlinkScheduler_PerformMicrotaskCheckpoint|AsyncTask Run|SerializedScriptValueFactory|HandlePostMessage|FireIdleCallback)/,
  ],
  [
    'style',
    /^(Document::recalcStyle|Document::updateStyle|Document::rebuildLayoutTree|UpdateLayoutTree|RecalculateStyles|StyleEngine)/,
  ],
  ['layout', /^(LocalFrameView::performLayout|Layout$|InlineNode::|LayoutNG|BlockNode::)/],
  [
    'paint',
    /^(Paint|PrePaint|Blink\.(Paint|PrePaint|CompositingInputs|Layerize)|PaintArtifactCompositor|Commit|ProxyMain::BeginMainFrame::commit|Layerize|CullRectUpdate|UpdateLayer|PaintImage|LocalFrameView::Run(Paint|PrePaint|CompositingInputs))/,
  ],
  [
    'loading',
    /^(ResourceFetcher|ResponseBodyLoader|ImageResourceContent|Resource::|BitmapImage::|ImageLoader)/,
  ],
];
const kindOf = (name: string): Kind => patterns.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';

/** One thread's complete events, the self CPU time of each (its time less its children's) summed by kind. */
function selfTimes(events: TraceEvent[]) {
  const byKind = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<Kind, number>;
  let busy = 0;
  let forcedLayouts = 0;
  const ordered = events
    .filter((event) => event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: { end: number; kind: Kind; cpu: number; childCpu: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      byKind[done.kind] += Math.max(0, done.cpu - done.childCpu);
    }
  };
  for (const event of ordered) {
    close(event.ts);
    const cpu = event.tdur ?? 0;
    const kind = kindOf(event.name);
    if (stack.length === 0) busy += cpu;
    else stack.at(-1)!.childCpu += cpu;
    if (event.name === 'LocalFrameView::performLayout' && stack.some((open) => open.kind === 'script'))
      forcedLayouts++;
    stack.push({ end: event.ts + event.dur!, kind, cpu, childCpu: 0 });
  }
  close(Number.POSITIVE_INFINITY);
  return { byKind, busy, forcedLayouts };
}

/** The CPU time (µs) of the named events on the given threads, those nested in another of them not counted twice. */
function cpuOf(events: TraceEvent[], threads: Set<string>, names: Set<string>): number {
  let total = 0;
  const lastEnd = new Map<string, number>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || !names.has(event.name) || !threads.has(thread)) continue;
    if (event.ts < (lastEnd.get(thread) ?? 0)) continue;
    lastEnd.set(thread, event.ts + (event.dur ?? 0));
    total += event.tdur ?? 0;
  }
  return total;
}

/** Runs `scroll` under a Chromium trace and sums where the CPU time went, per scrolled frame. */
export async function profileScroll(
  page: Page,
  scroll: () => Promise<ScrollResult>,
): Promise<{ result: ScrollResult; profile: ScrollProfile }> {
  const session = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
  const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [...categories, ...(process.env.BENCH_TRACE_EXTRA?.split(',') ?? [])],
      recordMode: 'recordAsMuchAsPossible',
    },
  });
  let result: ScrollResult;
  try {
    result = await scroll();
  } finally {
    await session.send('Tracing.end');
    await complete;
    await session.detach().catch(() => undefined);
  }
  // For a closer look in the Performance panel of DevTools (Load profile).
  if (process.env.BENCH_TRACE_FILE)
    writeFileSync(process.env.BENCH_TRACE_FILE, JSON.stringify({ traceEvents: events }));
  return { result: result!, profile: summariseTrace(events, result!.frames) };
}

/** A trace's CPU time per scrolled frame, by where it went (`frames`: the scroll steps it holds). */
export function summariseTrace(events: TraceEvent[], scrollFrames: number): ScrollProfile {
  events.sort((a, b) => a.ts - b.ts);

  const names = new Map<string, string>();
  for (const event of events)
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name)
      names.set(`${event.pid}:${event.tid}`, event.args.name);
  const threads = (test: (key: string, name: string) => boolean) =>
    new Set([...names].filter(([key, name]) => test(key, name)).map(([key]) => key));
  // The page's renderer main thread: of the renderers' main threads, the busiest (others are idle frames, if any).
  const mains = threads((_, name) => name === 'CrRendererMain');
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (!mains.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(event);
    byThread.set(key, list);
  }
  const [mainKey, main] = [...byThread]
    .map(([key, list]) => [key, selfTimes(list)] as const)
    .sort((a, b) => b[1].busy - a[1].busy)[0] ?? ['', selfTimes([])];
  const renderer = mainKey.split(':')[0];
  const workers = threads((key, name) => key.startsWith(`${renderer}:`) && name !== 'CrRendererMain');
  const frames = Math.max(1, scrollFrames);
  const perFrame = (us: number) => us / 1000 / frames;
  return {
    frames,
    main: perFrame(main.busy),
    byKind: Object.fromEntries(kinds.map((kind) => [kind, perFrame(main.byKind[kind])])) as Record<
      Kind,
      number
    >,
    forcedLayouts: main.forcedLayouts / frames,
    raster: perFrame(cpuOf(events, workers, new Set(['RasterTask']))),
    decode: perFrame(cpuOf(events, workers, new Set(['ImageDecodeTask']))),
    viz: perFrame(
      cpuOf(
        events,
        threads((_, name) => name === 'VizCompositorThread'),
        new Set(['RunTask']),
      ),
    ),
  };
}

/** One line of a profile: 'main thread 9.1 ms (script 3.2, style 1.0, ...); raster 4.0 ms, ...' per frame. */
export function profileLine(profile: ScrollProfile): string {
  const ms = (value: number) => value.toFixed(1);
  const kindsText = kinds.map((kind) => `${kind} ${ms(profile.byKind[kind])}`).join(', ');
  return (
    `CPU ms per scrolled frame: main thread ${ms(profile.main)} (${kindsText}; ${profile.forcedLayouts.toFixed(2)} layouts forced by script),` +
    ` raster ${ms(profile.raster)}, image decode ${ms(profile.decode)} (workers), display compositor ${ms(profile.viz)}`
  );
}

/**
 * Why a scroll misses its frame rate, from its profile: the thread with the most CPU time per frame and its biggest
 * share, and the frame rate that CPU time allows with a core of its own (the next-best figure on a loaded machine,
 * where a frame also waits for the CPU).
 */
export function profileTop(profile: ScrollProfile): string {
  const [kind, kindMs] = kinds
    .map((name) => [name, profile.byKind[name]] as const)
    .sort((a, b) => b[1] - a[1])[0]!;
  const threads = [
    ['main thread', profile.main],
    ['raster and image decode workers', profile.raster + profile.decode],
    ['display compositor', profile.viz],
  ] as const;
  const [busiest, busiestMs] = [...threads].sort((a, b) => b[1] - a[1])[0]!;
  const fps = Math.min(60, 1000 / Math.max(busiestMs, 1000 / 60));
  return (
    `busiest: ${busiest} ${busiestMs.toFixed(1)} ms per frame (main thread's biggest share: ${kind} ${kindMs.toFixed(1)} ms);` +
    ` with a core of its own that allows ${fps.toFixed(0)} fps`
  );
}

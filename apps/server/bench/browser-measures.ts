// Launching Chromium and measuring pages in it for the browser benches: network, long tasks, time to usable,
// scrolling. Preparing the data and starting the production server is browser-support.ts.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { storageKeys } from '@reskin/contract';
import { median } from './api.bench';

export { median };

/** The same flags as the e2e suite's Chromium (e2e/chromium-flags.ts): headless, no GPU, no background traffic. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
}

/** One network request as the DevTools protocol reported it; times in wall-clock ms. */
export interface RequestRecord {
  url: string;
  type: string;
  startWallMs: number;
  endWallMs?: number;
  /** Bytes on the wire, headers included (Network.loadingFinished's encodedDataLength). */
  bytes: number;
  failed?: boolean;
}

/**
 * Every request of one page, from the DevTools protocol's Network events (the protocol's monotonic timestamps put
 * on the wall clock through each request's wallTime), read on the page's own clock (ms since its navigation
 * started) so they compare with the page's paint and long-task times.
 */
export class NetworkLog {
  readonly requests = new Map<string, RequestRecord>();
  private wallAtNavigation = 0;
  /** Wall-clock ms minus the protocol's monotonic ms. */
  private offsetMs = 0;
  private constructor(private readonly session: CDPSession) {}

  static async attach(context: BrowserContext, page: Page): Promise<NetworkLog> {
    const session = await context.newCDPSession(page);
    const log = new NetworkLog(session);
    await session.send('Network.enable');
    // The browser's cache is cold for every round (a fresh context), and stays enabled as for a person.
    session.on('Network.requestWillBeSent', (event) => {
      log.offsetMs = event.wallTime * 1000 - event.timestamp * 1000;
      if (event.request.url.startsWith('data:')) return;
      log.requests.set(event.requestId, {
        url: event.request.url,
        type: event.type ?? 'Other',
        startWallMs: event.wallTime * 1000,
        bytes: 0,
      });
    });
    session.on('Network.responseReceived', (event) => {
      const record = log.requests.get(event.requestId);
      if (record) record.type = event.type;
    });
    session.on('Network.loadingFinished', (event) => {
      const record = log.requests.get(event.requestId);
      if (!record) return;
      record.bytes = event.encodedDataLength;
      record.endWallMs = event.timestamp * 1000 + log.offsetMs;
    });
    session.on('Network.loadingFailed', (event) => {
      const record = log.requests.get(event.requestId);
      if (!record) return;
      record.failed = true;
      record.endWallMs = event.timestamp * 1000 + log.offsetMs;
    });
    return log;
  }

  /** Call once the page has navigated: the page's timeOrigin, to put wall times on its clock. */
  async anchor(page: Page): Promise<void> {
    this.wallAtNavigation = await page.evaluate<number>('performance.timeOrigin');
  }

  inFlight(): number {
    let count = 0;
    for (const request of this.requests.values()) if (request.endWallMs === undefined) count++;
    return count;
  }

  /** The end of the last request, in ms since the page's navigation started. */
  lastEndMs(): number {
    let last = 0;
    for (const request of this.requests.values()) last = Math.max(last, request.endWallMs ?? 0);
    return last - this.wallAtNavigation;
  }

  /** Waits until no request has been in flight for `quietMs` (networkidle, measured by events). */
  async idle(quietMs = 500, timeoutMs = 180_000): Promise<void> {
    const started = Date.now();
    let quietSince = Date.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (this.inFlight() > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
      if (Date.now() - started > timeoutMs)
        throw new Error(`network not idle after ${timeoutMs} ms (${this.inFlight()} in flight)`);
    }
  }

  bytes(filter: (request: RequestRecord) => boolean = () => true): number {
    let total = 0;
    for (const request of this.requests.values()) if (filter(request)) total += request.bytes;
    return total;
  }

  list(filter: (request: RequestRecord) => boolean = () => true): RequestRecord[] {
    return [...this.requests.values()].filter(filter);
  }

  /** Forgets what was recorded (to count what the next steps load). */
  clear(): void {
    for (const [id, request] of this.requests) if (request.endWallMs !== undefined) this.requests.delete(id);
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => undefined);
  }
}

// The code that runs in the page is written as script text: the server's tsconfig has no DOM library, and tsx
// compiles functions with esbuild's keepNames, whose `__name` helper does not exist in the page.

/** Records long tasks from the page's start on (PerformanceObserver 'longtask', buffered). */
const longTaskRecorder = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
`;

/**
 * A fresh browser context (cold cache) whose page carries the user's session token from its first request on
 * (the web app keeps it in localStorage; only the app's origin, not the play origin's *.localhost hosts), and
 * records long tasks from navigation on.
 */
export async function signedInPage(
  browser: Browser,
  origin: string,
  token: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
  const appHost = new URL(origin).host;
  await context.addInitScript(
    `if (location.host === ${JSON.stringify(appHost)}) localStorage.setItem(${JSON.stringify(storageKeys.token)}, ${JSON.stringify(token)});` +
      longTaskRecorder,
  );
  const page = await context.newPage();
  return { context, page };
}

export const longTasks = (page: Page) =>
  page.evaluate<{ start: number; duration: number }[]>('window.__longTasks');

export const domNodes = (page: Page) => page.evaluate<number>("document.getElementsByTagName('*').length");

/**
 * "Usable": the first card image (`selector`) loaded and laid out, a frame later (painted when on screen; the
 * workbench's first cards sit just below the fold of a 1280x800 window, under its notes and drop areas), then the
 * main thread quiet (no long task for `quietMs`): the later of the paint and the end of the last long task before
 * that quiet spell. Both on the page's clock (ms since navigation started).
 */
export async function usableMs(
  page: Page,
  selector: string,
  quietMs = 1000,
  timeoutMs = 120_000,
): Promise<{ usableMs: number; firstImageMs: number }> {
  const firstImageMs = await page.evaluate<number>(`
    new Promise((resolve, reject) => {
      const started = performance.now();
      const check = () => {
        const shown = [...document.querySelectorAll(${JSON.stringify(selector)})].some((img) => {
          if (!img.complete || img.naturalWidth === 0 || img.src.startsWith('data:')) return false;
          return img.getBoundingClientRect().width > 0;
        });
        // The frame after the one in which the image was complete: it has been painted.
        if (shown) requestAnimationFrame(() => resolve(performance.now()));
        else if (performance.now() - started > ${timeoutMs}) reject(new Error('no card image shown'));
        else requestAnimationFrame(check);
      };
      check();
    })`);
  for (;;) {
    const tasks = await longTasks(page);
    const lastEnd = Math.max(firstImageMs, ...tasks.map((task) => task.start + task.duration));
    const now = await page.evaluate<number>('performance.now()');
    if (now - lastEnd >= quietMs) return { usableMs: lastEnd, firstImageMs };
    await new Promise((resolve) => setTimeout(resolve, Math.max(50, quietMs - (now - lastEnd))));
  }
}

export interface ScrollResult {
  frames: number;
  seconds: number;
  fps: number;
  p95FrameMs: number;
  maxFrameMs: number;
  /** Pixels scrolled in all. */
  distance: number;
  /** Most DOM nodes seen at any step (counted every 30 frames). */
  maxDomNodes: number;
}

/**
 * Scrolls the whole page (the window, or the largest scrollable element when the window does not scroll) by `step`
 * px per animation frame to the end (or `limitPx` down), recording the interval between frames.
 */
export async function scrollThrough(page: Page, step: number, limitPx = Infinity): Promise<ScrollResult> {
  return page.evaluate<ScrollResult>(`
    new Promise((resolve) => {
      const root = document.scrollingElement || document.documentElement;
      let scroller = null;
      if (root.scrollHeight <= innerHeight + 10) {
        let best = 0;
        for (const element of document.querySelectorAll('*')) {
          const overflow = getComputedStyle(element).overflowY;
          if ((overflow === 'auto' || overflow === 'scroll') && element.scrollHeight - element.clientHeight > best) {
            best = element.scrollHeight - element.clientHeight;
            scroller = element;
          }
        }
      }
      const position = () => (scroller ? scroller.scrollTop : scrollY);
      const end = () => (scroller ? scroller.scrollHeight - scroller.clientHeight : root.scrollHeight - innerHeight);
      const intervals = [];
      let maxDomNodes = document.getElementsByTagName('*').length;
      let last = 0;
      let first = 0;
      let stuck = 0;
      const frame = (time) => {
        if (last) intervals.push(time - last);
        else first = time;
        last = time;
        if (intervals.length % 30 === 0) maxDomNodes = Math.max(maxDomNodes, document.getElementsByTagName('*').length);
        const before = position();
        if (before >= Math.min(end() - 1, ${limitPx}) || stuck > 30) {
          const sorted = [...intervals].sort((a, b) => a - b);
          const seconds = (time - first) / 1000;
          resolve({
            frames: intervals.length,
            seconds,
            fps: intervals.length / seconds,
            p95FrameMs: sorted[Math.floor(sorted.length * 0.95)] || 0,
            maxFrameMs: sorted[sorted.length - 1] || 0,
            distance: before,
            maxDomNodes,
          });
          return;
        }
        // Instant: Bootstrap's reboot sets scroll-behavior: smooth, which would animate (and restart) every step.
        (scroller || window).scrollBy({ top: ${step}, behavior: 'instant' });
        stuck = position() === before ? stuck + 1 : 0;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    })`);
}

/** Each numeric field's median over several runs of one visit. */
export function medianRun<T extends { [K in keyof T]: number }>(runs: T[]): T {
  const keys = Object.keys(runs[0]!) as (keyof T)[];
  return Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))])) as T;
}

/** A failed visit's error with what the page showed, to see why (a screenshot next to the system's temp files). */
export async function pageFailure(page: Page, name: string, error: unknown): Promise<Error> {
  const shot = join(tmpdir(), `reskin-bench-${name}-failure.png`);
  await page.screenshot({ path: shot, fullPage: false }).catch(() => undefined);
  return new Error(
    `${(error as Error).message} (screenshot: ${shot}; page text: ${(await page.innerText('body').catch(() => '')).slice(0, 300)})`,
  );
}

// One visit of a long screen (the workbench, the review screen) for the browser benches: open it in a fresh context,
// wait until usable, scroll it to the end, and count what it cost (long tasks, DOM, bytes, notes requests).
import type { Browser } from 'playwright-core';
import {
  NetworkLog,
  domNodes,
  longTasks,
  pageFailure,
  scrollThrough,
  signedInPage,
  usableMs,
  type RequestRecord,
} from './browser-measures';
import { profileScroll, type ScrollProfile } from './scroll-profile';

/** Pixels scrolled per animation frame: a quick fling through the list. */
export const scrollStep = 100;
/** How far the traced scroll goes: enough rows for the profile's shares, a trace small enough to read. */
export const profiledScrollPx = 30_000;

export interface ScreenRun {
  /** Navigation to the first list image painted and the main thread quiet for 1 s (ms since navigation). */
  usableMs: number;
  firstImageMs: number;
  /** The longest long task (PerformanceObserver 'longtask') from navigation to the end of the scroll; 0 when none. */
  maxLongTaskMs: number;
  longTasksOver200: number;
  /** document.getElementsByTagName('*').length once usable, and the most seen while scrolling. */
  domNodes: number;
  maxDomNodes: number;
  images: number;
  fps: number;
  p95FrameMs: number;
  scrollSeconds: number;
  scrolledPx: number;
  /** Bytes on the wire until usable and the network quiet, and while scrolling to the end (until quiet again). */
  loadMb: number;
  scrollMb: number;
  requests: number;
  /** Requests for the version's notes (GET .../notes, each page one) until usable, and while scrolling. */
  notesRequests: number;
  notesRequestsScrolling: number;
  /** Reads of the notes (their first page: after=0) until the end of the scroll: one per screen opened is the aim. */
  notesReads: number;
}

const isNotes = (request: RequestRecord) => /\/api\/game-versions\/\d+\/notes(\?|$)/.test(request.url);
const isFirstNotesPage = (request: RequestRecord) => isNotes(request) && /[?&]after=0(&|$)/.test(request.url);

/**
 * Opens `url` signed in with `token` in a fresh context (cold cache), waits until the first `imageSelector` image is
 * painted and the page quiet (with `scrollTo`, once that element is scrolled into view), then scrolls it to the end; with `profile`, the first `profiledScrollPx` of the scroll
 * run under a Chromium trace (slower: for where the time goes, not for the figures).
 */
export async function visitScreen(
  browser: Browser,
  origin: string,
  token: string,
  url: string,
  imageSelector: string,
  name: string,
  profile = false,
  scrollTo?: string,
): Promise<{ run: ScreenRun; profile?: ScrollProfile }> {
  const { context, page } = await signedInPage(browser, origin, token);
  const network = await NetworkLog.attach(context, page);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await network.anchor(page);
    // A list under a long panel (the review screen's notes on the version) starts below the browser's lazy-loading
    // margin: the person scrolls to it first, and its images load then.
    if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded({ timeout: 120_000 });
    const usable = await usableMs(page, imageSelector);
    const nodes = await domNodes(page);
    const images = await page.evaluate<number>('document.images.length');
    await network.idle();
    const loadBytes = network.bytes();
    const requestsAtLoad = network.requests.size;
    const notesAtLoad = network.list(isNotes).length;
    const traced = profile
      ? await profileScroll(page, () => scrollThrough(page, scrollStep, profiledScrollPx))
      : { result: await scrollThrough(page, scrollStep), profile: undefined };
    const scroll = traced.result;
    await network.idle();
    const tasks = await longTasks(page);
    return {
      profile: traced.profile,
      run: {
        usableMs: usable.usableMs,
        firstImageMs: usable.firstImageMs,
        maxLongTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
        longTasksOver200: tasks.filter((task) => task.duration > 200).length,
        domNodes: nodes,
        maxDomNodes: Math.max(nodes, scroll.maxDomNodes),
        images,
        fps: scroll.fps,
        p95FrameMs: scroll.p95FrameMs,
        scrollSeconds: scroll.seconds,
        scrolledPx: scroll.distance,
        loadMb: loadBytes / 1024 / 1024,
        scrollMb: (network.bytes() - loadBytes) / 1024 / 1024,
        requests: requestsAtLoad,
        notesRequests: notesAtLoad,
        notesRequestsScrolling: network.list(isNotes).length - notesAtLoad,
        notesReads: network.list(isFirstNotesPage).length,
      },
    };
  } catch (error) {
    throw await pageFailure(page, name, error);
  } finally {
    await network.detach();
    await context.close();
  }
}

import { useVirtualizer, useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Key,
  type ReactNode,
  type RefObject,
} from 'react';

/**
 * The one list of the app's long lists (decision 0041): the workbench's cards and rows, a sprite sheet's frames,
 * the batch plan and the reviewer's files render only the rows in view (TanStack Virtual), plus a few either side.
 * Filters and sorts stay with the caller, on the whole list; the list only decides what is in the DOM.
 */

/** Columns by the list's own width: the first pair whose minimum width the list reaches, from the widest. */
export type ColumnSteps = readonly (readonly [minWidth: number, columns: number])[];

/**
 * Today's card grid (Bootstrap's `xs=1 md=2 xl=3` Row) by the list's width instead of the window's: in the app's
 * `.container` inside a card body, a window at Bootstrap's md breakpoint (768 px) gives the list at least 662 px
 * and one below it at most 482 px; at xl (1,200 px) at least 1,082 px and below it at most 902 px.
 */
export const cardColumns: ColumnSteps = [
  [1000, 3],
  [600, 2],
  [0, 1],
];

export function columnsForWidth(width: number, steps: ColumnSteps | ((width: number) => number)): number {
  if (typeof steps === 'function') return Math.max(1, steps(width));
  return steps.find(([minWidth]) => width >= minWidth)?.[1] ?? 1;
}

/** Packs items into rows of `columns`; an item for which `fullRow` holds takes a row of its own (a sprite sheet's card). */
export function packRows<T>(items: readonly T[], columns: number, fullRow?: (item: T) => boolean): T[][] {
  const rows: T[][] = [];
  let current: T[] = [];
  for (const item of items) {
    if (fullRow?.(item)) {
      if (current.length > 0) rows.push(current);
      rows.push([item]);
      current = [];
      continue;
    }
    current.push(item);
    if (current.length === columns) {
      rows.push(current);
      current = [];
    }
  }
  if (current.length > 0) rows.push(current);
  return rows;
}

/** An element's width, followed as it changes (0 until it is laid out). */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * Where the list starts in the page (the window virtualizer's `scrollMargin`), followed as what is above it grows
 * or shrinks (a notes panel, the batch plan opening): any such change resizes the body.
 */
function usePageTop(ref: RefObject<HTMLElement | null>, enabled: boolean): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const measure = () => setTop(Math.round(element.getBoundingClientRect().top + window.scrollY));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref, enabled]);
  return top;
}

/**
 * How long after a link opens its row (or after the row was last pushed out of view) it is kept in view while the page
 * settles (data and heights arriving).
 */
const focusSettleMs = 4000;

const indexKey = (index: number): Key => index;

interface VirtualRowsOptions {
  count: number;
  estimateSize: (index: number) => number;
  /** Rows rendered beyond those in view, each way. */
  overscan?: number;
  /** The rows scroll in the returned box (`maxHeight` set) rather than with the page. */
  inBox: boolean;
  /** A row to bring into view once, centred (a link's `?fileId=`); -1 or null for none. */
  scrollToIndex?: number | null;
  /** A row's identity, so a measured height stays with its content when a filter or sort moves it. */
  getItemKey?: (index: number) => Key;
}

/**
 * The rows in view of a list of `count` rows of differing heights, scrolled with the page (the workbench) or in
 * a box of its own: the caller renders `rows`, each with `data-index` and `ref={measure}`, between spacers of
 * `paddingTop` and `paddingBottom` (a table uses spacer rows), inside `containerRef`.
 */
export function useVirtualRows({
  count,
  estimateSize,
  overscan = 2,
  inBox,
  scrollToIndex = null,
  getItemKey = indexKey,
}: VirtualRowsOptions) {
  const containerRef = useRef<HTMLDivElement>(null);
  const pageTop = usePageTop(containerRef, !inBox);
  // Both hooks always run (hooks cannot be conditional); only the enabled one observes and scrolls.
  const inWindow = useWindowVirtualizer({
    count,
    estimateSize,
    getItemKey,
    overscan,
    scrollMargin: pageTop,
    enabled: !inBox,
  });
  const ownBox = useVirtualizer({
    count,
    estimateSize,
    getItemKey,
    overscan,
    getScrollElement: () => containerRef.current,
    enabled: inBox,
  });
  const virtualizer = inBox ? ownBox : inWindow;
  const margin = inBox ? 0 : pageTop;

  const rows = virtualizer.getVirtualItems();

  // The scroll to a row is asked again on each render that finds it out of view, for a while after the link
  // opened: the first lands on estimated heights, the page may not yet be tall enough for it (the browser then
  // stops short), and what is above the list (notes, the batch card) may still grow and push it away. A person's
  // own wheel, touch or key ends it, so the page never fights them.
  const asked = useRef<number | null>(null);
  const pending = useRef<{ index: number; openedAt: number; until: number } | null>(null);
  useEffect(() => {
    if (scrollToIndex !== null && scrollToIndex >= 0 && asked.current !== scrollToIndex) {
      asked.current = scrollToIndex;
      pending.current = {
        index: scrollToIndex,
        openedAt: performance.now(),
        until: performance.now() + focusSettleMs,
      };
      virtualizer.scrollToIndex(scrollToIndex, { align: 'center' });
      return;
    }
    const wanted = pending.current;
    if (!wanted) return;
    if (performance.now() > wanted.until) {
      pending.current = null;
      return;
    }
    const row = rows.find((item) => item.index === wanted.index);
    const top = virtualizer.scrollOffset ?? 0;
    const bottom = top + (virtualizer.scrollRect?.height ?? 0);
    if (row !== undefined && row.start < bottom && row.end > top) return;
    // Pushed away again (heights or what is above arriving late on a busy machine): the settling time starts over,
    // up to three times its length after the link opened (a scroll bar dragged away is not fought for long).
    wanted.until = Math.min(performance.now() + focusSettleMs, wanted.openedAt + 3 * focusSettleMs);
    virtualizer.scrollToIndex(wanted.index, { align: 'center' });
  });
  useEffect(() => {
    const stop = () => (pending.current = null);
    const events = ['wheel', 'touchstart', 'keydown'] as const;
    for (const event of events) window.addEventListener(event, stop, { passive: true });
    return () => {
      for (const event of events) window.removeEventListener(event, stop);
    };
  }, []);

  const first = rows[0];
  const last = rows[rows.length - 1];
  const total = virtualizer.getTotalSize();
  return {
    containerRef,
    rows,
    measure: virtualizer.measureElement,
    paddingTop: first ? Math.max(0, first.start - margin) : 0,
    // With no row rendered yet the list still takes its full height: a box sized by its content (a sheet's
    // frames, the batch plan) would otherwise stay 0 px high and so never show a row.
    paddingBottom: last ? Math.max(0, total - (last.end - margin)) : total,
  };
}

interface VirtualGridProps<T> {
  items: readonly T[];
  getKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  /** The columns for the list's width (default one column). */
  columns?: ColumnSteps | ((width: number) => number);
  /** Items that take a whole row (a sprite sheet's card with its frames). */
  fullRow?: (item: T) => boolean;
  /** A row's height before it is measured (its items are given). */
  estimateRowHeight: number | ((row: readonly T[]) => number);
  /** The space between columns and between rows, in px. */
  gap?: number;
  overscan?: number;
  /** The rows scroll in a box this high; without it they scroll with the page. */
  maxHeight?: number;
  /** The key of an item to bring into view once it is in the list (a link from the inbox). */
  scrollToKey?: Key | null;
  className?: string;
  role?: string;
  'aria-label'?: string;
  /** Shown in the list when it has no item. */
  empty?: ReactNode;
}

/**
 * A virtualised grid of rows of N columns (decision 0041): N follows the list's width, rows are measured as they
 * render (a sheet's card is taller than an image's), and only the rows in view plus `overscan` are in the DOM.
 */
export function VirtualGrid<T>({
  items,
  getKey,
  renderItem,
  columns: steps = [[0, 1]],
  fullRow,
  estimateRowHeight,
  gap = 0,
  overscan = 2,
  maxHeight,
  scrollToKey = null,
  className,
  role,
  'aria-label': label,
  empty,
}: VirtualGridProps<T>) {
  const inBox = maxHeight !== undefined;
  const widthRef = useRef<HTMLDivElement>(null);
  const width = useWidth(widthRef);
  const columns = columnsForWidth(width, steps);
  const rowsOfItems = useMemo(() => packRows(items, columns, fullRow), [items, columns, fullRow]);
  // A row is known by its first item: its measured height follows it through a filter or a sort. The same
  // function until the rows change: a new one makes the virtualizer place every row again (on each scroll's render).
  const rowKey = useCallback(
    (index: number): Key => {
      const first = rowsOfItems[index]?.[0];
      return first === undefined ? index : `${columns}:${String(getKey(first))}`;
    },
    [rowsOfItems, columns, getKey],
  );
  const estimate =
    typeof estimateRowHeight === 'number'
      ? () => estimateRowHeight
      : (index: number) => estimateRowHeight(rowsOfItems[index] ?? []);
  // Until the width is known the rows (and so the focused item's row) are not final.
  const focusedRow =
    width > 0 && scrollToKey !== null
      ? rowsOfItems.findIndex((row) => row.some((item) => getKey(item) === scrollToKey))
      : null;
  const { containerRef, rows, measure, paddingTop, paddingBottom } = useVirtualRows({
    count: rowsOfItems.length,
    estimateSize: estimate,
    overscan,
    inBox,
    scrollToIndex: focusedRow,
    getItemKey: rowKey,
  });

  return (
    <div
      ref={containerRef}
      className={className}
      role={role}
      aria-label={label}
      style={inBox ? { maxHeight, overflow: 'auto' } : undefined}
    >
      <div ref={widthRef} style={{ paddingTop, paddingBottom }}>
        {rows.map((virtual) => (
          <GridRow
            key={virtual.key}
            index={virtual.index}
            items={rowsOfItems[virtual.index] ?? noItems}
            columns={columns}
            gap={gap}
            measure={measure}
            getKey={getKey}
            renderItem={renderItem}
            fullRow={fullRow}
          />
        ))}
      </div>
      {items.length === 0 && empty}
    </div>
  );
}

const noItems: never[] = [];

interface GridRowProps<T> {
  index: number;
  items: readonly T[];
  columns: number;
  gap: number;
  measure: (element: Element | null) => void;
  getKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  fullRow: ((item: T) => boolean) | undefined;
}

/**
 * One row of the grid. Memoised: a scroll re-renders the grid (new rows come into view) but not the rows already
 * shown, whose items and render function are unchanged until the caller itself renders again.
 */
const GridRow = memo(function GridRow<T>({
  index,
  items,
  columns,
  gap,
  measure,
  getKey,
  renderItem,
  fullRow,
}: GridRowProps<T>) {
  return (
    <div
      data-index={index}
      ref={measure}
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        gap,
        paddingBottom: gap,
      }}
    >
      {items.map((item) =>
        fullRow?.(item) ? (
          <div key={getKey(item)} style={{ gridColumn: '1 / -1' }}>
            {renderItem(item)}
          </div>
        ) : (
          <Fragment key={getKey(item)}>{renderItem(item)}</Fragment>
        ),
      )}
    </div>
  );
}) as <T>(props: GridRowProps<T>) => ReactNode;

/**
 * The space of a virtualised table's rows out of view, above or below those rendered (useVirtualRows). It paints
 * nothing (no background, no shadow): its height changes on every frame of a scroll, and a painted spacer made the
 * browser paint and raster its whole height again each time.
 */
export function SpacerRow({ height, colSpan }: { height: number; colSpan: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true">
      <td colSpan={colSpan} style={spacerCell(height)} />
    </tr>
  );
}

const spacerCell = (height: number) =>
  ({ height, padding: 0, border: 0, background: 'none', boxShadow: 'none' }) as const;

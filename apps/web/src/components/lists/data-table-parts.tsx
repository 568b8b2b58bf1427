import { memo, useCallback, type Key, type ReactNode } from 'react';
import { SpacerRow, useVirtualRows } from '../ui/virtual-grid';

/** A row's checkbox of a table that selects rows (DataTable's `selection`). */
export function SelectBox({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className="form-check-input"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

/** The header's checkbox: all rows, half-ticked while only some are selected. */
export function SelectAllBox({
  checked,
  some,
  onChange,
}: {
  checked: boolean;
  some: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className="form-check-input"
      aria-label="Select all"
      checked={checked}
      ref={(box) => {
        if (box) box.indeterminate = some && !checked;
      }}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

interface VirtualBodiesProps<T> {
  rows: readonly T[];
  getRowKey: (row: T) => Key;
  virtual: { estimateSize: (row: T) => number; scrollTo?: ((row: T) => boolean) | null };
  colSpan: number;
  renderRows: (row: T) => ReactNode;
  shell: (body: ReactNode) => ReactNode;
}

/** The rows in view only, scrolled with the page (useVirtualRows, decision 0041), between spacer rows. */
export function VirtualBodies<T>({
  rows,
  getRowKey,
  virtual,
  colSpan,
  renderRows,
  shell,
}: VirtualBodiesProps<T>) {
  // The same key function until the rows change: a new one makes the virtualizer measure every row's place again.
  const getItemKey = useCallback(
    (index: number) => (index < rows.length ? getRowKey(rows[index] as T) : index),
    [rows, getRowKey],
  );
  const {
    containerRef,
    rows: inView,
    measure,
    paddingTop,
    paddingBottom,
  } = useVirtualRows({
    count: rows.length,
    estimateSize: (index) => virtual.estimateSize(rows[index] as T),
    inBox: false,
    getItemKey,
    scrollToIndex: virtual.scrollTo ? rows.findIndex((row) => virtual.scrollTo!(row)) : null,
  });
  return (
    <div ref={containerRef}>
      {shell(
        <>
          <tbody>
            <SpacerRow height={paddingTop} colSpan={colSpan} />
          </tbody>
          {inView.map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <VirtualBody
                key={item.key}
                index={item.index}
                row={row}
                measure={measure}
                renderRows={renderRows}
              />
            );
          })}
          <tbody>
            <SpacerRow height={paddingBottom} colSpan={colSpan} />
          </tbody>
        </>,
      )}
    </div>
  );
}

interface VirtualBodyProps<T> {
  index: number;
  row: T;
  measure: (element: Element | null) => void;
  renderRows: (row: T) => ReactNode;
}

/**
 * A row and the rows under it, one measured <tbody> (they come and go together). Memoised: a scroll renders the
 * table again for the rows coming into view, not the rows already shown (the review screen's 1,500 files: every
 * row in view re-rendered on every frame that brought a new one).
 */
const VirtualBody = memo(function VirtualBody<T>({ index, row, measure, renderRows }: VirtualBodyProps<T>) {
  return (
    <tbody data-index={index} ref={measure}>
      {renderRows(row)}
    </tbody>
  );
}) as <T>(props: VirtualBodyProps<T>) => ReactNode;

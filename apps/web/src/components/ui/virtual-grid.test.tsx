import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardColumns, columnsForWidth, packRows, VirtualGrid } from './virtual-grid';

// jsdom lays nothing out: the list's width and each row's height are given here, as a browser would measure them.
let listWidth = 1100;
const rowHeight = 300;

beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(() => listWidth);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => rowHeight);
  // A box of its own is as high as its content, up to its max-height.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    const max = Number.parseFloat(this.style.maxHeight);
    const sizer = this.firstElementChild as HTMLElement | null;
    if (!max || !sizer) return 0;
    const padding =
      (Number.parseFloat(sizer.style.paddingTop) || 0) + (Number.parseFloat(sizer.style.paddingBottom) || 0);
    return Math.min(max, padding + sizer.children.length * rowHeight);
  });
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(() => listWidth);
});
afterEach(() => {
  cleanup();
  listWidth = 1100;
});

const items = Array.from({ length: 300 }, (_, index) => ({ id: index + 1, sheet: false }));

function Grid(props: { items?: typeof items; maxHeight?: number }) {
  return (
    <VirtualGrid
      aria-label="Cards"
      role="list"
      items={props.items ?? items}
      getKey={(item) => item.id}
      columns={cardColumns}
      fullRow={(item) => item.sheet}
      estimateRowHeight={rowHeight}
      maxHeight={props.maxHeight}
      renderItem={(item) => (
        <div role="listitem" data-id={item.id}>
          Card {item.id}
        </div>
      )}
    />
  );
}

const rowsOf = (list: HTMLElement) => [...list.querySelectorAll<HTMLElement>('[data-index]')];
const idsIn = (row: HTMLElement) =>
  within(row)
    .getAllByRole('listitem')
    .map((card) => Number(card.dataset.id));

describe('the virtualised grid (decision 0041)', () => {
  it('takes its columns from its own width, as the card grid did at Bootstrap md and xl', () => {
    expect([400, 482, 662, 902, 1082, 1262].map((width) => columnsForWidth(width, cardColumns))).toEqual([
      1, 1, 2, 2, 3, 3,
    ]);
    expect(columnsForWidth(600, (width) => Math.floor(width / 280))).toBe(2);
    expect(columnsForWidth(100, (width) => Math.floor(width / 280))).toBe(1);
  });

  it('packs items into rows, a full-row item (a sprite sheet) on a row of its own', () => {
    const packed = packRows([1, 2, 3, 4, 5, 6, 7], 3, (n) => n === 3);
    expect(packed).toEqual([[1, 2], [3], [4, 5, 6], [7]]);
  });

  it('renders only the rows in view and a few more, three cards a row on a wide list', () => {
    render(<Grid />);
    const list = screen.getByRole('list', { name: 'Cards' });
    const rows = rowsOf(list);
    expect(rows.length).toBeGreaterThan(0);
    // 100 rows in all; a 768 px window shows about three of 300 px.
    expect(rows.length).toBeLessThan(10);
    expect(idsIn(rows[0]!)).toEqual([1, 2, 3]);
    expect(within(list).queryByText('Card 300')).toBeNull();
    // The rows out of view keep their space, so the page scrolls as if they were there.
    const sizer = list.firstElementChild as HTMLElement;
    expect(Number.parseFloat(sizer.style.paddingBottom)).toBeGreaterThan(rowHeight * 80);
  });

  it('puts two cards on a row of a narrower list and a sheet on a row of its own', () => {
    listWidth = 700;
    render(<Grid items={items.map((item) => ({ ...item, sheet: item.id === 2 }))} />);
    const rows = rowsOf(screen.getByRole('list', { name: 'Cards' }));
    expect(rows.slice(0, 3).map(idsIn)).toEqual([[1], [2], [3, 4]]);
  });

  it('scrolls in a box of its own when given a height, still rendering only some rows', () => {
    render(<Grid maxHeight={600} />);
    const list = screen.getByRole('list', { name: 'Cards' });
    expect(list.style.maxHeight).toBe('600px');
    const rows = rowsOf(list);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(10);
  });

  it('says so when no item passes the filter', () => {
    render(
      <VirtualGrid
        items={[]}
        getKey={() => 0}
        renderItem={() => null}
        estimateRowHeight={100}
        empty={<p>Nothing matches.</p>}
      />,
    );
    expect(screen.getByText('Nothing matches.')).toBeTruthy();
  });
});

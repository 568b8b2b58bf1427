import { describe, expect, it } from 'vitest';
import { byUpdatedAt } from './sort-files';

const rows = [
  { id: 1, updatedAt: '2024-01-02T00:00:00.000Z' },
  { id: 2, updatedAt: '2024-01-01T00:00:00.000Z' },
  { id: 3, updatedAt: '2024-01-03T00:00:00.000Z' },
];

describe('byUpdatedAt', () => {
  it('orders ascending and, reversed, descending without touching the input', () => {
    expect([...rows].sort(byUpdatedAt).map((r) => r.id)).toEqual([2, 1, 3]);
    expect([...rows].sort((a, b) => byUpdatedAt(b, a)).map((r) => r.id)).toEqual([3, 1, 2]);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
  });
});

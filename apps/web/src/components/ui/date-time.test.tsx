import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DateTime, formatDateTime, formatDateTimeFull, noDateTime } from './date-time';

const iso = '2026-03-04T05:06:07.000Z';
const local = new Date(iso);
const twoDigits = (n: number) => String(n).padStart(2, '0');

describe('formatDateTime', () => {
  it('shows a dash when there is no moment', () => {
    expect(formatDateTime(null)).toBe(noDateTime);
  });

  it('shows the local date and time with the year and the minutes', () => {
    const text = formatDateTime(iso);
    expect(text).toContain('2026');
    expect(text).toContain(twoDigits(local.getMinutes()));
  });
});

describe('formatDateTimeFull', () => {
  it('shows a dash when there is no moment', () => {
    expect(formatDateTimeFull(null)).toBe(noDateTime);
  });

  it('shows the local date and time to the second', () => {
    const text = formatDateTimeFull(iso);
    expect(text).toContain('2026');
    expect(text).toContain(`${twoDigits(local.getMinutes())}:${twoDigits(local.getSeconds())}`);
    // Two moments in the same minute differ in full, not in the short form.
    const later = '2026-03-04T05:06:42.000Z';
    expect(formatDateTime(later)).toBe(formatDateTime(iso));
    expect(formatDateTimeFull(later)).not.toBe(formatDateTimeFull(iso));
  });
});

describe('DateTime', () => {
  it('keeps the exact moment in the time element and the full one in its tooltip', () => {
    const { container } = render(<DateTime value={iso} />);
    const time = container.querySelector('time');
    expect(time?.getAttribute('dateTime')).toBe(iso);
    expect(time?.textContent).toBe(formatDateTime(iso));
    expect(time?.getAttribute('title')).toBe(formatDateTimeFull(iso));
  });

  it('shows a dash and no time element when there is none', () => {
    const { container } = render(<DateTime value={null} />);
    expect(container.textContent).toBe(noDateTime);
    expect(container.querySelector('time')).toBeNull();
  });
});

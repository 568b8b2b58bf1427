import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DateTime, formatDateTime, noDateTime } from './date-time';

describe('formatDateTime', () => {
  it('shows a dash when there is no moment', () => {
    expect(formatDateTime(null)).toBe(noDateTime);
  });

  it('shows the local date and time with the year and the minutes', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    const text = formatDateTime(iso);
    expect(text).toContain('2026');
    const local = new Date(iso);
    expect(text).toContain(String(local.getMinutes()).padStart(2, '0'));
  });
});

describe('DateTime', () => {
  it('keeps the exact moment in the time element', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    const { container } = render(<DateTime value={iso} />);
    const time = container.querySelector('time');
    expect(time?.getAttribute('dateTime')).toBe(iso);
    expect(time?.textContent).toBe(formatDateTime(iso));
  });

  it('shows a dash and no time element when there is none', () => {
    const { container } = render(<DateTime value={null} />);
    expect(container.textContent).toBe(noDateTime);
    expect(container.querySelector('time')).toBeNull();
  });
});

const readable = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a list shows for a moment that has not happened (no finished version yet). */
export const noDateTime = '—';

/** A moment (ISO 8601) in the reader's local date and time, e.g. 'Nov 23, 2026, 9:30 PM'; '—' when there is none. */
export function formatDateTime(iso: string | null): string {
  return iso === null ? noDateTime : readable.format(new Date(iso));
}

/** A moment as a `<time>` element: readable local text, the exact ISO value in its `dateTime`. */
export function DateTime({ value }: { value: string | null }) {
  if (value === null) return <>{noDateTime}</>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

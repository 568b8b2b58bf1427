const readable = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });

/** What a list shows for a moment that has not happened (no finished version yet). */
export const noDateTime = '—';

/** A moment (ISO 8601) in the reader's local date and time, e.g. 'Nov 23, 2026, 9:30 PM'; '—' when there is none. */
export function formatDateTime(iso: string | null): string {
  return iso === null ? noDateTime : readable.format(new Date(iso));
}

/**
 * A moment in full, to the second and with the time zone, e.g. 'Monday, November 23, 2026 at 9:30:05 PM GMT+1':
 * the tooltip of every shown moment (two uploads in the same minute looked alike).
 */
export function formatDateTimeFull(iso: string | null): string {
  return iso === null ? noDateTime : full.format(new Date(iso));
}

/** A moment as a `<time>` element: readable local text, the full moment as its tooltip, the ISO value in `dateTime`. */
export function DateTime({ value }: { value: string | null }) {
  if (value === null) return <>{noDateTime}</>;
  return (
    <time dateTime={value} title={formatDateTimeFull(value)}>
      {formatDateTime(value)}
    </time>
  );
}

import {
  batchRowStatuses,
  usageNote,
  type BatchCandidate,
  type BatchChoice,
  type BatchMedia,
  type BatchRow,
  type BatchRowStatus,
  type FitMode,
} from '@reskin/contract';

/** The plan's groups, in the order the workbench lists them, with their headings. */
export const statusLabels: Record<BatchRowStatus, string> = {
  ambiguous: 'Ambiguous: choose the game file',
  needs_fit: 'Needs fitting',
  needs_conversion: 'Needs converting',
  matched: 'Matched',
  invalid: 'Cannot be used',
  unmatched: 'Unmatched',
  not_replaceable: 'Not replaceable',
};
/** What needs the artist first comes first: choices, then the rows that change the file, then the rest. */
export const statusOrder: readonly BatchRowStatus[] = [
  'ambiguous',
  'needs_fit',
  'needs_conversion',
  'matched',
  'invalid',
  'unmatched',
  'not_replaceable',
];

/** The artist's decision on one row of the plan. */
export interface RowDecision {
  /** Whether the row is applied (unticked rows are skipped). */
  include: boolean;
  /** An ambiguous row's chosen candidate (index into its candidates), or null while none is chosen. */
  choice: number | null;
  /** A row of another pixel size: its own fit, or null for the one chosen for all. */
  fit: FitMode | null;
  /** The fileIds of the row's twins the artist unticked (the others are replaced with the row, decision 0050). */
  skipTwins: readonly number[];
}

/**
 * The server's dry run of one row after the artist's choice (decision 0050): pending while it runs, then the row
 * as it would be applied (its figures, status and warnings), or why it could not be checked.
 */
export interface RowCheck {
  /** The choice it was asked for (a later choice's check replaces it). */
  choice: number;
  pending: boolean;
  row: BatchRow | null;
  error: string | null;
}

/** Rows that can be applied at all: the others only say why not. */
export const isReplaceable = (status: BatchRowStatus) =>
  status === 'matched' || status === 'needs_fit' || status === 'needs_conversion' || status === 'ambiguous';

export const defaultDecision = (row: BatchRow): RowDecision => ({
  include: isReplaceable(row.status),
  choice: null,
  fit: null,
  skipTwins: [],
});

/**
 * The row as the plan shows it now: the server's dry run of it after the artist's choice when there is one, else
 * the plan's row.
 */
export const currentRow = (row: BatchRow, check: RowCheck | undefined): BatchRow => check?.row ?? row;

/**
 * The row is sent when applying: replaceable, ticked, (when ambiguous) a candidate chosen, and not refused by the
 * dry run of that choice (`current`).
 */
export function willApply(row: BatchRow, decision: RowDecision, current: BatchRow = row): boolean {
  if (!isReplaceable(row.status) || !decision.include) return false;
  if (current !== row && !isReplaceable(current.status)) return false;
  return row.status !== 'ambiguous' || chosenCandidate(row, decision) !== null;
}

/** The game file (or sheet) a row replaces: its match, or the chosen candidate of an ambiguous row. */
export function targetOf(row: BatchRow, decision: RowDecision): number | null {
  if (row.status === 'ambiguous') return chosenCandidate(row, decision)?.fileId ?? null;
  return row.fileId;
}

/** Which row replaces each game file directly (whole files only): fileId -> incoming path. */
export function directTargets(
  rows: readonly BatchRow[],
  decisionOf: (row: BatchRow) => RowDecision,
  currentOf: (row: BatchRow) => BatchRow,
): Map<number, string> {
  const targets = new Map<number, string>();
  for (const row of rows) {
    const decision = decisionOf(row);
    const target = targetOf(row, decision);
    if (target === null || !willApply(row, decision, currentOf(row))) continue;
    if (currentOf(row).frame === null && !targets.has(target)) targets.set(target, row.incoming);
  }
  return targets;
}

/** A row's twins it may replace: not the direct target of another row of the plan (that row replaces it). */
export const twinsOf = (current: BatchRow, incoming: string, targets: ReadonlyMap<number, string>) =>
  current.twins.filter((twin) => (targets.get(twin.fileId) ?? incoming) === incoming);

/** The fileIds of a row's twins replaced with it: its twins less the ones the artist unticked. */
export const twinsToReplace = (
  current: BatchRow,
  incoming: string,
  decision: RowDecision,
  targets: ReadonlyMap<number, string>,
) =>
  twinsOf(current, incoming, targets)
    .map((twin) => twin.fileId)
    .filter((fileId) => !decision.skipTwins.includes(fileId));

/** What the play record says of one candidate among the row's others ("the game loads this one"), or null. */
export const candidateNote = (row: BatchRow, candidate: BatchCandidate) =>
  usageNote(
    candidate.usage,
    row.candidates.filter((other) => other !== candidate).map((other) => other.usage),
  );

export function chosenCandidate(row: BatchRow, decision: RowDecision): BatchCandidate | null {
  return decision.choice === null ? null : (row.candidates[decision.choice] ?? null);
}

/** A candidate as the select shows it: its path, and the frame's name for a frame of a sprite sheet. */
export const candidateLabel = (candidate: BatchCandidate) =>
  candidate.frame === null ? candidate.path : `${candidate.path} (frame ${candidate.frame})`;

export type PlanSort = 'incoming' | 'game';
export interface PlanView {
  /** Text the incoming path or the game file's path contains (case-insensitive). */
  text: string;
  status: BatchRowStatus | 'all';
  sort: PlanSort;
}

export type PlanItem =
  { type: 'group'; status: BatchRowStatus; count: number } | { type: 'row'; row: BatchRow };

const gamePathOf = (row: BatchRow) => row.path ?? row.candidates[0]?.path ?? '';

/**
 * The rows the list shows, filtered and sorted over the whole plan and grouped by status: each group's heading
 * (with its count after the filter) then its rows.
 */
export function planItems(rows: readonly BatchRow[], view: PlanView): PlanItem[] {
  const text = view.text.trim().toLowerCase();
  const shown = rows.filter(
    (row) =>
      (view.status === 'all' || row.status === view.status) &&
      (text === '' ||
        row.incoming.toLowerCase().includes(text) ||
        gamePathOf(row).toLowerCase().includes(text) ||
        (row.frame ?? '').toLowerCase().includes(text)),
  );
  const key = view.sort === 'game' ? gamePathOf : (row: BatchRow) => row.incoming;
  const items: PlanItem[] = [];
  for (const status of statusOrder) {
    const group = shown
      .filter((row) => row.status === status)
      .sort((a, b) => key(a).localeCompare(key(b)) || a.incoming.localeCompare(b.incoming));
    if (group.length === 0) continue;
    items.push({ type: 'group', status, count: group.length });
    for (const row of group) items.push({ type: 'row', row });
  }
  return items;
}

/** How many rows of each status the plan holds (for the status filter). */
export function statusCounts(rows: readonly BatchRow[]): Record<BatchRowStatus, number> {
  const counts = Object.fromEntries(batchRowStatuses.map((status) => [status, 0])) as Record<
    BatchRowStatus,
    number
  >;
  for (const row of rows) counts[row.status] += 1;
  return counts;
}

/**
 * The options of an apply request for `rows` (the ones sent), keyed by the path each is sent under: fits, choices,
 * and each sound row's twins to replace too (`twinsFor`, decision 0050).
 */
export function applyOptions(
  rows: readonly BatchRow[],
  decisions: ReadonlyMap<string, RowDecision>,
  keyOf: (row: BatchRow) => string,
  twinsFor: (row: BatchRow) => number[] = () => [],
): { fits: Record<string, FitMode>; choices: Record<string, BatchChoice>; twins: Record<string, number[]> } {
  const fits: Record<string, FitMode> = {};
  const choices: Record<string, BatchChoice> = {};
  const twins: Record<string, number[]> = {};
  for (const row of rows) {
    const decision = decisions.get(row.incoming) ?? defaultDecision(row);
    if (decision.fit !== null) fits[keyOf(row)] = decision.fit;
    const candidate = row.status === 'ambiguous' ? chosenCandidate(row, decision) : null;
    if (candidate) choices[keyOf(row)] = { fileId: candidate.fileId, frame: candidate.frame };
    const replaced = twinsFor(row);
    if (replaced.length > 0) twins[keyOf(row)] = replaced;
  }
  return { fits, choices, twins };
}

/** Splits the files to send into requests of at most `maxFiles` files and about `maxBytes` (one big file alone). */
export function chunkBySize<T extends { file: { size: number } }>(
  items: readonly T[],
  maxFiles: number,
  maxBytes: number,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= maxFiles || bytes + item.file.size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.file.size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** A pixel size, '—' when unknown. */
export const pixelSize = (media: BatchMedia | null) =>
  media?.width != null && media.height != null ? `${media.width} × ${media.height}` : '—';

/** A duration in seconds with two decimals, '—' when unknown. */
export const duration = (media: BatchMedia | null) =>
  media?.durationSeconds != null ? `${media.durationSeconds.toFixed(2)} s` : '—';

/** Integrated loudness, '—' when not measured. */
export const loudness = (media: BatchMedia | null) =>
  media?.lufs != null ? `${media.lufs.toFixed(1)} LUFS` : '—';

/** The format and, for a sound, the sample rate and channels: 'ogg, 44100 Hz, 2 ch'. */
export function formatOf(media: BatchMedia | null): string {
  if (!media?.format) return '—';
  const parts = [media.format];
  if (media.sampleRate != null) parts.push(`${media.sampleRate} Hz`);
  if (media.channels != null) parts.push(`${media.channels} ch`);
  return parts.join(', ');
}

/**
 * The batch's end as one sentence: 'Replaced 29 of 29 files.' plus the other formats of sounds replaced with them,
 * and the failed and skipped ones.
 */
export function summaryText(
  summary: { replaced: number; failed: number; skipped: number; twinsReplaced?: number },
  sent: number,
): string {
  const parts = [`Replaced ${summary.replaced} of ${sent} files.`];
  const twins = summary.twinsReplaced ?? 0;
  if (twins > 0)
    parts.push(`${twins} other ${twins === 1 ? 'format' : 'formats'} of their sounds replaced too.`);
  if (summary.failed > 0) parts.push(`${summary.failed} failed.`);
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped.`);
  return parts.join(' ');
}

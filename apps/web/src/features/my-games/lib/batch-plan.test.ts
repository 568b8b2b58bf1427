import { batchMessages, type BatchRow, type BatchTwin } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import {
  applyOptions,
  candidateNote,
  chunkBySize,
  currentRow,
  defaultDecision,
  directTargets,
  planItems,
  statusCounts,
  summaryText,
  twinsToReplace,
  willApply,
} from './batch-plan';

const row = (incoming: string, status: BatchRow['status'], extra: Partial<BatchRow> = {}): BatchRow => ({
  incoming,
  relative: incoming.replace(/^export\//, ''),
  status,
  matchedBy: null,
  fileId: status === 'unmatched' ? null : 1,
  path: status === 'unmatched' ? null : `game/${incoming}`,
  frame: null,
  candidates: [],
  kind: 'image',
  incomingMedia: null,
  originalMedia: null,
  fit: null,
  warnings: [],
  outcome: null,
  error: null,
  errorCode: null,
  usage: null,
  twins: [],
  ...extra,
});

const ambiguous = row('export/icon.png', 'ambiguous', {
  fileId: null,
  path: null,
  candidates: [
    { fileId: 7, path: 'a/icon.png', frame: null, usage: null },
    { fileId: 8, path: 'sheet.png', frame: 'icon', usage: null },
  ],
});
const rows = [
  row('export/b.png', 'matched'),
  row('export/a.png', 'matched'),
  row('export/big.png', 'needs_fit'),
  ambiguous,
  row('export/notes.txt', 'unmatched'),
];

describe('the batch plan list', () => {
  it('groups by status (choices first), sorts inside each group and filters over the whole plan', () => {
    const items = planItems(rows, { text: '', status: 'all', sort: 'incoming' });
    expect(
      items.map((item) => (item.type === 'group' ? `# ${item.status} ${item.count}` : item.row.incoming)),
    ).toEqual([
      '# ambiguous 1',
      'export/icon.png',
      '# needs_fit 1',
      'export/big.png',
      '# matched 2',
      'export/a.png',
      'export/b.png',
      '# unmatched 1',
      'export/notes.txt',
    ]);
    const filtered = planItems(rows, { text: 'B', status: 'matched', sort: 'game' });
    expect(filtered.map((item) => (item.type === 'group' ? item.count : item.row.incoming))).toEqual([
      1,
      'export/b.png',
    ]);
    expect(statusCounts(rows)).toMatchObject({
      matched: 2,
      needs_fit: 1,
      ambiguous: 1,
      unmatched: 1,
      invalid: 0,
    });
  });

  it('applies ticked replaceable rows, an ambiguous one only once a candidate is chosen', () => {
    expect(willApply(rows[0]!, defaultDecision(rows[0]!))).toBe(true);
    expect(willApply(rows[0]!, { ...defaultDecision(rows[0]!), include: false })).toBe(false);
    expect(willApply(rows[4]!, defaultDecision(rows[4]!))).toBe(false);
    expect(willApply(ambiguous, defaultDecision(ambiguous))).toBe(false);
    expect(willApply(ambiguous, { include: true, choice: 1, fit: null, skipTwins: [] })).toBe(true);
    // The server's dry run of the choice refused it: not applied.
    const refused = { ...ambiguous, status: 'invalid' as const, errorCode: 'wrong_kind' };
    expect(willApply(ambiguous, { include: true, choice: 1, fit: null, skipTwins: [] }, refused)).toBe(false);
  });

  it("sends each row's own fit and an ambiguous row's choice, keyed by the path the row is sent under", () => {
    const decisions = new Map([
      ['export/big.png', { include: true, choice: null, fit: 'stretch' as const, skipTwins: [] }],
      ['export/icon.png', { include: true, choice: 1, fit: null, skipTwins: [] }],
    ]);
    expect(applyOptions(rows, decisions, (r) => r.relative)).toEqual({
      fits: { 'big.png': 'stretch' },
      choices: { 'icon.png': { fileId: 8, frame: 'icon' } },
      twins: {},
    });
  });

  it("a sound's twins: the candidate the game loads is named, a twin goes with its row unless unticked or another row's own", () => {
    const loaded = { loads: 3, atStart: true };
    const never = { loads: 0, atStart: false };
    const tune = row('export/music.wav', 'ambiguous', {
      kind: 'audio',
      fileId: null,
      path: null,
      candidates: [
        { fileId: 21, path: 'sfx/music.ogg', frame: null, usage: loaded },
        { fileId: 22, path: 'sfx/music.mp3', frame: null, usage: never },
      ],
    });
    expect(tune.candidates.map((candidate) => candidateNote(tune, candidate))).toEqual([
      batchMessages.gameLoads,
      batchMessages.notLoaded,
    ]);
    const twin = (fileId: number, path: string): BatchTwin => ({
      fileId,
      path,
      usage: never,
      replace: true,
      status: 'needs_conversion',
      originalMedia: null,
      warnings: [],
      outcome: null,
      error: null,
      errorCode: null,
    });
    const checked = {
      ...tune,
      status: 'needs_conversion' as const,
      fileId: 21,
      path: 'sfx/music.ogg',
      twins: [twin(22, 'sfx/music.mp3')],
    };
    const decision = { ...defaultDecision(tune), choice: 0 };
    const check = { choice: 0, pending: false, row: checked, error: null };
    expect(currentRow(tune, check)).toBe(checked);
    expect(currentRow(tune, undefined)).toBe(tune);
    const alone = directTargets(
      [tune],
      () => decision,
      () => checked,
    );
    expect(twinsToReplace(checked, tune.incoming, decision, alone)).toEqual([22]);
    expect(twinsToReplace(checked, tune.incoming, { ...decision, skipTwins: [22] }, alone)).toEqual([]);
    // Another row of the plan replaces music.mp3 with its own file: the twin is that row's.
    const own = row('export/sfx/music.mp3', 'matched', { kind: 'audio', fileId: 22, path: 'sfx/music.mp3' });
    const both = directTargets(
      [tune, own],
      (r) => (r === tune ? decision : defaultDecision(r)),
      (r) => (r === tune ? checked : r),
    );
    expect(twinsToReplace(checked, tune.incoming, decision, both)).toEqual([]);
    const options = applyOptions(
      [tune],
      new Map([[tune.incoming, decision]]),
      (r) => r.relative,
      () => [22],
    );
    expect(options).toMatchObject({
      choices: { 'music.wav': { fileId: 21, frame: null } },
      twins: { 'music.wav': [22] },
    });
  });

  it('splits the files into requests by count and size, a big file alone', () => {
    const items = [5, 5, 5, 20, 1].map((size) => ({ file: { size } }));
    expect(chunkBySize(items, 2, 12).map((chunk) => chunk.map((item) => item.file.size))).toEqual([
      [5, 5],
      [5],
      [20],
      [1],
    ]);
  });

  it('sums the outcome up in one sentence', () => {
    expect(summaryText({ replaced: 29, failed: 0, skipped: 0 }, 29)).toBe('Replaced 29 of 29 files.');
    expect(summaryText({ replaced: 27, failed: 1, skipped: 1 }, 29)).toBe(
      'Replaced 27 of 29 files. 1 failed. 1 skipped.',
    );
    expect(summaryText({ replaced: 1, failed: 0, skipped: 0, twinsReplaced: 1 }, 1)).toBe(
      'Replaced 1 of 1 files. 1 other format of their sounds replaced too.',
    );
  });
});

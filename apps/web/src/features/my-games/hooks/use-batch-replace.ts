import { messages, type BatchRow, type FitMode, type LoudnessMode } from '@reskin/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { sendBatch } from '../../../api/batch';
import { versionKeys } from '../../../api/versions';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import type { BatchItem, BatchSourceInput } from '../components/batch-source';
import {
  applyOptions,
  chosenCandidate,
  chunkBySize,
  currentRow,
  defaultDecision,
  directTargets,
  summaryText,
  twinsToReplace,
  willApply,
  type RowCheck,
  type RowDecision,
} from '../lib/batch-plan';

/** One apply request holds at most this many files and about this many bytes, so the progress moves row by row. */
const chunkFiles = 100;
const chunkBytes = 16 * 1024 * 1024;

export type BatchPhase =
  | { phase: 'idle' }
  | { phase: 'planning'; fraction: number }
  | { phase: 'plan' }
  | { phase: 'applying'; fraction: number }
  | { phase: 'done'; summary: string; ok: boolean };

export interface BatchState {
  status: BatchPhase;
  source: BatchSourceInput | null;
  /** The server's plan (dryRun): one row per incoming file. */
  rows: BatchRow[];
  /** The artist's decisions, by incoming path. */
  decisions: ReadonlyMap<string, RowDecision>;
  /** The server's dry run of each row after its choice, by incoming path (decision 0050). */
  checks: ReadonlyMap<string, RowCheck>;
  /** The fit of every row of another pixel size that has none of its own. */
  fitAll: FitMode;
  loudness: LoudnessMode;
  /** After applying: each sent row's outcome, by incoming path. */
  results: ReadonlyMap<string, BatchRow>;
  /** Why the plan could not be made. */
  error: string | null;
}

const initial: BatchState = {
  status: { phase: 'idle' },
  source: null,
  rows: [],
  decisions: new Map(),
  checks: new Map(),
  fitAll: 'cover',
  loudness: 'keep',
  results: new Map(),
  error: null,
};

/**
 * One incoming file of the plan, to send again for its row's dry run: a folder's file, or a .zip's entry read out
 * of it here (the zip reader of the game upload, loaded only then).
 */
async function incomingFile(source: BatchSourceInput, incoming: string): Promise<File | null> {
  if (source.kind === 'files') return source.items.find((item) => item.path === incoming)?.file ?? null;
  const { readZipEntries, inflateEntry } = await import('../../../lib/zip-game');
  const entry = (await readZipEntries(source.file)).entries.find(
    (found) => found.name.replace(/^\/+/, '') === incoming,
  );
  return entry ? new File([await inflateEntry(entry)], incoming.slice(incoming.lastIndexOf('/') + 1)) : null;
}

/** What a request-wide failure makes of each row it carried: failed, with the request's reason. */
const failedRow = (row: BatchRow, message: string): BatchRow => ({
  ...row,
  outcome: 'failed',
  error: message,
  errorCode: null,
});

/**
 * Replace from a folder or a zip: the plan first (dryRun: nothing stored), the artist's decisions,
 * then applying the chosen rows in one request (a .zip) or in requests of up to `chunkFiles` files, with one
 * progress over all of them. A failed request fails its own rows only; the rest go on. The version's files
 * refresh after.
 */
export function useBatchReplace(versionId: number) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<BatchState>(initial);
  // The row checks run after a choice and read the plan as it is then (its source, fit and loudness).
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  }, [state]);

  const reset = useCallback(() => setState(initial), []);

  const plan = useCallback(
    async (source: BatchSourceInput) => {
      setState({ ...initial, source, status: { phase: 'planning', fraction: 0 } });
      const files = source.kind === 'zip' ? [{ path: source.file.name, file: source.file }] : source.items;
      // The plan is asked with the screen's defaults (cover for every image of another size, every twin of a
      // sound replaced too), so a row that is fine with them is planned as it will be applied.
      const outcome = await sendBatch(
        versionId,
        files,
        { dryRun: true, fit: initial.fitAll, alsoTwins: true },
        (loaded, total) =>
          setState((current) => ({ ...current, status: { phase: 'planning', fraction: loaded / total } })),
      );
      if (!outcome.ok) {
        if (!outcome.sessionEnded) notifyError(outcome.title, outcome.message);
        setState({ ...initial, error: outcome.message });
        return;
      }
      const rows = outcome.answer.rows;
      setState((current) => ({
        ...current,
        status: { phase: 'plan' },
        rows,
        decisions: new Map(rows.map((row) => [row.incoming, defaultDecision(row)])),
      }));
    },
    [versionId],
  );

  /**
   * The server's dry run of one row with its chosen candidate (decision 0050): the row's file alone, sent again
   * under the path it was matched by, with the choice, the fit and the loudness. A later choice's answer wins.
   */
  const check = useCallback(
    async (row: BatchRow, decision: RowDecision) => {
      const candidate = chosenCandidate(row, decision);
      const choice = decision.choice;
      const { source, fitAll, loudness } = latest.current;
      if (!candidate || choice === null || !source) return;
      const settle = (result: Pick<RowCheck, 'row' | 'error'>) =>
        setState((current) => {
          if (current.checks.get(row.incoming)?.choice !== choice) return current;
          const checks = new Map(current.checks);
          checks.set(row.incoming, { choice, pending: false, ...result });
          return { ...current, checks };
        });
      let file: File | null;
      try {
        file = await incomingFile(source, row.incoming);
      } catch (error) {
        settle({ row: null, error: (error as Error).message });
        return;
      }
      if (!file) {
        settle({ row: null, error: 'The file is no longer there to check.' });
        return;
      }
      const key = row.relative;
      const outcome = await sendBatch(versionId, [{ path: key, file }], {
        dryRun: true,
        fit: fitAll,
        ...(decision.fit !== null && { fits: { [key]: decision.fit } }),
        loudness,
        alsoTwins: true,
        choices: { [key]: { fileId: candidate.fileId, frame: candidate.frame } },
      });
      const checked = outcome.ok ? outcome.answer.rows[0] : undefined;
      if (!outcome.ok) settle({ row: null, error: outcome.message });
      else if (!checked) settle({ row: null, error: 'The server did not answer for this file.' });
      else settle({ row: { ...checked, incoming: row.incoming, relative: row.relative }, error: null });
    },
    [versionId],
  );

  const decide = useCallback(
    (incoming: string, change: Partial<RowDecision>) => {
      const row = latest.current.rows.find((item) => item.incoming === incoming);
      if (!row) return;
      const decision = { ...(latest.current.decisions.get(incoming) ?? defaultDecision(row)), ...change };
      // A new choice of an ambiguous row is checked by the server; no choice shows the plan's row again.
      const rechecks = row.status === 'ambiguous' && change.choice !== undefined;
      setState((current) => {
        const decisions = new Map(current.decisions);
        decisions.set(incoming, { ...(current.decisions.get(incoming) ?? defaultDecision(row)), ...change });
        if (!rechecks) return { ...current, decisions };
        const checks = new Map(current.checks);
        if (decision.choice === null) checks.delete(incoming);
        else checks.set(incoming, { choice: decision.choice, pending: true, row: null, error: null });
        return { ...current, decisions, checks };
      });
      if (rechecks && decision.choice !== null) void check(row, decision);
    },
    [check],
  );

  const setFitAll = useCallback((fitAll: FitMode) => setState((current) => ({ ...current, fitAll })), []);
  const setLoudness = useCallback(
    (loudness: LoudnessMode) => setState((current) => ({ ...current, loudness })),
    [],
  );

  const apply = useCallback(async () => {
    const { source, rows, decisions, checks, fitAll, loudness } = state;
    if (!source) return;
    const decisionOf = (row: BatchRow) => decisions.get(row.incoming) ?? defaultDecision(row);
    const currentOf = (row: BatchRow) => currentRow(row, checks.get(row.incoming));
    const chosen = rows.filter((row) => willApply(row, decisionOf(row), currentOf(row)));
    // A twin another row replaces directly is that row's; the others go with their row unless unticked.
    const targets = directTargets(rows, decisionOf, currentOf);
    const twinsFor = (row: BatchRow) =>
      twinsToReplace(currentOf(row), row.incoming, decisionOf(row), targets);
    if (chosen.length === 0) return;
    setState((current) => ({ ...current, status: { phase: 'applying', fraction: 0 } }));

    // A .zip goes up again whole, its other rows skipped; a folder's chosen files go up under the paths the plan
    // matched them by (its shared top folder already stripped, so a part of the folder matches alike).
    const requests: {
      files: BatchItem[];
      rows: BatchRow[];
      keyOf: (row: BatchRow) => string;
      skip: string[];
    }[] = [];
    if (source.kind === 'zip') {
      const sent = new Set(chosen.map((row) => row.incoming));
      requests.push({
        files: [{ path: source.file.name, file: source.file }],
        rows: chosen,
        keyOf: (row) => row.incoming,
        skip: rows.filter((row) => !sent.has(row.incoming)).map((row) => row.incoming),
      });
    } else {
      const fileOf = new Map(source.items.map((item) => [item.path, item.file]));
      const items = chosen.flatMap((row) => {
        const file = fileOf.get(row.incoming);
        return file ? [{ row, file, path: row.relative }] : [];
      });
      for (const chunk of chunkBySize(items, chunkFiles, chunkBytes)) {
        requests.push({
          files: chunk.map(({ path, file }) => ({ path, file })),
          rows: chunk.map(({ row }) => row),
          keyOf: (row) => row.relative,
          skip: [],
        });
      }
    }

    const totalBytes =
      requests.reduce((sum, request) => sum + request.files.reduce((s, item) => s + item.file.size, 0), 0) ||
      1;
    let doneBytes = 0;
    const results = new Map<string, BatchRow>();
    for (const request of requests) {
      const bytes = request.files.reduce((sum, item) => sum + item.file.size, 0);
      const outcome = await sendBatch(
        versionId,
        request.files,
        {
          dryRun: false,
          fit: fitAll,
          loudness,
          skip: request.skip,
          ...applyOptions(request.rows, decisions, request.keyOf, twinsFor),
        },
        (loaded, total) => {
          const fraction = (doneBytes + (total > 0 ? (loaded / total) * bytes : 0)) / totalBytes;
          setState((current) => ({ ...current, status: { phase: 'applying', fraction } }));
        },
      );
      doneBytes += bytes;
      if (!outcome.ok && outcome.sessionEnded) return;
      const answered = new Map(outcome.ok ? outcome.answer.rows.map((row) => [row.incoming, row]) : []);
      for (const row of request.rows) {
        const result = answered.get(request.keyOf(row));
        results.set(
          row.incoming,
          result
            ? { ...result, incoming: row.incoming }
            : failedRow(row, outcome.ok ? 'The server did not answer for this file.' : outcome.message),
        );
      }
      setState((current) => ({ ...current, results: new Map(results) }));
    }

    await Promise.all([
      queryClient.invalidateQueries({ queryKey: versionKeys.files(versionId) }),
      queryClient.invalidateQueries({ queryKey: versionKeys.lists() }),
    ]);
    const outcomes = [...results.values()];
    const count = (outcome: BatchRow['outcome']) => outcomes.filter((row) => row.outcome === outcome).length;
    const twins = outcomes.flatMap((row) => row.twins.map((twin) => ({ row, twin })));
    const twinsReplaced = twins.filter(({ twin }) => twin.outcome === 'replaced').length;
    const failedTwin = twins.find(({ twin }) => twin.outcome === 'failed');
    const summary = summaryText(
      { replaced: count('replaced'), failed: count('failed'), skipped: count('skipped'), twinsReplaced },
      chosen.length,
    );
    const firstError = outcomes.find((row) => row.outcome === 'failed');
    if (firstError) {
      notifyError(
        failureTitle({ action: 'upload' }),
        summary,
        `${firstError.incoming}: ${firstError.error ?? messages.uploadFailed}`,
      );
    } else if (failedTwin) {
      notifyError(
        failureTitle({ action: 'upload' }),
        summary,
        `${failedTwin.twin.path}: ${failedTwin.twin.error ?? messages.uploadFailed}`,
      );
    } else {
      notifySuccess(summary);
    }
    setState((current) => ({
      ...current,
      results,
      status: { phase: 'done', summary, ok: !firstError && !failedTwin },
    }));
  }, [queryClient, state, versionId]);

  return { state, plan, decide, setFitAll, setLoudness, apply, reset };
}

import {
  batchRowStatuses,
  fitModeLabels,
  fitModes,
  type BatchRow,
  type FitMode,
  type GamePath,
} from '@reskin/contract';
import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useConfirm } from '../../../components/ui/use-confirm';
import { VirtualGrid } from '../../../components/ui/virtual-grid';
import { fileUrl } from '../../../lib/play-file-url';
import { useBatchReplace } from '../hooks/use-batch-replace';
import {
  currentRow,
  defaultDecision,
  directTargets,
  isReplaceable,
  planItems,
  statusCounts,
  statusLabels,
  twinsOf,
  willApply,
  type PlanView,
  type RowDecision,
} from '../lib/batch-plan';
import { BatchSource } from './batch-source';
import { PlanRow } from './batch-plan-row';

interface BatchReplaceProps {
  versionId: number;
  playPaths: GamePath;
}

/**
 * Replace from a folder or a zip (decision 0030 "The workbench"): drop or choose a folder or a .zip,
 * read the server's plan (nothing is stored yet) in a filterable, sortable list grouped by status that renders
 * only the rows in view, resolve the ambiguous rows, choose how images of another size are fitted (for all, or
 * per row, with the server's fitted preview beside the original) and whether converted sounds match the
 * original's loudness, then apply after a confirmation: progress, each row's outcome and a summary.
 */
export function BatchReplace({ versionId, playPaths }: BatchReplaceProps) {
  const { state, plan, decide, setFitAll, setLoudness, apply, reset } = useBatchReplace(versionId);
  const [view, setView] = useState<PlanView>({ text: '', status: 'all', sort: 'incoming' });
  const { confirm, dialog } = useConfirm();
  const { status, rows, decisions, checks, results } = state;
  // The plan as it is now: each row after the server's dry run of the artist's choice, when there is one.
  const currentRows = useMemo(
    () => rows.map((row) => currentRow(row, checks.get(row.incoming))),
    [rows, checks],
  );
  const planOf = useMemo(() => new Map(rows.map((row) => [row.incoming, row])), [rows]);
  const counts = useMemo(() => statusCounts(currentRows), [currentRows]);
  const items = useMemo(() => planItems(currentRows, view), [currentRows, view]);
  const decisionOf = (row: BatchRow): RowDecision => decisions.get(row.incoming) ?? defaultDecision(row);
  const currentOf = (row: BatchRow) => currentRow(row, checks.get(row.incoming));
  const targets = directTargets(rows, decisionOf, currentOf);
  const applying = status.phase === 'applying';
  const done = status.phase === 'done';
  const toApply = rows.filter((row) => willApply(row, decisionOf(row), currentOf(row))).length;
  const waiting = rows.filter(
    (row) => row.status === 'ambiguous' && decisionOf(row).include && decisionOf(row).choice === null,
  ).length;
  const checking = [...checks.values()].some((check) => check.pending);
  const hasSounds = rows.some((row) => row.kind === 'audio' && isReplaceable(row.status));
  const fileOf = useMemo(
    () =>
      new Map(state.source?.kind === 'files' ? state.source.items.map((item) => [item.path, item.file]) : []),
    [state.source],
  );

  const percent =
    status.phase === 'planning' || status.phase === 'applying' ? Math.round(status.fraction * 100) : 0;

  return (
    <Card className="mb-3" data-testid="batch-replace">
      <Card.Header as="h2" className="fs-6">
        Replace from a folder or .zip
      </Card.Header>
      <Card.Body>
        {status.phase === 'idle' && (
          <>
            {state.error && (
              <Alert variant="danger" className="py-2">
                The plan could not be made: {state.error}
              </Alert>
            )}
            <BatchSource disabled={false} onInput={(input) => void plan(input)} />
          </>
        )}
        {status.phase === 'planning' && (
          <BatchProgress
            percent={percent}
            sending="Sending your files"
            working="The server is checking your files…"
          />
        )}
        {(status.phase === 'plan' || applying || done) && (
          <>
            <p className="mb-2" aria-live="polite" data-testid="batch-summary">
              {rows.length} files:{' '}
              {batchRowStatuses
                .filter((s) => counts[s] > 0)
                .map((s) => `${counts[s]} ${statusLabels[s].split(':')[0]?.toLowerCase()}`)
                .join(', ')}
              .{!done && ' Nothing is changed until you apply.'}
            </p>
            <div
              className="d-flex flex-wrap align-items-center gap-2 mb-2"
              role="toolbar"
              aria-label="Plan view"
            >
              <Form.Control
                type="search"
                size="sm"
                placeholder="Filter by path"
                aria-label="Filter the plan by path"
                value={view.text}
                onChange={(event) => setView({ ...view, text: event.target.value })}
                style={{ maxWidth: 240 }}
              />
              <Form.Select
                size="sm"
                aria-label="Show status"
                value={view.status}
                onChange={(event) => setView({ ...view, status: event.target.value as PlanView['status'] })}
                style={{ maxWidth: 260 }}
              >
                <option value="all">All statuses ({rows.length})</option>
                {batchRowStatuses
                  .filter((s) => counts[s] > 0)
                  .map((s) => (
                    <option key={s} value={s}>
                      {statusLabels[s]} ({counts[s]})
                    </option>
                  ))}
              </Form.Select>
              <Form.Select
                size="sm"
                aria-label="Sort by"
                value={view.sort}
                onChange={(event) =>
                  setView({ ...view, sort: event.target.value === 'game' ? 'game' : 'incoming' })
                }
                style={{ maxWidth: 200 }}
              >
                <option value="incoming">Sort by your path</option>
                <option value="game">Sort by game path</option>
              </Form.Select>
              {counts.needs_fit > 0 && (
                <Form.Select
                  size="sm"
                  aria-label="Fit for all"
                  value={state.fitAll}
                  disabled={applying || done}
                  onChange={(event) => setFitAll(event.target.value as FitMode)}
                  style={{ maxWidth: 280 }}
                >
                  {fitModes.map((mode) => (
                    <option key={mode} value={mode}>
                      Scale to fit, all: {fitModeLabels[mode]}
                    </option>
                  ))}
                </Form.Select>
              )}
              {hasSounds && (
                <Form.Check
                  id="batch-match-loudness"
                  type="checkbox"
                  label="Match the original's loudness"
                  checked={state.loudness === 'match'}
                  disabled={applying || done}
                  onChange={(event) => setLoudness(event.target.checked ? 'match' : 'keep')}
                />
              )}
            </div>
            {/* The app's one long list (decision 0041): only the plan's rows in view are rendered. */}
            <VirtualGrid
              className="border rounded"
              role="list"
              aria-label="Plan"
              maxHeight={520}
              overscan={6}
              items={items}
              getKey={(item) => (item.type === 'group' ? `group-${item.status}` : item.row.incoming)}
              estimateRowHeight={([item]) => (item?.type === 'group' ? 40 : 96)}
              empty={<p className="m-2 small">No file of the plan matches the filter.</p>}
              renderItem={(item) =>
                item.type === 'group' ? (
                  <h3 className="fs-6 mb-0 px-2 py-2 bg-body-tertiary border-bottom">
                    {statusLabels[item.status]} ({item.count})
                  </h3>
                ) : (
                  <PlanRow
                    plan={planOf.get(item.row.incoming) ?? item.row}
                    row={item.row}
                    check={checks.get(item.row.incoming)}
                    twins={twinsOf(item.row, item.row.incoming, targets)}
                    result={results.get(item.row.incoming)}
                    decision={decisionOf(planOf.get(item.row.incoming) ?? item.row)}
                    fitAll={state.fitAll}
                    locked={applying || done}
                    versionId={versionId}
                    file={fileOf.get(item.row.incoming)}
                    originalUrl={
                      item.row.kind === 'image' && item.row.path && item.row.frame === null
                        ? fileUrl(playPaths, playPaths.wtmFile, item.row.path)
                        : undefined
                    }
                    onDecide={(change) => decide(item.row.incoming, change)}
                  />
                )
              }
            />
            {applying && (
              <div className="mt-2">
                <BatchProgress
                  percent={percent}
                  sending="Applying"
                  working="The server is fitting and converting your files…"
                />
              </div>
            )}
            {done && (
              <Alert variant={status.ok ? 'success' : 'warning'} className="mt-2 mb-0 py-2" role="status">
                {status.summary}
              </Alert>
            )}
            <div className="d-flex flex-wrap align-items-center gap-2 mt-2">
              {!done && (
                <Button
                  variant="primary"
                  disabled={applying || checking || toApply === 0}
                  onClick={async () => {
                    const question = `Replace ${toApply} game ${toApply === 1 ? 'file' : 'files'} of this version with your files?`;
                    if (await confirm(question, { confirmVariant: 'primary' })) void apply();
                  }}
                >
                  Apply {toApply} {toApply === 1 ? 'file' : 'files'}
                </Button>
              )}
              <Button variant="outline-secondary" disabled={applying} onClick={reset}>
                {done ? 'Replace more files' : 'Cancel'}
              </Button>
              {checking && !done && (
                <span className="small text-body-secondary">Checking your choice with the server…</span>
              )}
              {waiting > 0 && !done && (
                <span className="small text-body-secondary">
                  {waiting} ambiguous {waiting === 1 ? 'file waits' : 'files wait'} for a choice (or untick to
                  skip).
                </span>
              )}
            </div>
          </>
        )}
      </Card.Body>
      {dialog}
    </Card>
  );
}

/**
 * The upload's progress by bytes; once every byte is sent the server still reads, fits or converts (sounds take
 * a while), which the bar says instead of sitting at 100 %.
 */
function BatchProgress({ percent, sending, working }: { percent: number; sending: string; working: string }) {
  if (percent < 100)
    return <ProgressBar now={percent} label={`${percent}%`} aria-label={`${sending}: ${percent}%`} />;
  return <ProgressBar now={100} animated striped label={working} aria-label={working} />;
}

import {
  batchMessages,
  batchRowStatuses,
  fitModeLabels,
  fitModes,
  usageNote,
  type BatchRow,
  type BatchRowStatus,
  type FitMode,
  type GamePath,
} from '@reskin/contract';
import { useEffect, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { fetchFitPreview } from '../../../api/batch';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { VirtualGrid } from '../../../components/ui/virtual-grid';
import { fileUrl } from '../../../lib/play-file-url';
import { useBatchReplace } from '../hooks/use-batch-replace';
import {
  candidateLabel,
  candidateNote,
  currentRow,
  defaultDecision,
  directTargets,
  duration,
  formatOf,
  isReplaceable,
  loudness,
  pixelSize,
  planItems,
  statusCounts,
  statusLabels,
  twinsOf,
  willApply,
  type PlanView,
  type RowCheck,
  type RowDecision,
} from '../lib/batch-plan';
import { BatchSource } from './batch-source';

const statusTones: Record<BatchRowStatus, string> = {
  matched: 'success',
  needs_fit: 'info',
  needs_conversion: 'info',
  ambiguous: 'warning',
  unmatched: 'secondary',
  not_replaceable: 'secondary',
  invalid: 'danger',
};
const outcomeTones = { replaced: 'success', skipped: 'secondary', failed: 'danger' } as const;

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
  const [confirming, setConfirming] = useState(false);
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
                  onClick={() => setConfirming(true)}
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
      <ConfirmDialog
        show={confirming}
        question={`Replace ${toApply} game ${toApply === 1 ? 'file' : 'files'} of this version with your files?`}
        confirmVariant="primary"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void apply();
        }}
      />
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

interface PlanRowProps {
  /** The row as the plan first answered it (an ambiguous row's candidates). */
  plan: BatchRow;
  /** The row as it is now: the server's dry run after the artist's choice, else the plan's row. */
  row: BatchRow;
  check: RowCheck | undefined;
  /** The row's twins it may replace (not another row's own target). */
  twins: BatchRow['twins'];
  /** The row's outcome once applied. */
  result: BatchRow | undefined;
  decision: RowDecision;
  fitAll: FitMode;
  locked: boolean;
  versionId: number;
  /** The incoming file (a folder's; a .zip's files stay inside it), for the fitted preview. */
  file: File | undefined;
  /** The original image as the workbench shows originals, for the preview beside it. */
  originalUrl: string | undefined;
  onDecide: (change: Partial<RowDecision>) => void;
}

function PlanRow({
  plan,
  row,
  check,
  twins,
  result,
  decision,
  fitAll,
  locked,
  versionId,
  file,
  originalUrl,
  onDecide,
}: PlanRowProps) {
  const replaceable = isReplaceable(plan.status) && (row === plan || isReplaceable(row.status));
  const fit = decision.fit ?? fitAll;
  const [previewing, setPreviewing] = useState(false);
  const error = result?.error ?? check?.error ?? row.error;
  // Only a refusal is an error; an ambiguous row's "choose one" or an unmatched row's reason only inform.
  const refused = result?.outcome === 'failed' || row.status === 'invalid' || (check?.error ?? null) !== null;
  const warnings = result?.warnings ?? row.warnings;
  const twinResults = new Map((result?.twins ?? []).map((twin) => [twin.fileId, twin]));
  const targetNote =
    row.kind === 'audio'
      ? usageNote(
          row.usage,
          twins.map((twin) => twin.usage),
        )
      : null;
  return (
    <div
      role="listitem"
      aria-label={row.incoming}
      data-status={row.status}
      className="d-flex flex-wrap gap-3 px-2 py-2 border-bottom small"
    >
      <Form.Check
        type="checkbox"
        aria-label={`Apply ${row.incoming}`}
        checked={replaceable && decision.include}
        disabled={!replaceable || locked}
        onChange={(event) => onDecide({ include: event.target.checked })}
      />
      <div style={{ flex: '1 1 220px', minWidth: 0 }}>
        <div className="font-monospace text-break">{row.incoming}</div>
        <div className="text-body-secondary">
          Yours:{' '}
          {row.kind === 'audio'
            ? formatOf(row.incomingMedia)
            : `${row.incomingMedia?.format ?? '—'}, ${pixelSize(row.incomingMedia)}`}
        </div>
      </div>
      <div style={{ flex: '1 1 260px', minWidth: 0 }}>
        <div className="d-flex flex-wrap gap-1 mb-1">
          <Badge bg={statusTones[row.status]}>{statusLabels[row.status].split(':')[0]}</Badge>
          {row.matchedBy && (
            <Badge bg="light" text="dark">
              by {row.matchedBy}
            </Badge>
          )}
          {result?.outcome && (
            <Badge bg={outcomeTones[result.outcome]} data-testid="row-outcome">
              {result.outcome === 'replaced'
                ? 'Replaced'
                : result.outcome === 'failed'
                  ? 'Failed'
                  : 'Skipped'}
            </Badge>
          )}
        </div>
        {plan.status === 'ambiguous' ? (
          <Form.Select
            size="sm"
            aria-label={`Game file for ${row.incoming}`}
            value={decision.choice === null ? '' : String(decision.choice)}
            disabled={locked}
            onChange={(event) =>
              onDecide({
                choice: event.target.value === '' ? null : Number(event.target.value),
                include: true,
              })
            }
          >
            <option value="">Choose the game file…</option>
            {plan.candidates.map((candidate, index) => {
              const note = candidateNote(plan, candidate);
              return (
                <option key={`${candidate.fileId}-${candidate.frame ?? ''}`} value={index}>
                  {candidateLabel(candidate)}
                  {note && ` (${note})`}
                </option>
              );
            })}
          </Form.Select>
        ) : (
          row.path && (
            <div className="font-monospace text-break">
              {row.path}
              {row.frame !== null && ` (frame ${row.frame})`}
            </div>
          )
        )}
        {targetNote && (
          <div className="text-body-secondary" data-testid="usage-note">
            {row.path && plan.status === 'ambiguous' ? `${row.path}: ` : ''}
            {targetNote}
          </div>
        )}
        {check?.pending && (
          <div className="text-body-secondary" role="status">
            Checking with the server…
          </div>
        )}
        {row.originalMedia && (
          <div className="text-body-secondary">
            Original:{' '}
            {row.kind === 'audio'
              ? formatOf(row.originalMedia)
              : `${row.originalMedia.format ?? '—'}, ${pixelSize(row.originalMedia)}`}
          </div>
        )}
      </div>
      <div style={{ flex: '2 1 300px', minWidth: 0 }}>
        {row.status === 'needs_fit' && (
          <div className="d-flex flex-wrap align-items-center gap-2">
            <Form.Select
              size="sm"
              aria-label={`Fit for ${row.incoming}`}
              value={decision.fit ?? ''}
              disabled={locked}
              onChange={(event) =>
                onDecide({ fit: event.target.value === '' ? null : (event.target.value as FitMode) })
              }
              style={{ maxWidth: 260 }}
            >
              <option value="">As for all: {fitModeLabels[fitAll]}</option>
              {fitModes.map((mode) => (
                <option key={mode} value={mode}>
                  {fitModeLabels[mode]}
                </option>
              ))}
            </Form.Select>
            {file && row.fileId !== null && (
              <Button size="sm" variant="outline-primary" onClick={() => setPreviewing(!previewing)}>
                {previewing ? 'Hide preview' : 'Preview'}
              </Button>
            )}
          </div>
        )}
        {previewing && file && row.fileId !== null && (
          <FitPreview
            versionId={versionId}
            target={{ fileId: row.fileId, frame: row.frame }}
            fit={fit}
            file={file}
            incoming={row.incoming}
            originalUrl={originalUrl}
          />
        )}
        {row.kind === 'audio' && row.originalMedia && (
          <dl className="row mb-0 g-0" aria-label={`Sound of ${row.incoming}`}>
            <dt className="col-4 fw-normal text-body-secondary">Duration</dt>
            <dd className="col-8 mb-0" data-testid="durations">
              {duration(row.incomingMedia)} yours, {duration(row.originalMedia)} original
            </dd>
            <dt className="col-4 fw-normal text-body-secondary">Loudness</dt>
            <dd className="col-8 mb-0" data-testid="loudness">
              {loudness(row.incomingMedia)} yours, {loudness(row.originalMedia)} original
            </dd>
          </dl>
        )}
        {twins.map((twin) => {
          const done = twinResults.get(twin.fileId);
          const note = usageNote(twin.usage, [row.usage]);
          return (
            <div key={twin.fileId} className="mt-1" data-testid="twin">
              <div className="d-flex flex-wrap align-items-center gap-2">
                <Form.Check
                  type="checkbox"
                  id={`twin-${row.incoming}-${twin.fileId}`}
                  label={
                    <>
                      {batchMessages.alsoReplace(twin.path)}
                      {note && <span className="text-body-secondary"> ({note})</span>}
                    </>
                  }
                  checked={!decision.skipTwins.includes(twin.fileId) && twin.status !== 'invalid'}
                  disabled={locked || !decision.include || twin.status === 'invalid'}
                  onChange={(event) =>
                    onDecide({
                      skipTwins: event.target.checked
                        ? decision.skipTwins.filter((fileId) => fileId !== twin.fileId)
                        : [...decision.skipTwins, twin.fileId],
                    })
                  }
                />
                {done?.outcome && (
                  <Badge bg={outcomeTones[done.outcome]} data-testid="twin-outcome">
                    {done.outcome === 'replaced'
                      ? 'Replaced'
                      : done.outcome === 'failed'
                        ? 'Failed'
                        : 'Skipped'}
                  </Badge>
                )}
              </div>
              {twin.originalMedia && (
                <div className="text-body-secondary ms-4" data-testid="twin-figures">
                  Converted to {formatOf(twin.originalMedia)} (original: {duration(twin.originalMedia)},{' '}
                  {loudness(twin.originalMedia)})
                </div>
              )}
              {twin.warnings.map((warning) => (
                <div key={warning} className="text-warning-emphasis ms-4" role="note">
                  ⚠ {warning}
                </div>
              ))}
              {(done?.error ?? twin.error) && (
                <div className="text-danger ms-4">{done?.error ?? twin.error}</div>
              )}
            </div>
          );
        })}
        {warnings.map((warning) => (
          <div key={warning} className="text-warning-emphasis" role="note">
            ⚠ {warning}
          </div>
        ))}
        {error && <div className={refused ? 'text-danger' : 'text-body-secondary'}>{error}</div>}
      </div>
    </div>
  );
}

interface FitPreviewProps {
  versionId: number;
  target: { fileId: number; frame: string | null };
  fit: FitMode;
  file: File;
  incoming: string;
  originalUrl: string | undefined;
}

type PreviewState = { key: string; url: string | null; error: string | null };

/** The incoming image fitted by the server exactly as it would be stored, beside the original. */
function FitPreview({ versionId, target, fit, file, incoming, originalUrl }: FitPreviewProps) {
  const key = `${target.fileId}|${target.frame ?? ''}|${fit}`;
  const [preview, setPreview] = useState<PreviewState | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    void fetchFitPreview(versionId, target, fit, file, controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      if (outcome.ok) url = URL.createObjectURL(outcome.blob);
      setPreview({ key, url, error: outcome.ok ? null : outcome.message });
    });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
    // The key names the target and fit; the file stays the row's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, versionId, file]);
  const current = preview?.key === key ? preview : null;
  return (
    <div className="d-flex gap-2 align-items-end mt-2">
      {originalUrl && (
        <figure className="mb-0">
          <div className="image-well">
            <img src={originalUrl} alt={`Original ${incoming}`} />
          </div>
          <figcaption className="text-body-secondary">Original</figcaption>
        </figure>
      )}
      <figure className="mb-0">
        <div className="image-well">
          {current?.url && <img src={current.url} alt={`Fitted ${incoming}`} data-fit={fit} />}
          {!current && <span className="text-body-secondary">Fitting…</span>}
          {current?.error && <span className="text-danger">{current.error}</span>}
        </div>
        <figcaption className="text-body-secondary">Yours, fitted ({fit})</figcaption>
      </figure>
    </div>
  );
}

import {
  batchMessages,
  fitModeLabels,
  fitModes,
  usageNote,
  type BatchRow,
  type BatchRowStatus,
  type FitMode,
} from '@reskin/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import {
  candidateLabel,
  candidateNote,
  duration,
  formatOf,
  isReplaceable,
  loudness,
  pixelSize,
  statusLabels,
  type RowCheck,
  type RowDecision,
} from '../lib/batch-plan';
import { FitPreview } from './fit-preview';

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

/** One row of the batch plan: its incoming file, status, choices (target, fit, loudness) and outcome. */
export function PlanRow({
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

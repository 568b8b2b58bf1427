import { reviewStateLabels, verdictLabels, type ReviewState, type VersionReview } from '@reskin/contract';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import { DateTime } from '../ui/date-time';

const stateColours: Record<ReviewState, string> = {
  in_progress: 'light',
  to_review: 'info',
  approved: 'success',
  changes_requested: 'warning',
};

/** A version's review state as a badge ('To review', 'Approved', 'Changes requested'); nothing while in progress. */
export function ReviewStateBadge({ state }: { state: ReviewState }) {
  if (state === 'in_progress') return null;
  return (
    <Badge
      bg={stateColours[state]}
      text={state === 'changes_requested' ? 'dark' : undefined}
      data-review-state={state}
    >
      {reviewStateLabels[state]}
    </Badge>
  );
}

/** A count of open notes as a badge ('2 open notes'); nothing at 0. */
export function OpenNotesBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Badge bg="warning" text="dark" data-testid="open-notes">
      {count === 1 ? '1 open note' : `${count} open notes`}
    </Badge>
  );
}

/**
 * The reviewer's verdict as its artist reads it, on the version card and the workbench: the verdict, who
 * gave it and when, and its note. Nothing while the version has no verdict since its last finish.
 */
export function VerdictSummary({ review, compact = false }: { review: VersionReview; compact?: boolean }) {
  if (review.verdict === null) return null;
  const approved = review.verdict === 'approved';
  return (
    <Alert
      variant={approved ? 'success' : 'warning'}
      className={compact ? 'py-2 px-3 small mb-2' : 'mb-3'}
      data-testid="verdict"
      data-verdict={review.verdict}
    >
      <div>
        <strong>{verdictLabels[review.verdict]}</strong>
        {review.verdictByName && <> by {review.verdictByName}</>} · <DateTime value={review.verdictAt} />
      </div>
      {review.verdictNote && (
        <div className="mt-1" style={{ whiteSpace: 'pre-wrap' }}>
          {review.verdictNote}
        </div>
      )}
    </Alert>
  );
}

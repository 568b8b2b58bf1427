import {
  errorCodes,
  GameVersionStatus,
  noteTextMax,
  reviewMessages,
  verdictLabels,
  verdicts,
  type GameVersion,
  type Verdict,
} from '@reskin/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useGiveVerdict } from '../../../api/review';
import { useConfirm } from '../../../components/ui/use-confirm';
import { ApiError } from '../../../lib/api-error';
import { notifySuccess } from '../../../lib/toasts';
import { ReviewStateBadge, VerdictSummary } from '../../../components/review/review-badges';

interface Choice {
  verdict: Verdict;
  note: string;
  lock: boolean;
}

/**
 * The reviewer's verdict on a Finished version: Approved or Changes requested with an optional note to
 * the artist, or Approve and lock in one step. A verdict already given since the last finish (here, or by another
 * reviewer meanwhile: the server's 409 `VERDICT_EXISTS`, toasted with who gave it) is replaced only after asking.
 */
export function VerdictPanel({ version }: { version: GameVersion }) {
  const verdictCall = useGiveVerdict();
  const [verdict, setVerdict] = useState<Verdict>('approved');
  const [note, setNote] = useState('');
  const { confirm, dialog } = useConfirm();
  const finished = version.gameVersionStatusId === GameVersionStatus.Finished;
  const hasVerdict = version.verdict !== null;

  const send = (choice: Choice, replace: boolean) => {
    const text = choice.note.trim();
    verdictCall.mutate(
      {
        versionId: version.id,
        body: {
          verdict: choice.verdict,
          ...(text !== '' && { note: text }),
          ...(choice.lock && { lock: true }),
          ...(replace && { replace: true }),
        },
      },
      {
        onSuccess: () => {
          setNote('');
          notifySuccess(
            choice.lock ? 'Approved and locked.' : `Verdict given: ${verdictLabels[choice.verdict]}.`,
          );
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === errorCodes.verdictExists) void askReplace(choice);
        },
      },
    );
  };
  // "Replace the verdict there is?"
  const askReplace = async (choice: Choice) => {
    const question = `This version already has a verdict since it was last finished. Replace it with "${verdictLabels[choice.verdict]}"${choice.lock ? ' and lock the version' : ''}?`;
    if (await confirm(question, { confirmVariant: 'primary' })) send(choice, true);
  };
  const submit = (choice: Choice) => (hasVerdict ? void askReplace(choice) : send(choice, false));

  return (
    <Card className="mb-3" as="section" aria-label="Verdict">
      <Card.Header as="h2" className="fs-6 d-flex flex-wrap align-items-center gap-2">
        Verdict <ReviewStateBadge state={version.reviewState} />
      </Card.Header>
      <Card.Body>
        <VerdictSummary review={version} />
        {!finished && <p className="mb-0 text-body-secondary">{reviewMessages.notFinished}</p>}
        {finished && (
          <Form
            onSubmit={(event) => {
              event.preventDefault();
              submit({ verdict, note, lock: false });
            }}
          >
            <fieldset className="mb-2">
              <legend className="fs-6 mb-1 float-none">
                {hasVerdict ? 'A new verdict' : 'Your verdict'}
              </legend>
              {verdicts.map((value) => (
                <Form.Check
                  key={value}
                  inline
                  type="radio"
                  id={`verdict-${value}`}
                  name="verdict"
                  label={verdictLabels[value]}
                  checked={verdict === value}
                  onChange={() => setVerdict(value)}
                />
              ))}
            </fieldset>
            <Form.Group className="mb-2" controlId="verdict-note">
              <Form.Label className="small mb-1">Note to the artist (optional)</Form.Label>
              <Form.Control
                as="textarea"
                rows={2}
                maxLength={noteTextMax}
                value={note}
                onChange={(e) => setNote(e.target.value)}
              />
            </Form.Group>
            <div className="d-flex flex-wrap gap-2">
              <Button type="submit" disabled={verdictCall.isPending}>
                {hasVerdict ? 'Replace verdict' : 'Give verdict'}
              </Button>
              {!version.isLocked && (
                <Button
                  variant="success"
                  disabled={verdictCall.isPending}
                  onClick={() => submit({ verdict: 'approved', note, lock: true })}
                >
                  Approve and lock
                </Button>
              )}
            </div>
          </Form>
        )}
      </Card.Body>
      {dialog}
    </Card>
  );
}

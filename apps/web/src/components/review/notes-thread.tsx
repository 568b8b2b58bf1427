import { can, noteTextMax, type Note } from '@reskin/contract';
import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { useCreateNote, useUpdateNote } from '../../api/review';
import { DateTime } from '../ui/date-time';
import { useSession } from '../../lib/session/session-context';
import { notifySuccess } from '../../lib/toasts';
import { resolvedText, threadsOf, type NoteTarget } from './note-threads';
import { useNotesRefusal } from './notes-access';

/** A text box with a submit button: a new note, or an answer to one. */
function NoteForm({
  label,
  submitLabel,
  busy,
  onSubmit,
}: {
  label: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (text: string) => Promise<unknown>;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const send = () => {
    if (text.trim() === '') return;
    // Kept on failure (the client has toasted why), so nothing typed is lost.
    onSubmit(text.trim()).then(
      () => setText(''),
      () => {},
    );
  };
  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Form.Label htmlFor={id} className="small mb-1">
        {label}
      </Form.Label>
      <Form.Control
        id={id}
        as="textarea"
        rows={2}
        maxLength={noteTextMax}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <Button type="submit" size="sm" className="mt-2" disabled={busy || text.trim() === ''}>
        {submitLabel}
      </Button>
    </Form>
  );
}

function NoteText({ note }: { note: Note }) {
  return (
    <>
      <div className="small text-body-secondary">
        <strong className="text-body">{note.authorName}</strong> · <DateTime value={note.createdAt} />
        {note.frame && (
          <>
            {' '}
            · frame <span className="font-monospace">{note.frame}</span>
          </>
        )}
      </div>
      <p className="mb-1" style={{ whiteSpace: 'pre-wrap' }}>
        {note.text}
      </p>
    </>
  );
}

interface NotesThreadProps {
  versionId: number;
  notes: readonly Note[];
  target: NoteTarget;
  /** The new note's form label, e.g. 'New note on img/hero.png'. */
  newNoteLabel: string;
}

/**
 * The notes on a version, a file or a frame, oldest first, each with its state (open, or resolved and
 * how), its answers, Answer and Resolve or Reopen; a form for a new note below. A demo account only reads them.
 */
export function NotesThread({ versionId, notes, target, newNoteLabel }: NotesThreadProps) {
  const { roleTypeId } = useSession();
  // Reviewers and artists write notes, demo accounts never; an artist not on a locked or disabled version.
  const refusal = useNotesRefusal();
  const mayWrite = can(roleTypeId, 'notes.write') && refusal === undefined;
  const createCall = useCreateNote();
  const updateCall = useUpdateNote();
  const [answering, setAnswering] = useState<number | null>(null);
  const threads = threadsOf(notes, target);

  const create = (text: string, replyTo?: number) =>
    createCall.mutateAsync(
      {
        versionId,
        body: {
          text,
          ...(target.fileId !== null && { fileId: target.fileId }),
          ...(target.frame && { frame: target.frame }),
          ...(replyTo !== undefined && { replyTo }),
        },
      },
      { onSuccess: () => notifySuccess(replyTo === undefined ? 'Note added.' : 'Answer sent.') },
    );
  const setResolved = (note: Note, resolved: boolean) =>
    updateCall.mutate(
      { noteId: note.id, versionId, body: { resolved } },
      { onSuccess: () => notifySuccess(resolved ? 'Note resolved.' : 'Note reopened.') },
    );

  return (
    <>
      {threads.length === 0 && <p className="small text-body-secondary">No notes yet.</p>}
      {threads.length > 0 && (
        <ListGroup className="mb-3">
          {threads.map(({ note, answers }) => (
            <ListGroup.Item key={note.id} data-note-id={note.id} aria-label={`Note by ${note.authorName}`}>
              <div className="d-flex justify-content-between gap-2">
                <div className="flex-grow-1">
                  <NoteText note={note} />
                </div>
                <div>
                  {note.resolved ? (
                    <Badge bg="secondary">Resolved</Badge>
                  ) : (
                    <Badge bg="warning" text="dark">
                      Open
                    </Badge>
                  )}
                </div>
              </div>
              {note.resolved && <div className="small text-body-secondary mb-1">{resolvedText(note)}</div>}
              {answers.map((answer) => (
                <div
                  key={answer.id}
                  className="border-start border-3 ps-2 ms-2 mb-1"
                  data-note-id={answer.id}
                >
                  <NoteText note={answer} />
                </div>
              ))}
              {mayWrite && (
                <div className="d-flex flex-wrap gap-2 mt-1">
                  <Button
                    size="sm"
                    variant="outline-primary"
                    onClick={() => setAnswering(answering === note.id ? null : note.id)}
                  >
                    Answer
                  </Button>
                  <Button
                    size="sm"
                    variant="outline-secondary"
                    disabled={updateCall.isPending}
                    onClick={() => setResolved(note, !note.resolved)}
                  >
                    {note.resolved ? 'Reopen' : 'Resolve'}
                  </Button>
                </div>
              )}
              {answering === note.id && (
                <div className="mt-2">
                  <NoteForm
                    label={`Your answer to ${note.authorName}`}
                    submitLabel="Send answer"
                    busy={createCall.isPending}
                    onSubmit={(text) => create(text, note.id).then(() => setAnswering(null))}
                  />
                </div>
              )}
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      {refusal !== undefined && can(roleTypeId, 'notes.write') && (
        <p className="small text-body-secondary mb-0">{refusal}</p>
      )}
      {mayWrite && (
        <NoteForm
          label={newNoteLabel}
          submitLabel="Add note"
          busy={createCall.isPending}
          onSubmit={(text) => create(text)}
        />
      )}
    </>
  );
}

import { useId, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useVersionNotes } from '../../api/review';
import { notesCountLabel, openCount, threadsOf, type NoteTarget } from './note-threads';
import { NotesThread } from './notes-thread';

interface NotesButtonProps {
  versionId: number;
  target: NoteTarget;
  /** What the notes are on, for the dialog's title and the button's name: a file's path, or 'frame hero_1'. */
  subject: string;
  /** Opens the dialog at once (a link from the inbox to this file's card). */
  initiallyOpen?: boolean;
  /** Told when the dialog closes (a virtualised card opened from the inbox then stays closed when it is mounted again). */
  onClose?: () => void;
}

/**
 * A file's (or frame's) notes as one small button with the count of open notes: the notes themselves
 * open in a dialog, so a card keeps its height whatever the notes (the workbench's frame grid is virtualised).
 */
export function NotesButton({
  versionId,
  target,
  subject,
  initiallyOpen = false,
  onClose,
}: NotesButtonProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const titleId = useId();
  const notes = useVersionNotes(versionId, { fromScreen: true });
  const threads = threadsOf(notes.data ?? [], target);
  const count = notesCountLabel(threads);
  const hasOpen = openCount(threads) > 0;
  return (
    <>
      <Button size="sm" variant={hasOpen ? 'warning' : 'outline-secondary'} onClick={() => setOpen(true)}>
        {/* Named by what it shows, then what it is on ('Notes 1 open on hero.png'): a name that contains the
            visible text is what speech input matches (WCAG 2.5.3, decision 0051). */}
        Notes{' '}
        {count && (
          <Badge bg={hasOpen ? 'dark' : 'secondary'} pill>
            {count}
          </Badge>
        )}
        <span className="visually-hidden"> on {subject}</span>
      </Button>
      {open && (
        <Modal
          show
          onHide={() => {
            setOpen(false);
            onClose?.();
          }}
          centered
          scrollable
          size="lg"
          aria-labelledby={titleId}
        >
          <Modal.Header closeButton>
            <Modal.Title as="h2" id={titleId} className="fs-5 text-break">
              Notes on {subject}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <NotesThread
              versionId={versionId}
              notes={notes.data ?? []}
              target={target}
              newNoteLabel={`New note on ${subject}`}
            />
          </Modal.Body>
        </Modal>
      )}
    </>
  );
}

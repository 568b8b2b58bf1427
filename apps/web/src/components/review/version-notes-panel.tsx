import Card from 'react-bootstrap/Card';
import { useVersionNotes } from '../../api/review';
import { Loading } from '../ui/loading';
import { NotesThread } from './notes-thread';

/**
 * The notes on a version as a whole, on the workbench and the reviewer's files screen, with how many
 * notes on its files are still open (those are on the files' cards).
 */
export function VersionNotesPanel({ versionId }: { versionId: number }) {
  const notes = useVersionNotes(versionId);
  const all = notes.data ?? [];
  const onFiles = all.filter(
    (note) => note.fileId !== null && note.replyTo === null && !note.resolved,
  ).length;
  return (
    // Not a landmark region: the workbench's regions are its file cards.
    <Card className="mb-3" data-testid="version-notes">
      <Card.Header as="h2" className="fs-6 d-flex flex-wrap justify-content-between gap-2">
        <span>Notes on this version</span>
        {onFiles > 0 && (
          <span className="fw-normal small" data-testid="open-file-notes">
            {onFiles === 1 ? '1 open note on a file' : `${onFiles} open notes on files`}: see the files'
            cards.
          </span>
        )}
      </Card.Header>
      <Card.Body>
        {notes.isLoading && <Loading />}
        {notes.isSuccess && (
          <NotesThread
            versionId={versionId}
            notes={all}
            target={{ fileId: null }}
            newNoteLabel="New note on this version"
          />
        )}
      </Card.Body>
    </Card>
  );
}

import { historyHowLabels, historyMessages, type HistoryEntry } from '@reskin/contract';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { useFileHistory, useRestoreHistoryEntry } from '../../api/history';
import { DataTable } from '../lists/data-table';
import { DateTime } from '../ui/date-time';
import { Loading } from '../ui/loading';
import { formatSize } from '../../lib/format-size';
import { notifySuccess } from '../../lib/toasts';

/** The file whose history is shown: its game file id and path, and where its original is seen. */
export interface HistoryFile {
  fileId: number;
  path: string;
  /** The (watermarked) original as the version's view shows it, beside the chosen entry. */
  originalSrc: string | undefined;
  kind: 'image' | 'sound';
}

interface FileHistoryDialogProps {
  versionId: number;
  /** The file shown; null: the dialog is closed. */
  file: HistoryFile | null;
  onClose: () => void;
  /** Why the version's files cannot change now (locked, disabled, demo); undefined: "Restore this" is offered. */
  readOnlyReason: string | undefined;
}

/** An entry's image or sound as an `<img>` or `<audio>` (never opened as a page: an image runs no script). */
function Preview({ src, kind, alt }: { src: string | undefined; kind: HistoryFile['kind']; alt: string }) {
  if (!src) return <div className="image-well" />;
  if (kind === 'sound') return <audio controls preload="none" src={src} aria-label={alt} />;
  return (
    <div className="image-well">
      <img src={src} alt={alt} />
    </div>
  );
}

/**
 * A version file's history (decision 0034): every replacement kept, newest first, with its time, author,
 * size and pixel size; the chosen entry beside the original; "Restore this" (after a confirmation) makes it the
 * version's file again, which is itself a new entry. A modal, so the workbench's cards keep their heights.
 */
export function FileHistoryDialog({ versionId, file, onClose, readOnlyReason }: FileHistoryDialogProps) {
  const history = useFileHistory(versionId, file?.fileId ?? null);
  const restoreCall = useRestoreHistoryEntry();
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [asking, setAsking] = useState<HistoryEntry | null>(null);
  const entries = history.data?.entries ?? [];
  const chosen = entries.find((entry) => entry.id === chosenId) ?? entries[0];

  // A newly opened file starts with its newest entry and no question asked.
  useEffect(() => {
    setChosenId(null);
    setAsking(null);
  }, [file?.fileId]);

  const restore = (entry: HistoryEntry) => {
    setAsking(null);
    if (!file) return;
    restoreCall.mutate(
      { versionId, fileId: file.fileId, entryId: entry.id },
      {
        onSuccess: () => {
          setChosenId(null);
          notifySuccess(historyMessages.restored(file.path));
        },
        // The client has toasted the server's reason (422 a changed size, 423 a lock set meanwhile).
      },
    );
  };

  return (
    <Modal
      show={file !== null}
      onHide={onClose}
      size="xl"
      fullscreen="lg-down"
      aria-labelledby="file-history-title"
    >
      <Modal.Header closeButton>
        <Modal.Title id="file-history-title" as="h2" className="fs-5 text-break">
          History of {file?.path}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {history.isLoading && <Loading />}
        {history.isSuccess && entries.length === 0 && <p className="mb-0">{historyMessages.empty}</p>}
        {chosen && file && (
          <Row xs={1} md={2} className="g-3 mb-3" data-testid="history-compare">
            <Col>
              <figure className="mb-0">
                <Preview src={file.originalSrc} kind={file.kind} alt={`Original ${file.path}`} />
                <figcaption className="small text-body-secondary">Original</figcaption>
              </figure>
            </Col>
            <Col>
              <figure className="mb-0">
                <Preview
                  src={chosen.url}
                  kind={file.kind}
                  alt={`History entry ${chosen.id} of ${file.path}`}
                />
                <figcaption className="small text-body-secondary">
                  {historyHowLabels[chosen.how]} <DateTime value={chosen.createdAt} />
                  {chosen.current && ' (current)'}
                </figcaption>
              </figure>
            </Col>
          </Row>
        )}
        {/* A locked version (artists and reviewers alike) or a disabled one (its artist): no restore, and why. */}
        {readOnlyReason && entries.length > 0 && (
          <Alert variant="secondary" className="py-2" data-testid="history-no-restore">
            {historyMessages.noRestore(readOnlyReason)}
          </Alert>
        )}
        {asking && (
          <Alert
            variant="warning"
            className="d-flex flex-wrap align-items-center gap-2"
            data-testid="history-confirm"
          >
            <span className="me-auto">{historyMessages.confirmRestore}</span>
            <Button size="sm" variant="secondary" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button size="sm" variant="primary" onClick={() => restore(asking)}>
              Confirm
            </Button>
          </Alert>
        )}
        <DataTable
          columns={[
            { id: 'when', header: 'When', cell: (entry) => <DateTime value={entry.createdAt} /> },
            {
              id: 'what',
              header: 'What',
              cell: (entry) => (
                <>
                  {historyHowLabels[entry.how]}
                  {entry.current && (
                    <Badge bg="success" className="ms-2">
                      Current
                    </Badge>
                  )}
                </>
              ),
            },
            { id: 'who', header: 'Who', cell: (entry) => entry.authorName ?? 'deleted account' },
            { id: 'size', header: 'Size', cell: (entry) => formatSize(entry.size) },
            {
              id: 'pixels',
              header: 'Pixels',
              cell: (entry) => (entry.width === null ? '—' : `${entry.width} x ${entry.height}`),
            },
            {
              id: 'actions',
              header: <span className="visually-hidden">Actions</span>,
              cellProps: { className: 'text-end text-nowrap' },
              cell: (entry) => (
                <>
                  <Button
                    size="sm"
                    variant="outline-primary"
                    className="me-2"
                    onClick={() => setChosenId(entry.id)}
                  >
                    View
                  </Button>
                  {!readOnlyReason && !entry.current && (
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      disabled={restoreCall.isPending}
                      onClick={() => setAsking(entry)}
                    >
                      Restore this
                    </Button>
                  )}
                </>
              ),
            },
          ]}
          data={entries}
          getRowKey={(entry) => entry.id}
          size="sm"
          rowProps={(entry) => ({
            'data-history-entry': entry.id,
            'data-history-index': entries.indexOf(entry),
            className: entry.id === chosen?.id ? 'table-active' : undefined,
          })}
        />
        {history.data && (
          <p className="small text-body-secondary mt-2 mb-0">
            The last {history.data.limit} replacements of each file are kept; older ones are dropped.
          </p>
        )}
      </Modal.Body>
    </Modal>
  );
}

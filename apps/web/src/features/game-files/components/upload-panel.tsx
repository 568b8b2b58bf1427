import { uploadMessages } from '@reskin/contract';
import { useCallback, type ChangeEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useDropzone } from 'react-dropzone';
import type { UploadBatchState, UploadItem } from '../hooks/use-upload-batch';
import { fileItem } from '../../../lib/upload-item';
import { uploadPathOf } from '../../../lib/upload-path';
import { isZipFile } from '../../../api/game-files';
import { FilePickerButton } from '../../../components/ui/file-picker-button';

/** Errors listed at most: an upload of 1,500 files that all failed names the first ones and counts the rest. */
const errorsShown = 100;

interface UploadPanelProps {
  state: UploadBatchState;
  onUpload: (items: UploadItem[]) => void;
  /** One .zip of the game folder, unpacked on the server, or in the browser when too large for one request. */
  onUploadZip: (file: File) => void;
  /** Sends again the files the last upload did not store. */
  onRetry: () => void;
  onDismissErrors: () => void;
}

const toItems = (files: readonly File[]): UploadItem[] =>
  files.map((file) => fileItem(file, uploadPathOf(file)));

/**
 * Adds game files: drop a folder or files, or choose them; the folder paths are kept (GF-1). Any number of files,
 * sent in batches; a file whose path exists replaces it.
 */
export function UploadPanel({ state, onUpload, onUploadZip, onRetry, onDismissErrors }: UploadPanelProps) {
  // A single .zip is a game folder to unpack; a .zip among other files is just a file of the game.
  const onFiles = useCallback(
    (files: File[]) => {
      const [only] = files;
      if (files.length === 1 && only && isZipFile(only)) onUploadZip(only);
      else onUpload(toItems(files));
    },
    [onUpload, onUploadZip],
  );
  const onDrop = useCallback((files: File[]) => onFiles(files), [onFiles]);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    multiple: true,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    disabled: state.running,
  });

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Lets the same selection be chosen again after a fix.
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };

  return (
    <section aria-label="Upload game files">
      <div
        {...getRootProps({
          className: `upload-drop-zone border border-2 rounded p-4 mb-3 text-center ${
            isDragActive ? 'border-primary bg-primary-subtle' : 'border-secondary-subtle'
          }`,
          'data-testid': 'drop-zone',
        })}
      >
        <input {...getInputProps({ 'aria-label': 'Drop files' })} />
        <p className="mb-2">
          Drop the game folder or its files here, or one .zip of the folder (checked before it is sent, then
          unpacked). A file with an existing path replaces it.
        </p>
        <div className="d-flex justify-content-center flex-wrap gap-2">
          <FilePickerButton id="folder-input" folder multiple disabled={state.running} onChange={chosen}>
            Choose folder
          </FilePickerButton>
          <FilePickerButton id="files-input" multiple disabled={state.running} onChange={chosen}>
            Choose files
          </FilePickerButton>
          <FilePickerButton
            id="zip-input"
            accept=".zip,application/zip"
            disabled={state.running}
            onChange={chosen}
          >
            Choose .zip
          </FilePickerButton>
        </div>
      </div>
      {state.showProgress && (
        <div className="mb-3">
          <ProgressBar now={state.percent} label={`${state.percent}%`} animated={state.running} />
          <p className="small mt-1 mb-0" role="status">
            {state.zipName !== undefined && state.zipMode !== 'unpacked' ? (
              <ZipStatus state={state} name={state.zipName} />
            ) : (
              <>
                {state.running ? 'Uploading' : 'Uploaded'} {state.finished - state.failed} of {state.total}{' '}
                files
                {state.zipName !== undefined ? ` from ${state.zipName} (unpacked in the browser)` : ''}
                {state.failed > 0 ? `, ${state.failed} failed` : ''}.
              </>
            )}
          </p>
        </div>
      )}
      {/* Dotfiles and system junk are no game files (decision 0052): skipped, and said so. */}
      {state.skipped > 0 && (
        <p className="small text-body-secondary" data-testid="upload-skipped">
          {uploadMessages.skippedFiles(state.skipped)}
        </p>
      )}
      {state.errors.length > 0 && (
        <Alert variant="danger" dismissible onClose={onDismissErrors} aria-label="Upload errors">
          <p className="fw-semibold mb-1">Not uploaded:</p>
          <ul className="mb-0 upload-errors">
            {state.errors.slice(0, errorsShown).map((error, index) => (
              <li key={`${error.path}-${index}`}>
                {error.path !== '' && <code className="me-2">{error.path}</code>}
                <span>{error.message}</span>
              </li>
            ))}
          </ul>
          {state.errors.length > errorsShown && (
            <p className="mb-0 mt-1">And {state.errors.length - errorsShown} more files.</p>
          )}
          {state.retryItems.length > 0 && !state.running && (
            <Button variant="outline-danger" size="sm" className="mt-2" onClick={onRetry}>
              Send the {state.retryItems.length} {state.retryItems.length === 1 ? 'file' : 'files'} again
            </Button>
          )}
        </Alert>
      )}
    </section>
  );
}

function ZipStatus({ state, name }: { state: UploadBatchState; name: string }) {
  if (state.running && state.zipMode === 'reading') return <>Checking {name}.</>;
  if (state.running) return <>Uploading and unpacking {name}.</>;
  if (state.failed > 0) return <>{name} was not uploaded: nothing of it was stored.</>;
  return (
    <>
      Uploaded {state.finished} files from {name}.
    </>
  );
}

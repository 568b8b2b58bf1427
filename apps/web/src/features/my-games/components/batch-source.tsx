import { useCallback, type ChangeEvent } from 'react';
import { useDropzone } from 'react-dropzone';
import { isZipFile } from '../../../api/game-files';
import { FilePickerButton } from '../../../components/ui/file-picker-button';
import { uploadPathOf } from '../../../lib/upload-path';

/** One incoming file of a folder and its path relative to the folder dropped or chosen. */
export interface BatchItem {
  file: File;
  path: string;
}

/** What the artist handed over: the files of a folder (or several files), or one .zip the server unpacks. */
export type BatchSourceInput = { kind: 'files'; items: BatchItem[] } | { kind: 'zip'; file: File };

/** A single .zip is a set to unpack on the server; anything else is the files themselves, with their folder paths. */
export function toBatchInput(files: readonly File[]): BatchSourceInput | null {
  const [only] = files;
  if (!only) return null;
  if (files.length === 1 && isZipFile(only)) return { kind: 'zip', file: only };
  return { kind: 'files', items: files.map((file) => ({ file, path: uploadPathOf(file) })) };
}

interface BatchSourceProps {
  disabled: boolean;
  onInput: (input: BatchSourceInput) => void;
}

/**
 * Where a batch comes in: a drop of a folder (react-dropzone walks the dropped directories through
 * DataTransferItem.webkitGetAsEntry and keeps each file's relative path) or of one .zip, or a chosen folder or
 * .zip. Nothing is sent from here: the caller asks the server for the plan first.
 */
export function BatchSource({ disabled, onInput }: BatchSourceProps) {
  const onFiles = useCallback(
    (files: File[]) => {
      const input = toBatchInput(files);
      if (input) onInput(input);
    },
    [onInput],
  );
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: onFiles,
    multiple: true,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    disabled,
  });
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Lets the same folder be chosen again after a change on disk.
    event.target.value = '';
    onFiles(files);
  };

  return (
    <div
      {...getRootProps({
        className: `border border-2 rounded p-3 text-center ${
          isDragActive ? 'border-primary bg-primary-subtle' : 'border-secondary-subtle'
        }`,
        'data-testid': 'batch-drop-zone',
      })}
    >
      <input {...getInputProps({ 'aria-label': 'Drop a folder or a .zip' })} />
      <p className="mb-2">
        Drop a folder of your exported files or one .zip of them here, or choose one. Each file is matched to
        a game file by its path, else its name, else a sprite sheet frame's name; you see the plan before
        anything changes.
      </p>
      <div className="d-flex justify-content-center flex-wrap gap-2">
        <FilePickerButton
          id="batch-folder-input"
          folder
          multiple
          size="sm"
          disabled={disabled}
          onChange={chosen}
        >
          Choose folder
        </FilePickerButton>
        <FilePickerButton
          id="batch-zip-input"
          accept=".zip,application/zip"
          size="sm"
          disabled={disabled}
          onChange={chosen}
        >
          Choose .zip
        </FilePickerButton>
      </div>
    </div>
  );
}

import { limits } from '@reskin/contract';
import { useEffect, useRef, useState } from 'react';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { useDropzone, type FileRejection } from 'react-dropzone';

export type ReportProgress = (fraction: number) => void;
export type DropOutcome = { ok: true; message: string } | { ok: false; message: string; details?: string[] };

const tones = {
  disabled: 'border-secondary-subtle bg-body-tertiary text-body-secondary',
  idle: 'border-secondary-subtle',
  working: 'border-secondary-subtle',
  success: 'border-success bg-success-subtle',
  error: 'border-danger bg-danger-subtle',
} as const;

type DropState =
  { phase: 'idle' } | { phase: 'working'; fraction: number } | { phase: 'done'; outcome: DropOutcome };

interface DropAreaProps {
  /** The area's accessible name, e.g. 'Add Game Files' or 'Replace game/img/bird.png'. */
  label: string;
  /** What the idle area says. */
  hint: string;
  /** Whether the file chooser offers several files (a drop may always hold several; the handler decides). */
  multiple: boolean;
  /** When set, the area is disabled and shows this reason. */
  disabledReason?: string | undefined;
  accept?: string;
  small?: boolean;
  onFiles: (files: File[], progress: ReportProgress) => Promise<DropOutcome>;
}

/**
 * A drop area (react-dropzone) that also opens a file chooser on click: it shows the upload's progress, then
 * its success or error, and resets 5000 ms after a success or 7000 ms after an error (SPEC §4).
 */
export function DropArea({ label, hint, multiple, disabledReason, accept, small, onFiles }: DropAreaProps) {
  const [state, setState] = useState<DropState>({ phase: 'idle' });
  const resetTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const handle = async (files: File[]) => {
    window.clearTimeout(resetTimer.current);
    setState({ phase: 'working', fraction: 0 });
    let outcome: DropOutcome;
    try {
      outcome = await onFiles(files, (fraction) => setState({ phase: 'working', fraction }));
    } catch (error) {
      console.error('upload failed', error);
      outcome = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    setState({ phase: 'done', outcome });
    resetTimer.current = window.setTimeout(
      () => setState({ phase: 'idle' }),
      outcome.ok ? limits.dropResetAfterSuccessMs : limits.dropResetAfterErrorMs,
    );
  };

  const working = state.phase === 'working';
  const disabled = disabledReason !== undefined || working;
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    // Every dropped file reaches the handler, which words the refusal ('Multiple Files are not allowed!').
    onDrop: (accepted: File[], rejected: FileRejection[]) =>
      void handle([...accepted, ...rejected.map((rejection) => rejection.file)]),
    multiple,
    disabled,
    useFsAccessApi: false,
  });

  // What the area shows: a lock wins over everything, then the upload's own phase.
  const shown: keyof typeof tones =
    disabledReason !== undefined
      ? 'disabled'
      : state.phase === 'done'
        ? state.outcome.ok
          ? 'success'
          : 'error'
        : state.phase;
  const tone = isDragActive && shown !== 'disabled' ? 'border-primary bg-primary-subtle' : tones[shown];
  const percent = state.phase === 'working' ? Math.round(state.fraction * 100) : 0;

  return (
    <div
      {...getRootProps({
        className: `drop-area border border-2 rounded text-center ${small ? 'p-2 small' : 'p-3'} ${tone}`,
        role: 'group',
        'aria-label': label,
        'aria-disabled': disabled,
        'data-state': shown,
      })}
    >
      <input {...getInputProps({ 'aria-label': label, ...(accept ? { accept } : {}) })} />
      {disabledReason !== undefined && <span>{disabledReason}</span>}
      {disabledReason === undefined && state.phase === 'idle' && <span>{hint}</span>}
      {state.phase === 'working' && (
        <ProgressBar now={percent} label={`${percent}%`} aria-label={`Uploading: ${percent}%`} />
      )}
      {disabledReason === undefined && state.phase === 'done' && (
        <div
          role={state.outcome.ok ? 'status' : 'alert'}
          className={state.outcome.ok ? 'text-success' : 'text-danger'}
        >
          {state.outcome.message}
          {!state.outcome.ok && state.outcome.details && (
            <ul className="text-start mb-0 mt-1">
              {state.outcome.details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

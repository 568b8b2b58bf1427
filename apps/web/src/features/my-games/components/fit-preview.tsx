import type { FitMode } from '@reskin/contract';
import { useEffect, useState } from 'react';
import { fetchFitPreview } from '../../../api/batch';

interface FitPreviewProps {
  versionId: number;
  target: { fileId: number; frame: string | null };
  fit: FitMode;
  file: File;
  incoming: string;
  originalUrl: string | undefined;
}

type PreviewState = { key: string; url: string | null; error: string | null };

/** The incoming image fitted by the server exactly as it would be stored, beside the original. */
export function FitPreview({ versionId, target, fit, file, incoming, originalUrl }: FitPreviewProps) {
  const key = `${target.fileId}|${target.frame ?? ''}|${fit}`;
  const [preview, setPreview] = useState<PreviewState | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    void fetchFitPreview(versionId, target, fit, file, controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      if (outcome.ok) url = URL.createObjectURL(outcome.blob);
      setPreview({ key, url, error: outcome.ok ? null : outcome.message });
    });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
    // The key names the target and fit; the file stays the row's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, versionId, file]);
  const current = preview?.key === key ? preview : null;
  return (
    <div className="d-flex gap-2 align-items-end mt-2">
      {originalUrl && (
        <figure className="mb-0">
          <div className="image-well">
            <img src={originalUrl} alt={`Original ${incoming}`} />
          </div>
          <figcaption className="text-body-secondary">Original</figcaption>
        </figure>
      )}
      <figure className="mb-0">
        <div className="image-well">
          {current?.url && <img src={current.url} alt={`Fitted ${incoming}`} data-fit={fit} />}
          {!current && <span className="text-body-secondary">Fitting…</span>}
          {current?.error && <span className="text-danger">{current.error}</span>}
        </div>
        <figcaption className="text-body-secondary">Yours, fitted ({fit})</figcaption>
      </figure>
    </div>
  );
}

import type { AtlasFrame, GameFile } from '@reskin/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useFrameUploads } from '../hooks/use-frame-uploads';
import { drawFrame, loadSheet } from '../../../components/atlas-frame';
import { filterFrames } from '../lib/sheet-frames';
import { DropArea, type DropOutcome, type ReportProgress } from './drop-area';
import { NotesButton } from '../../../components/review/notes-button';
import { VirtualGrid } from '../../../components/ui/virtual-grid';

/** The width of one frame's cell: the columns of the grid follow from the width the group is given. */
const cellWidth = 280;
/** The largest side a frame is shown at; a bigger frame is scaled down to fit. */
const previewSide = 120;

type SheetImage = { phase: 'loading' } | { phase: 'loaded'; image: HTMLImageElement } | { phase: 'failed' };

/**
 * The sheet image at `url`, loaded once for all its frames (loadSheet, shared with the review screens) (each frame is drawn from it onto its own canvas, never
 * fetched on its own). Cross-origin (the play origin) is fine: the canvases are only shown, never read.
 */
function useSheetImage(url: string | undefined): SheetImage {
  const [state, setState] = useState<{ url: string | undefined; image: SheetImage }>({
    url,
    image: { phase: 'loading' },
  });
  useEffect(() => {
    if (url === undefined) return;
    let current = true;
    loadSheet(url).then(
      (image) => current && setState({ url, image: { phase: 'loaded', image } }),
      () => current && setState({ url, image: { phase: 'failed' } }),
    );
    return () => {
      current = false;
    };
  }, [url]);
  return state.url === url ? state.image : { phase: 'loading' };
}

/** One frame cut from its sheet, upright at its source size (scaled down to fit a large one). */
function FrameCanvas({ sheet, frame, label }: { sheet: SheetImage; frame: AtlasFrame; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvas.current && sheet.phase === 'loaded') drawFrame(canvas.current, sheet.image, frame);
  }, [sheet, frame]);
  if (sheet.phase === 'failed')
    return <span className="small text-body-secondary">The sheet cannot be shown.</span>;
  const { w, h } = frame.sourceSize;
  const scale = Math.min(1, previewSide / Math.max(w, h));
  return (
    <canvas
      ref={canvas}
      role="img"
      aria-label={label}
      width={w}
      height={h}
      className="frame-canvas"
      style={{ width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) }}
    />
  );
}

interface SheetFramesProps {
  versionId: number;
  sheet: GameFile;
  /** The frames on this sheet, in the descriptor's order. */
  frames: AtlasFrame[];
  /** The frames this version replaced. */
  replacedFrames: ReadonlySet<string>;
  /** The original sheet as the workbench shows originals (the watermarked view). */
  originalUrl: string;
  /** The version's composed sheet, when the version replaced frames of it. */
  versionUrl: string | undefined;
  readOnlyReason: string | undefined;
}

/**
 * A sprite sheet as the group of its frames (decision 0028 "The workbench"): each frame cut from the
 * sheet and shown upright at its source size, named as its descriptor names it, with a drop area for a replacement
 * of that size and, once replaced, the frame from the version's composed sheet and 'Restore original'. A filter
 * box narrows the frames by name, and only the rows in view are rendered, so a sheet of hundreds of frames stays
 * quick.
 */
export function SheetFrames({
  versionId,
  sheet,
  frames,
  replacedFrames,
  originalUrl,
  versionUrl,
  readOnlyReason,
}: SheetFramesProps) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => filterFrames(frames, filter), [frames, filter]);
  const original = useSheetImage(originalUrl);
  const composed = useSheetImage(versionUrl);
  const { replaceFrame, askRestore, restoring, restoreDialog } = useFrameUploads(versionId, sheet);

  const filterId = `frame-filter-${sheet.fileId}`;

  return (
    <section aria-label={`Frames of ${sheet.path}`} className="mt-3">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="fs-6 mb-0">Frames</h2>
        <Form.Label htmlFor={filterId} className="visually-hidden">
          Filter frames
        </Form.Label>
        <Form.Control
          id={filterId}
          type="search"
          size="sm"
          placeholder="Filter frames by name"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          style={{ maxWidth: 260 }}
        />
        <span className="small text-body-secondary" aria-live="polite">
          {shown.length === frames.length
            ? `${frames.length} frames`
            : `${shown.length} of ${frames.length} frames`}
          {replacedFrames.size > 0 && `, ${replacedFrames.size} replaced`}
        </span>
      </div>
      {shown.length === 0 && <p className="mb-0 small">No frame of this sheet matches the filter.</p>}
      {/* The frames' own list (decision 0041): as many columns as cells fit, only the rows in view rendered. */}
      <VirtualGrid
        items={shown}
        getKey={(frame) => frame.name}
        columns={(width) => Math.floor(width / cellWidth)}
        estimateRowHeight={300}
        gap={8}
        maxHeight={640}
        renderItem={(frame) => (
          <FrameCell
            versionId={versionId}
            sheet={sheet}
            frame={frame}
            original={original}
            composed={replacedFrames.has(frame.name) ? composed : undefined}
            readOnlyReason={readOnlyReason}
            restoring={restoring}
            onRestore={() => askRestore(frame)}
            onFiles={(files, progress) => replaceFrame(frame, files, progress)}
          />
        )}
      />
      {restoreDialog}
    </section>
  );
}

interface FrameCellProps {
  versionId: number;
  sheet: GameFile;
  frame: AtlasFrame;
  original: SheetImage;
  /** The version's composed sheet, for a replaced frame. */
  composed: SheetImage | undefined;
  readOnlyReason: string | undefined;
  restoring: boolean;
  onRestore: () => void;
  onFiles: (files: File[], progress: ReportProgress) => Promise<DropOutcome>;
}

function FrameCell({
  versionId,
  sheet,
  frame,
  original,
  composed,
  readOnlyReason,
  restoring,
  onRestore,
  onFiles,
}: FrameCellProps) {
  const { w, h } = frame.sourceSize;
  return (
    <div
      role="group"
      aria-label={`Frame ${frame.name}`}
      data-frame={frame.name}
      className="border rounded p-2 d-flex flex-column gap-2"
      style={{ width: cellWidth - 8, flex: '0 0 auto' }}
    >
      <div className="d-flex justify-content-between gap-1 small">
        <span className="font-monospace text-break">{frame.name}</span>
        <span className="text-nowrap" title="Source size (width x height)">
          {w} × {h}
        </span>
      </div>
      <div className="d-flex gap-2 align-items-end">
        <figure className="mb-0">
          <div className="frame-well">
            <FrameCanvas sheet={original} frame={frame} label={`Original frame ${frame.name}`} />
          </div>
          <figcaption className="small text-body-secondary">Original</figcaption>
        </figure>
        {composed && (
          <figure className="mb-0">
            <div className="frame-well">
              <FrameCanvas sheet={composed} frame={frame} label={`Your frame ${frame.name}`} />
            </div>
            <figcaption className="small text-body-secondary">Yours</figcaption>
          </figure>
        )}
      </div>
      <div className="d-flex flex-wrap gap-2 align-items-center">
        {composed && <Badge bg="success">Replaced</Badge>}
        {/* The frame's notes open in a dialog: the cell's height stays that of the virtualised row. */}
        <NotesButton
          versionId={versionId}
          target={{ fileId: sheet.fileId, frame: frame.name }}
          subject={`frame ${frame.name} of ${sheet.path}`}
        />
      </div>
      {composed && !readOnlyReason && (
        <Button size="sm" variant="outline-secondary" onClick={onRestore} disabled={restoring}>
          Restore original
        </Button>
      )}
      <DropArea
        label={`Replace frame ${frame.name}`}
        hint={`Drop one image of ${w} × ${h} px here, or click to choose it.`}
        multiple={false}
        accept="image/*"
        small
        disabledReason={readOnlyReason}
        onFiles={onFiles}
      />
    </div>
  );
}

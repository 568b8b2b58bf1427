import {
  emptyTexts,
  framesOfSheet,
  limits,
  type Atlas,
  type AtlasFrame,
  type FileUsage,
  type GameFile,
  type GamePath,
  type VersionFile,
} from '@reskin/contract';
import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { UsageBadge } from '../../../components/ui/file-usage';
import { fileUrl } from '../../../lib/play-file-url';
import { DataTable } from '../../../components/lists/data-table';
import { useRestoreOriginal } from '../hooks/use-restore-original';
import { useVersionUploads } from '../hooks/use-version-uploads';
import { DropArea } from './drop-area';
import { SheetFrames } from './sheet-frames';
import { NotesButton } from '../../../components/review/notes-button';
import { ImageCompareDialog, type ComparedImage } from '../../../components/ui/image-compare-dialog';
import { FileHistoryDialog } from '../../../components/version-history/file-history-dialog';

const noAtlases: readonly Atlas[] = [];
const noFrames: AtlasFrame[] = [];

/** What the image and audio editors are given: the game's files of their kind and the version's state. */
export interface FileEditorProps {
  versionId: number;
  /** The game's images (or sounds), in path order: what a multi-file drop replaces. */
  files: GameFile[];
  /** The cards (or rows) shown: the files that pass the usage filter, in the chosen order. */
  shown: GameFile[];
  /** Which files plays load, by fileId. */
  usage: ReadonlyMap<number, FileUsage>;
  replaced: ReadonlyMap<number, VersionFile>;
  playPaths: GamePath;
  readOnlyReason: string | undefined;
  /** The game's recognised sprite sheets: an image that is a page of one shows its frames too. */
  atlases?: readonly Atlas[];
  /** The file a link names (`?fileId=`, from the inbox): its notes open at once. */
  focusedFileId?: number | null;
}

/**
 * The image-file editor (SPEC §2 Workbench, EditImageFiles): a multi-file drop for up to 50 images, and a
 * card per game image with the original beside the user's replacement (or the skeleton while there is none),
 * a drop area for that one image, the larger side-by-side view and, once replaced, 'Restore original'.
 */
export function ImageEditor({
  versionId,
  files: images,
  shown,
  usage,
  replaced,
  playPaths,
  readOnlyReason,
  atlases = noAtlases,
  focusedFileId = null,
}: FileEditorProps) {
  const { replaceOne, replaceMany } = useVersionUploads(versionId, 'image', images);
  const { askRestore, restoring, restoreDialog } = useRestoreOriginal(versionId);
  const [comparing, setComparing] = useState<GameFile | null>(null);
  // The file whose history (every replacement kept) is open.
  const [historyOf, setHistoryOf] = useState<GameFile | null>(null);

  // The inbox's card opens its notes once: a card scrolled out of view and back (so mounted again) stays closed.
  const [openNotesOf, setOpenNotesOf] = useState(focusedFileId);

  /** The watermarked original, and the user's image or else the skeleton, full size (the larger views). */
  const previewsOf = (image: GameFile): { original: ComparedImage; replacement: ComparedImage } => {
    const own = replaced.get(image.fileId);
    return {
      original: {
        src: fileUrl(playPaths, playPaths.wtmFile, image.path, image.updatedAt),
        alt: `Original ${image.path}`,
        caption: 'Original',
      },
      replacement: own
        ? {
            src: fileUrl(playPaths, playPaths.orjFile, image.path, own.updatedAt),
            alt: `Your ${image.path}`,
            caption: 'Your image',
          }
        : {
            src: fileUrl(playPaths, playPaths.emtFile, image.path, image.updatedAt),
            alt: `Skeleton ${image.path}`,
            caption: 'Skeleton (not replaced yet)',
          },
    };
  };

  /**
   * The same pictures as the card shows them (decision 0041): the small preview copies, or the full
   * files where the server gives none yet.
   */
  const cardPicturesOf = (image: GameFile): ComparedImage[] => {
    const own = replaced.get(image.fileId);
    const { original, replacement } = previewsOf(image);
    return [
      { ...original, src: image.previews?.preview ?? original.src },
      { ...replacement, src: (own ? own.preview : image.previews?.skeletonPreview) ?? replacement.src },
    ];
  };

  // Each sheet's frames, found once per atlases answer: the list asks for a card's frames (its row and its height)
  // for every card each time it places its rows.
  const framesByFile = useMemo(() => {
    const sheetIds = new Set(atlases.flatMap((atlas) => atlas.pages.map((page) => page.fileId)));
    return new Map([...sheetIds].map((id) => [id, [...framesOfSheet(atlases, id).frames.values()]]));
  }, [atlases]);

  if (images.length === 0) return <p className="mb-0">{emptyTexts.images}</p>;

  const framesOf = (image: GameFile) => framesByFile.get(image.fileId) ?? noFrames;

  const renderCard = (image: GameFile) => {
    const size = `${image.width ?? '?'} x ${image.height ?? '?'}`;
    const frames = framesOf(image);
    const own = replaced.get(image.fileId);
    return (
      <Card className="h-100" data-file-id={image.fileId} aria-label={image.path} role="region">
        <Card.Header className="d-flex justify-content-between gap-2 small">
          <span className="text-break font-monospace">{image.path}</span>
          <span className="text-nowrap" title="Pixel size (width x height)">
            {size}
          </span>
        </Card.Header>
        <Card.Body className="pt-2">
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
            <UsageBadge usage={usage.get(image.fileId)} />
            <NotesButton
              versionId={versionId}
              target={{ fileId: image.fileId }}
              subject={image.path}
              initiallyOpen={openNotesOf === image.fileId}
              onClose={() => setOpenNotesOf(null)}
            />
          </div>
          {own?.fits === false && (
            // The game's image was replaced with another size since: this replacement no longer fits.
            <Alert variant="warning" className="mb-2 py-2 small" data-testid="no-longer-fits">
              No longer fits: the original is now {size} px; yours is {own.width ?? '?'} x {own.height ?? '?'}
              . Replace it again.
            </Alert>
          )}
          <div className="image-pair mb-2">
            {cardPicturesOf(image).map((picture) => (
              <figure key={picture.caption} className="mb-0">
                <div className="image-well">
                  <img
                    src={picture.src}
                    alt={picture.alt}
                    loading="lazy"
                    decoding="async"
                    width={image.width ?? undefined}
                    height={image.height ?? undefined}
                  />
                </div>
                <figcaption className="small text-body-secondary">{picture.caption}</figcaption>
              </figure>
            ))}
          </div>
          <div className="d-flex flex-wrap gap-2 mb-2">
            <Button size="sm" variant="outline-primary" onClick={() => setComparing(image)}>
              Side by side
            </Button>
            <Button
              size="sm"
              variant="outline-primary"
              onClick={() => setHistoryOf(image)}
              aria-label={`History of ${image.path}`}
            >
              History
            </Button>
            {own && !readOnlyReason && (
              <Button
                size="sm"
                variant="outline-secondary"
                onClick={() => askRestore(image)}
                disabled={restoring}
              >
                Restore original
              </Button>
            )}
          </div>
          <DropArea
            label={`Replace ${image.path}`}
            hint={`Drop one image of ${size} px here, or click to choose it.`}
            multiple={false}
            accept="image/*"
            small
            disabledReason={readOnlyReason}
            onFiles={(files, progress) => replaceOne(image, files, progress)}
          />
          {frames.length > 0 && (
            <SheetFrames
              versionId={versionId}
              sheet={image}
              frames={frames}
              replacedFrames={new Set(own?.frames ?? [])}
              // The frames are cut from the full sheet: a preview copy is scaled down.
              originalUrl={previewsOf(image).original.src}
              versionUrl={
                own?.frames?.length
                  ? fileUrl(playPaths, playPaths.orjFile, image.path, own.updatedAt)
                  : undefined
              }
              readOnlyReason={readOnlyReason}
            />
          )}
        </Card.Body>
      </Card>
    );
  };

  return (
    <>
      <DropArea
        label="Add Game Files"
        hint={`Drop up to ${limits.versionMultiUploadFiles} images here, or click to choose them: each replaces the game image of the same name or path.`}
        multiple
        accept="image/*"
        disabledReason={readOnlyReason}
        onFiles={replaceMany}
      />
      {/* Only the rows in view are in the page (decision 0041); a sprite sheet takes the whole row with its frames. */}
      <DataTable
        columns={[]}
        data={shown}
        getRowKey={(image) => image.fileId}
        renderCard={renderCard}
        cards={{ className: 'mt-3 image-cards', fullRow: (image) => framesOf(image).length > 0, gap: 16 }}
        virtual={{
          estimateSize: (image) => (framesOf(image).length > 0 ? 900 : 470),
          scrollTo: focusedFileId === null ? null : (image) => image.fileId === focusedFileId,
        }}
        emptyText="No image of this game matches the usage filter."
      />
      {restoreDialog}
      <FileHistoryDialog
        versionId={versionId}
        file={
          historyOf && {
            fileId: historyOf.fileId,
            path: historyOf.path,
            kind: 'image',
            originalSrc: previewsOf(historyOf).original.src,
          }
        }
        onClose={() => setHistoryOf(null)}
        readOnlyReason={readOnlyReason}
      />
      {comparing && (
        <ImageCompareDialog
          show
          onClose={() => setComparing(null)}
          image={comparing}
          {...previewsOf(comparing)}
        />
      )}
    </>
  );
}

import {
  emptyTexts,
  framesOfSheet,
  limits,
  type Atlas,
  type FileUsage,
  type GameFile,
  type GamePath,
  type VersionFile,
} from '@reskin/contract';
import { Fragment, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { UsageBadge } from '../../../components/ui/file-usage';
import { fileUrl } from '../../../lib/play-file-url';
import { useRestoreOriginal } from '../hooks/use-restore-original';
import { useVersionUploads } from '../hooks/use-version-uploads';
import { DropArea } from './drop-area';
import { SheetFrames } from './sheet-frames';
import { NotesButton } from '../../review/components/notes-button';
import { ImageCompareDialog, type ComparedImage } from '../../../components/ui/image-compare-dialog';
import { FileHistoryDialog } from '../../version-history/components/file-history-dialog';

/** A path that wraps after its slashes rather than inside a name. */
function BreakablePath({ path }: { path: string }) {
  const segments = path.split('/');
  return segments.map((segment, index) => (
    <Fragment key={index}>
      {segment}
      {index < segments.length - 1 && (
        <>
          /<wbr />
        </>
      )}
    </Fragment>
  ));
}

/** What the image and audio editors are given: the game's files of their kind and the version's state. */
export interface FileEditorProps {
  versionId: number;
  /** The game's images (or sounds), in path order: what a multi-file drop replaces. */
  files: GameFile[];
  /** The cards (or rows) shown: the files that pass the usage filter, in the chosen order. */
  shown: GameFile[];
  /** Which files plays load (issue 24), by fileId. */
  usage: ReadonlyMap<number, FileUsage>;
  replaced: ReadonlyMap<number, VersionFile>;
  playPaths: GamePath;
  readOnlyReason: string | undefined;
  /** The game's recognised sprite sheets (issue 26): an image that is a page of one shows its frames too. */
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
  atlases = [],
  focusedFileId = null,
}: FileEditorProps) {
  const { replaceOne, replaceMany } = useVersionUploads(versionId, 'image', images);
  const { askRestore, restoring, restoreDialog } = useRestoreOriginal(versionId);
  const [comparing, setComparing] = useState<GameFile | null>(null);
  // Issue 28: the file whose history (every replacement kept) is open.
  const [historyOf, setHistoryOf] = useState<GameFile | null>(null);

  /** The watermarked original, and the user's image or else the skeleton, with their texts. */
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

  if (images.length === 0) return <p className="mb-0">{emptyTexts.images}</p>;

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
      <Row xs={1} md={2} xl={3} className="g-3 mt-0">
        {shown.length === 0 && <p className="mb-0">No image of this game matches the usage filter.</p>}
        {shown.map((image) => {
          const { original, replacement } = previewsOf(image);
          const size = `${image.width ?? '?'} x ${image.height ?? '?'}`;
          const frames = [...framesOfSheet(atlases, image.fileId).frames.values()];
          const own = replaced.get(image.fileId);
          return (
            // A sprite sheet takes the whole row: its frames are a grid of their own.
            <Col key={image.fileId} {...(frames.length > 0 ? { xs: 12, md: 12, xl: 12 } : {})}>
              <Card className="h-100" data-file-id={image.fileId} aria-label={image.path} role="region">
                <Card.Header className="d-flex justify-content-between gap-2 small">
                  <span className="text-break font-monospace">
                    <BreakablePath path={image.path} />
                  </span>
                  <span className="text-nowrap" title="Pixel size (width x height)">
                    {size}
                  </span>
                </Card.Header>
                <div className="px-3 pt-2 d-flex flex-wrap justify-content-between align-items-center gap-2">
                  <UsageBadge usage={usage.get(image.fileId)} />
                  <NotesButton
                    versionId={versionId}
                    target={{ fileId: image.fileId }}
                    subject={image.path}
                    initiallyOpen={focusedFileId === image.fileId}
                  />
                </div>
                {replaced.get(image.fileId)?.fits === false && (
                  // The game's image was replaced with another size since (issue 25): this replacement no longer fits.
                  <Alert variant="warning" className="mx-3 mt-2 mb-0 py-2 small" data-testid="no-longer-fits">
                    No longer fits: the original is now {size} px; yours is {replaced.get(image.fileId)?.width ?? '?'} x{' '}
                    {replaced.get(image.fileId)?.height ?? '?'}. Replace it again.
                  </Alert>
                )}
                <Card.Body>
                  <Row xs={2} className="g-2 mb-2">
                    {[original, replacement].map((picture) => (
                      <Col key={picture.caption}>
                        <figure className="mb-0">
                          <div className="image-well">
                            <img src={picture.src} alt={picture.alt} loading="lazy" />
                          </div>
                          <figcaption className="small text-body-secondary">{picture.caption}</figcaption>
                        </figure>
                      </Col>
                    ))}
                  </Row>
                  <div className="d-flex flex-wrap gap-2 mb-2">
                    <Button size="sm" variant="outline-primary" onClick={() => setComparing(image)}>
                      Side by side
                    </Button>
                    <Button size="sm" variant="outline-primary" onClick={() => setHistoryOf(image)} aria-label={`History of ${image.path}`}>
                      History
                    </Button>
                    {replaced.has(image.fileId) && !readOnlyReason && (
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
                      originalUrl={original.src}
                      versionUrl={own?.frames?.length ? fileUrl(playPaths, playPaths.orjFile, image.path, own.updatedAt) : undefined}
                      readOnlyReason={readOnlyReason}
                    />
                  )}
                </Card.Body>
              </Card>
            </Col>
          );
        })}
      </Row>
      {restoreDialog}
      <FileHistoryDialog
        versionId={versionId}
        file={historyOf && { fileId: historyOf.fileId, path: historyOf.path, kind: 'image', originalSrc: previewsOf(historyOf).original.src }}
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

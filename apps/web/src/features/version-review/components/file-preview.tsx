import { limits } from '@reskin/contract';

interface FilePreviewProps {
  url: string | undefined;
  /** The image's small preview copy, shown instead of the full file when the server gives one. */
  preview?: string | null;
  /**
   * The image's thumbnail copy (decision 0038) and the image's own size: the browser then takes the thumbnail where
   * it is sharp enough (a screen of one pixel per CSS pixel) and decodes a 25th of the preview's pixels.
   */
  thumbnail?: { url: string; width: number | null; height: number | null };
  contentType: string | undefined;
  alt: string;
  /** Opens the image in the app's image viewer (never as a page of its own, where an SVG is a document). */
  onOpen: () => void;
}

/** The side a thumbnail is shown within, in CSS px. */
const thumbnailBox = 96;

/** The preview and the thumbnail as a srcset with their widths (each the image fitted within its size, never enlarged). */
function previewSources(preview: string, thumbnail: NonNullable<FilePreviewProps['thumbnail']>) {
  const { width, height } = thumbnail;
  if (!width || !height) return undefined;
  const widthWithin = (side: number) =>
    Math.max(1, Math.round(width * Math.min(1, side / Math.max(width, height))));
  const { thumbnailPixels, previewPixels } = limits.imagePreviews;
  return {
    srcSet: `${thumbnail.url} ${widthWithin(thumbnailPixels)}w, ${preview} ${widthWithin(previewPixels)}w`,
    sizes: `${widthWithin(thumbnailBox)}px`,
  };
}

/** A thumbnail for an image (a button that opens the image viewer), a small player for a sound, else a dash. */
export function FilePreview({ url, preview, thumbnail, contentType, alt, onOpen }: FilePreviewProps) {
  if (!url || !contentType) return <span className="text-body-secondary">-</span>;
  if (contentType.startsWith('image/'))
    return (
      <button type="button" className="btn btn-link p-0" onClick={onOpen} aria-label={`View ${alt}`}>
        <img
          src={preview ?? url}
          {...(preview && thumbnail && previewSources(preview, thumbnail))}
          alt={alt}
          className="img-thumbnail"
          style={{ maxWidth: thumbnailBox, maxHeight: thumbnailBox }}
          loading="lazy"
          decoding="async"
        />
      </button>
    );
  if (contentType.startsWith('audio/'))
    return <audio controls preload="none" src={url} aria-label={alt} className="mw-100" />;
  return <span className="text-body-secondary">-</span>;
}

interface FilePreviewProps {
  url: string | undefined;
  /** The image's small preview copy, shown instead of the full file when the server gives one. */
  preview?: string | null;
  contentType: string | undefined;
  alt: string;
  /** Opens the image in the app's image viewer (never as a page of its own, where an SVG is a document). */
  onOpen: () => void;
}

/** A thumbnail for an image (a button that opens the image viewer), a small player for a sound, else a dash. */
export function FilePreview({ url, preview, contentType, alt, onOpen }: FilePreviewProps) {
  if (!url || !contentType) return <span className="text-body-secondary">-</span>;
  if (contentType.startsWith('image/'))
    return (
      <button type="button" className="btn btn-link p-0" onClick={onOpen} aria-label={`View ${alt}`}>
        <img
          src={preview ?? url}
          alt={alt}
          className="img-thumbnail"
          style={{ maxWidth: 96, maxHeight: 96 }}
          loading="lazy"
          decoding="async"
        />
      </button>
    );
  if (contentType.startsWith('audio/')) return <audio controls preload="none" src={url} aria-label={alt} />;
  return <span className="text-body-secondary">-</span>;
}

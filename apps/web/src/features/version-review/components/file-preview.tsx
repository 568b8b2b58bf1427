interface FilePreviewProps {
  url: string | undefined;
  contentType: string | undefined;
  alt: string;
}

/** A thumbnail for an image, a small player for a sound, else a dash. */
export function FilePreview({ url, contentType, alt }: FilePreviewProps) {
  if (!url || !contentType) return <span className="text-body-secondary">-</span>;
  if (contentType.startsWith('image/'))
    return (
      <a href={url} target="_blank" rel="noreferrer">
        <img
          src={url}
          alt={alt}
          className="img-thumbnail"
          style={{ maxWidth: 96, maxHeight: 96 }}
          loading="lazy"
        />
      </a>
    );
  if (contentType.startsWith('audio/')) return <audio controls preload="none" src={url} aria-label={alt} />;
  return <span className="text-body-secondary">-</span>;
}

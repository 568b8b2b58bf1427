import { originalFileUrl, useGameFilesRoot } from '../../api/play';

interface GameImageThumbProps {
  gameId: number;
  /** The image's path inside the game. */
  path: string;
  /** The file's updatedAt, so a replaced image is not shown stale. */
  version?: string;
  alt: string;
  /**
   * The image's small thumbnail on the app's own origin (decision 0038), when the answer carries it:
   * then no files-root call is made for the row. Undefined falls back to the original on the play origin.
   */
  thumbnailUrl?: string;
}

/**
 * A 48-px preview of a game image in the admin's tables: the server's thumbnail when the list carries one,
 * otherwise the original served by the play origin's original view (admins only).
 */
export function GameImageThumb({ gameId, path, version, alt, thumbnailUrl }: GameImageThumbProps) {
  const root = useGameFilesRoot(gameId, thumbnailUrl === undefined);
  const src = thumbnailUrl ?? (root.data ? originalFileUrl(root.data, path, version) : undefined);
  if (src === undefined) return <span className="game-image-thumb d-inline-block" aria-hidden="true" />;
  return (
    <img
      className="game-image-thumb rounded border bg-body-tertiary"
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      width={48}
      height={48}
    />
  );
}

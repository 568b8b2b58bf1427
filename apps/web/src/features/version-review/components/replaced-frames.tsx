import { framesOfSheet, type GameAtlases } from '@reskin/contract';
import { AtlasFrame } from '../../../components/atlas-frame';

interface ReplacedFramesProps {
  /** The sheet's game file id. */
  fileId: number;
  /** The frames the version replaced in it (its version file's `frames`). */
  frames: string[];
  atlases: GameAtlases | undefined;
  /** The game's original sheet and the version's composed one. */
  originalSrc: string | undefined;
  versionSrc: string;
}

/**
 * A version's replaced frames of one sprite sheet, each the original frame (cut from the game's sheet)
 * beside the version's (cut from the version's composed sheet at the same rect).
 */
export function ReplacedFrames({ fileId, frames, atlases, originalSrc, versionSrc }: ReplacedFramesProps) {
  const sheetFrames = framesOfSheet(atlases?.atlases ?? [], fileId).frames;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-3 mb-0" aria-label="Replaced frames">
      {frames.map((name) => {
        const frame = sheetFrames.get(name);
        return (
          <li key={name} className="border rounded p-2" data-testid="replaced-frame" data-frame={name}>
            <div className="small fw-semibold text-break mb-1">{name}</div>
            {!frame ? (
              <span className="small text-body-secondary">
                {atlases ? 'The sheet no longer has this frame.' : '…'}
              </span>
            ) : (
              <div className="d-flex gap-2">
                {[
                  { caption: 'Original', src: originalSrc },
                  { caption: 'Version', src: versionSrc },
                ].map(({ caption, src }) => (
                  <figure key={caption} className="mb-0 text-center">
                    <div
                      className="image-well d-flex align-items-center justify-content-center"
                      style={{ width: 72, height: 72 }}
                    >
                      {src && (
                        <AtlasFrame src={src} frame={frame} size={64} alt={`${caption} frame ${name}`} />
                      )}
                    </div>
                    <figcaption className="small text-body-secondary">{caption}</figcaption>
                  </figure>
                ))}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

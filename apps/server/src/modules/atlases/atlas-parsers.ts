import { looksLikeLibgdxAtlas, parseLibgdxAtlas } from './parsers/libgdx';
import type { ParsedAtlas } from './parsers/shared';
import { parseJsonAtlas } from './parsers/texturepacker-json';
import { parseXmlAtlas } from './parsers/xml';

/**
 * The sprite sheet descriptor parsers (decision 0028). Each reads one format into the contract's atlas
 * model (packages/contract/src/atlases.ts): pages by the image name the descriptor writes (resolved against the
 * game later, atlas-resolution.ts) and frames in top-left pixel coordinates. A file is recognised by its content,
 * not its name: `parseAtlasDescriptor` answers null for a file that is no descriptor, and throws AtlasError, with
 * why, for one that is a descriptor but cannot be read.
 *
 * Rotation: TexturePacker (JSON), Starling and Cocos2d store a rotated sprite turned 90° clockwise; libGDX and
 * Spine turn it 90° counter-clockwise (their `rotate: true`, or `rotate: <degrees>` counter-clockwise). The model
 * keeps the clockwise turn (`rotation`).
 */

export { AtlasError, type ParsedAtlas, type ParsedPage } from './parsers/shared';

/**
 * Reads a file's text as a sprite sheet descriptor of any supported format. Null: it is no descriptor (a JSON of
 * other data, an XML of another kind, any other text). Throws AtlasError for a descriptor that is malformed.
 */
export function parseAtlasDescriptor(text: string): ParsedAtlas | null {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('{')) return parseJsonAtlas(body);
  if (body.startsWith('<')) return parseXmlAtlas(body);
  if (looksLikeLibgdxAtlas(body)) return parseLibgdxAtlas(body);
  return null;
}

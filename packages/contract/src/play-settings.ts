import { z } from 'zod';

/**
 * A game's two play settings (decision 0022), each `auto` by default: what detection at upload decided
 * from the game's own files, or the admin's choice.
 *
 * - `precompressed`: how the play origin sends a `.gz`/`.br` file. `encoded`: with `Content-Encoding` and the
 *   type of the inner name, so the browser unpacks it (Unity's convention). `stored`: the raw bytes as
 *   `application/gzip` / `application/x-brotli`, for a loader that unpacks them itself (a Godot build gzipped by
 *   its CI, a DecompressionStream or pako).
 * - `isolated`: whether the game needs SharedArrayBuffer (threads), so its play screens and frame are served
 *   cross-origin isolated (COOP and COEP).
 */
export const precompressedSettings = ['auto', 'encoded', 'stored'] as const;
export type PrecompressedSetting = (typeof precompressedSettings)[number];
export const precompressedModes = ['encoded', 'stored'] as const;
export type PrecompressedMode = (typeof precompressedModes)[number];

export const isolatedSettings = ['auto', 'on', 'off'] as const;
export type IsolatedSetting = (typeof isolatedSettings)[number];

/** The play settings fields of a game (the API's game object carries them all). */
export const gamePlaySettingsSchema = z.object({
  /** The admin's choice for pre-compressed files; `auto` follows `precompressedDecided`. */
  precompressed: z.enum(precompressedSettings),
  /** What detection decided from the game's files (whatever the admin chose). */
  precompressedDecided: z.enum(precompressedModes),
  /** Why detection decided so, in a sentence (shown on the game files screen). */
  precompressedReason: z.string(),
  /** The admin's choice for cross-origin isolation; `auto` follows `isolatedDecided`. */
  isolated: z.enum(isolatedSettings),
  /** Whether detection found that the game needs SharedArrayBuffer (whatever the admin chose). */
  isolatedDecided: z.boolean(),
  /** Why detection decided so, in a sentence. */
  isolatedReason: z.string(),
});
export type GamePlaySettings = z.infer<typeof gamePlaySettingsSchema>;

/** How the game's `.gz`/`.br` files are sent: the admin's choice, else what detection decided. */
export function effectivePrecompressed(
  game: Pick<GamePlaySettings, 'precompressed' | 'precompressedDecided'>,
): PrecompressedMode {
  return game.precompressed === 'auto' ? game.precompressedDecided : game.precompressed;
}

/** Whether the game is served cross-origin isolated: the admin's choice, else what detection decided. */
export function effectiveIsolated(game: Pick<GamePlaySettings, 'isolated' | 'isolatedDecided'>): boolean {
  return game.isolated === 'auto' ? game.isolatedDecided : game.isolated === 'on';
}

/** The words the game files screen shows for each choice. */
export const precompressedLabels: Record<PrecompressedSetting, string> = {
  auto: 'Automatic',
  encoded: 'Served encoded (Content-Encoding: the browser unpacks them)',
  stored: 'Served as stored (the game unpacks them itself)',
};
export const isolatedLabels: Record<IsolatedSetting, string> = {
  auto: 'Automatic',
  on: 'On (cross-origin isolated: SharedArrayBuffer and threads)',
  off: 'Off',
};

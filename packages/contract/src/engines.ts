import { emptyTexts } from './messages';

/**
 * The one definition of the game engines the server recognises in a game's files: the names the
 * game object's `engine` takes, and which engines pack their images and sounds inside data files (a Unity
 * .data, a Godot .pck, a Defold archive, an emscripten .data), where an artist has nothing to replace. The
 * server's detection (modules/games/engine-detection.ts) answers one of these names or null; the web app shows
 * the name and, on an empty workbench, packedEngineMessage.
 */
export const gameEngines = {
  Unity: { packed: true },
  Godot: { packed: true },
  Defold: { packed: true },
  emscripten: { packed: true },
  Construct: { packed: false },
  GDevelop: { packed: false },
  PlayCanvas: { packed: false },
  Phaser: { packed: false },
  melonJS: { packed: false },
  'three.js': { packed: false },
  /** Hexi bundles Pixi: named for its own loader (hexi.min.js, a script calling `hexi(`), Pixi otherwise (decision 0052). */
  Hexi: { packed: false },
  Pixi: { packed: false },
} as const satisfies Record<string, { packed: boolean }>;

export type GameEngine = keyof typeof gameEngines;

export const gameEngineNames = Object.keys(gameEngines) as GameEngine[];

/** Whether `engine` (a game's `engine`, possibly null) keeps a game's assets inside packed data files. */
export function isPackedEngine(engine: string | null | undefined): boolean {
  return (
    engine !== null &&
    engine !== undefined &&
    Object.hasOwn(gameEngines, engine) &&
    gameEngines[engine as GameEngine].packed
  );
}

/**
 * What the artist's workbench says instead of an empty list when a game offers nothing to replace: why, for an
 * engine that packs its assets, else plainly that there is nothing (the job's kind: images or sounds).
 */
export function nothingToReplaceMessage(engine: string | null | undefined, kind: 'image' | 'audio'): string {
  if (isPackedEngine(engine)) {
    return `This ${engine} build packs its assets inside its data files; there is nothing to replace here.`;
  }
  return kind === 'image' ? emptyTexts.images : emptyTexts.audioFiles;
}

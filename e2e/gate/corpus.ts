import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The game corpus the gate suite runs over (corpus/README.md): one manifest per game in `corpus/<slug>/corpus.json`.
 * A game's files are its whole build, at `<CORPUS_DIR>/<slug>/build` when CORPUS_DIR is set, else the first of
 * `corpus/<slug>/build` and `../shared/corpus/<slug>/build` (the steering repository's shared folder beside the
 * checkout, as CI has it) that exists, or at the manifest's own `build` folder (relative to the repository) for a game
 * this project ships itself. The builds of
 * public games are not committed (the corpus README says why): a game whose build is not on the machine is skipped.
 */
export interface CorpusAtlas {
  /** The descriptor's path in the build. */
  descriptor: string;
  /** The sheet image the two frames are on. */
  sheet: string;
  format: string;
  sheetSize: [number, number];
  /** A frame the artist replaces, and a frame beside it that must stay as it was (names as the descriptor has them). */
  frame: string;
  neighbour: string;
}

export interface CorpusGame {
  slug: string;
  name: string;
  /** What engine detection must name (the contract's gameEngineNames), or null. */
  engine: string | null;
  /** The start file, relative to the build. */
  index: string;
  atlases: CorpusAtlas[];
  /** One whole image the artist replaces, and one sound; null when the build has none loose. */
  image: string | null;
  sound: string | null;
  draws: { withoutInput: boolean; click: boolean; waitMs: number };
  /** The build's folder on this machine, or undefined when it is not here. */
  buildDir: string | undefined;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const manifests = join(repoRoot, 'corpus');
const buildFolders = process.env.CORPUS_DIR
  ? [process.env.CORPUS_DIR]
  : [manifests, join(repoRoot, '..', 'shared', 'corpus')];

export function corpusGames(): CorpusGame[] {
  return readdirSync(manifests, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(manifests, entry.name, 'corpus.json')))
    .map((entry) => {
      const manifest = JSON.parse(readFileSync(join(manifests, entry.name, 'corpus.json'), 'utf8')) as Omit<
        CorpusGame,
        'slug' | 'buildDir'
      > & { build?: string };
      const candidates = manifest.build
        ? [join(repoRoot, manifest.build)]
        : buildFolders.map((folder) => join(folder, entry.name, 'build'));
      return { ...manifest, slug: entry.name, buildDir: candidates.find((dir) => existsSync(dir)) };
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/** Every file of a build, as paths relative to it with `/`. */
export function buildFiles(buildDir: string): string[] {
  return readdirSync(buildDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(buildDir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

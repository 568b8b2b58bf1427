import {
  GameVersionStatus,
  gameNotReadyMessage,
  isGameReady,
  isPackedEngine,
  messages,
  notesWaitingForArtist,
  nothingToReplaceMessage,
  UserGameType,
  passesUsageFilter,
  versionChangeRefusal,
  type FileUsageFilter,
  type GameFile,
} from '@reskin/contract';
import { useEffect, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { PlayFrame } from '../../../components/play-frame/play-frame';
import Form from 'react-bootstrap/Form';
import { useConfirm } from '../../../components/ui/use-confirm';
import { UsageFilterSelect, usageCounts } from '../../../components/ui/file-usage';
import { DateTime } from '../../../components/ui/date-time';
import { Loading } from '../../../components/ui/loading';
import { ScreenTabs, useTabParam } from '../../../components/ui/screen-tabs';
import { paths } from '../../../config/paths';
import { idsQuery, useIds } from '../../../lib/route-ids';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toasts';
import { useMyVersions, useFinishVersion, useVersionFiles } from '../../../api/versions';
import { useGameAtlases } from '../../../api/atlases';
import { useFileUsage, useGameFiles } from '../../../api/game-files';
import { useVersionPath } from '../../../api/play';
import { useVersionNotes } from '../../../api/review';
import { useMyGame } from '../../../api/user-games';
import { replaceableKind } from '../lib/drop-checks';
import { AudioEditor } from './audio-editor';
import { BatchReplace } from './batch-replace';
import { HelperFilesTab } from './helper-files-tab';
import { ImageEditor } from './image-editor';
import { NoGameChosen } from './no-game-chosen';
import { VersionStateBadges } from './version-state-badges';
import { OpenNotesBadge, ReviewStateBadge, VerdictSummary } from '../../../components/review/review-badges';
import { VersionNotesPanel } from '../../../components/review/version-notes-panel';
import { NotesRefusal } from '../../../components/review/notes-access';
import { useFocusedFile } from '../../../lib/use-focused-file';
import { useFirstScreenShown, useRestOfLists } from '../../../lib/use-first-screen-shown';

/** The workbench tabs after Back (SPEC §2), by their SPEC §3 kinds; the edit-files kind depends on the job. */
const tabs = [
  { key: 'files', label: 'Files', imageOnly: false },
  { key: 'play-version', label: 'Play Your Version', imageOnly: false },
  { key: 'play-skeleton', label: 'Play Skeleton Game', imageOnly: true },
  { key: 'play-original', label: 'Play Original Game', imageOnly: false },
  { key: 'helper-files', label: 'Helper Files', imageOnly: true },
] as const;
type TabKey = (typeof tabs)[number]['key'];

const isImage = (file: GameFile) => replaceableKind(file) === 'image';
const isAudio = (file: GameFile) => replaceableKind(file) === 'audio';

/**
 * The editor for the files the job may replace, or, when a build packs its assets inside its data files (a
 * Unity, Godot, Defold or emscripten game) and so offers none, why there is nothing here.
 */
function FilesToReplace({
  files,
  whole,
  engine,
  kind,
  children,
}: {
  files: GameFile[];
  /** Every file of the game is in (decision 0063): none of a kind in the first page says nothing yet. */
  whole: boolean;
  engine: string | null;
  kind: 'image' | 'audio';
  children: (files: GameFile[]) => ReactNode;
}) {
  if (files.length === 0 && !whole) return <Loading />;
  if (files.length === 0 && isPackedEngine(engine)) {
    return (
      <Alert variant="info" className="mb-0" data-testid="nothing-to-replace">
        {nothingToReplaceMessage(engine, kind)}
      </Alert>
    );
  }
  return children(files);
}

interface WorkbenchProps {
  /** The tab shown when the URL names none: Files on the workbench route, Play Your Version on the play route. */
  defaultTab: TabKey;
}

/** A read that failed while quiet (before the assignment was known) is asked again once it is, so its failure toasts. */
function useAskedAgainOnceAssigned(
  assigned: boolean,
  { isError, refetch }: { isError: boolean; refetch: () => Promise<unknown> },
) {
  useEffect(() => {
    if (assigned && isError) void refetch();
  }, [assigned, isError, refetch]);
}

/**
 * The artist's workbench for one version (SPEC §2 Workbench): the image or audio editor, the play tabs in the
 * sandboxed frame with 'I Finished My Game' (asked first; a Finished version says when instead), and the
 * helper files. The ids and the tab live in the query
 * string, so a reload or a pasted link opens the same view.
 */
export function Workbench({ defaultTab }: WorkbenchProps) {
  const { userGameId, versionId, gameId } = useIds();
  const myGame = useMyGame(userGameId);
  const userGame = myGame.userGame?.gameId === gameId ? myGame.userGame : undefined;
  const versions = useMyVersions(gameId, userGameId);
  const version = versions.data?.find((item) => item.id === versionId);
  const imageGame = userGame?.userGameTypeId !== UserGameType.SoundReplace;
  const visibleTabs = tabs.filter((tab) => imageGame || !tab.imageOnly);
  const [tab, choose] = useTabParam(visibleTabs, defaultTab);
  const playing = tab.startsWith('play-');
  // On a play tab the game comes first: the Files tab's reads wait for its frame's load, so they do not compete
  // with the game's start; once asked for, they stay (decision 0065).
  const [frameLoaded, setFrameLoaded] = useState(false);
  const filesGameId = !playing || frameLoaded ? gameId : null;
  // The game's files and their usage are asked for at once with the link's game id, beside the assignment and the
  // version rather than after them: they are a big game's longest reads (1,500 files). Until the assignment
  // shows the game is the artist's, a refusal is quiet (the page says the version cannot be opened); one that came
  // while quiet is asked again once it is known, so a real failure still shows its toast.
  // Each list's first page first, the rest once the first cards are shown (decision 0063).
  const [rest, allowRest] = useRestOfLists();
  const gameFiles = useGameFiles(filesGameId, { quiet: !userGame, rest });
  const versionFiles = useVersionFiles(version && filesGameId !== null ? versionId : null, gameId, { rest });
  // Asked for once as the screen opens; the cards' Notes buttons read it (useVersionNotes' `fromScreen`).
  useVersionNotes(version && filesGameId !== null ? versionId : null);
  // Play URLs only for a Ready game: the server's 409 for any other would toast what the page already says (a game
  // being prepared, or one that could not be: decision 0052).
  const playPaths = useVersionPath(
    version && userGame && isGameReady(userGame.game) ? versionId : null,
    gameId,
  );
  const finishCall = useFinishVersion();
  const session = useSession();
  const { confirm, dialog } = useConfirm();
  // Which files plays load: a filter and an order over the cards, and a badge on each.
  const fileUsage = useFileUsage(filesGameId, { quiet: !userGame, rest });
  useAskedAgainOnceAssigned(userGame !== undefined, gameFiles);
  useAskedAgainOnceAssigned(userGame !== undefined, fileUsage);
  const [usageFilter, setUsageFilter] = useState<FileUsageFilter>('all');
  const [order, setOrder] = useState<'path' | 'loads'>('path');

  // The game's sprite sheets: a sheet's card shows its frames, each replaceable on its own.
  const atlases = useGameAtlases(userGame && imageGame ? filesGameId : null);
  const current = visibleTabs.find((item) => item.key === tab) ?? visibleTabs[0];

  const loading = myGame.isLoading || versions.isLoading;
  const missing = !loading && (!userGame || !version);
  const game = userGame?.game;
  // A game not Ready yet: no play and no 'I Finished My Game', and the artist reads that it is being prepared.
  const ready = game !== undefined && isGameReady(game);
  // A locked or disabled version is read-only for its artist: the drop areas, Restore original and
  // 'I Finished My Game' give way to the reason (the server refuses them too).
  const readOnlyReason = version ? versionChangeRefusal(session, version, 'upload')?.message : undefined;
  const mayFinish = version !== undefined && versionChangeRefusal(session, version, 'finish') === null;
  const replaced = new Map((versionFiles.data ?? []).map((file) => [file.fileId, file]));
  const playUrls: Partial<Record<TabKey, string>> = playPaths.data
    ? {
        'play-version': playPaths.data.orjFile,
        'play-skeleton': playPaths.data.emtFile,
        'play-original': playPaths.data.wtmFile,
      }
    : {};
  const src = playUrls[tab];
  const Editor = imageGame ? ImageEditor : AudioEditor;
  const editable = (gameFiles.data ?? []).filter(imageGame ? isImage : isAudio);
  const usage = new Map((fileUsage.data ?? []).map((file) => [file.fileId, file]));
  const loadsOf = (file: GameFile) => usage.get(file.fileId)?.loads ?? 0;
  const shown = editable
    .filter((file) => passesUsageFilter(usage.get(file.fileId), usageFilter))
    .sort((a, b) => (order === 'loads' ? loadsOf(b) - loadsOf(a) : 0) || a.path.localeCompare(b.path));

  // A link from the inbox names a file's card (`?fileId=`): the editor scrolls to it and opens its notes.
  const focusedFileId = useFocusedFile();
  const cardsShown = gameFiles.data !== undefined && versionFiles.data !== undefined && !!playPaths.data;
  // The counts, the emptiness and the order of the whole game wait for the rest; a link's file may be in it.
  const whole = gameFiles.complete && versionFiles.complete && fileUsage.complete;
  useFirstScreenShown(
    { ready: cardsShown, pictures: imageGame && editable.length > 0, now: focusedFileId !== null },
    allowRest,
  );
  const finished = version?.gameVersionStatusId === GameVersionStatus.Finished;
  // Finished again after the reviewer asked for changes: the version goes back to review.
  const mayFinishNow = !finished || version?.reviewState === 'changes_requested';

  const finish = async () => {
    if (!version || !(await confirm(messages.confirmFinishVersion, { confirmVariant: 'success' }))) return;
    finishCall.mutate(version.id, {
      onSuccess: () => notifySuccess(messages.informed),
      // The client has toasted the server's reason.
    });
  };

  return (
    <Card>
      <Card.Header>
        <ScreenTabs
          backTo={`${paths.myGameVersions}?${idsQuery({ userGameId })}`}
          tabs={visibleTabs}
          active={tab}
          onSelect={choose}
          label="Workbench"
        />
      </Card.Header>
      <Card.Body role="tabpanel" aria-label={current?.label} className="overflow-auto">
        {loading && <Loading />}
        {missing &&
          (userGameId === null ? (
            <NoGameChosen />
          ) : (
            <p className="mb-0">This version cannot be opened: it is not one of your versions.</p>
          ))}
        {game && version && (
          <NotesRefusal value={versionChangeRefusal(session, version, 'note')?.message}>
            <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
              <h1 className="fs-5 mb-0">
                {game.name}: {version.name}
              </h1>
              <VersionStateBadges version={version} />
              <ReviewStateBadge state={version.reviewState} />
              <OpenNotesBadge count={notesWaitingForArtist(version)} />
              {finished && (
                <span className="text-success fw-semibold">
                  Finished on <DateTime value={version.finishedAt} />
                </span>
              )}
              {mayFinishNow && playing && mayFinish && ready && (
                <Button variant="success" onClick={() => void finish()} disabled={finishCall.isPending}>
                  I Finished My Game
                </Button>
              )}
            </div>
            <VerdictSummary review={version} />
            {readOnlyReason && <Alert variant="warning">{readOnlyReason}</Alert>}
            {tab === 'files' && <VersionNotesPanel versionId={version.id} />}
            {tab === 'files' && (gameFiles.isLoading || versionFiles.isLoading || playPaths.isLoading) && (
              <Loading />
            )}
            {tab === 'files' && gameFiles.data && playPaths.data && versionFiles.data && (
              <FilesToReplace
                files={editable}
                whole={gameFiles.complete}
                engine={game.engine}
                kind={imageGame ? 'image' : 'audio'}
              >
                {() => (
                  <>
                    {/* Replace from a folder or a zip: images and sounds alike; not on a read-only version. */}
                    {editable.length > 0 && !readOnlyReason && (
                      <BatchReplace versionId={version.id} playPaths={playPaths.data} />
                    )}
                    {editable.length > 0 && (
                      <div
                        className="d-flex flex-wrap align-items-center gap-3 mb-3"
                        aria-label="Usage in play"
                        role="group"
                      >
                        <UsageFilterSelect
                          value={usageFilter}
                          onChange={setUsageFilter}
                          counts={
                            whole
                              ? usageCounts(
                                  editable.map((file) => file.fileId),
                                  usage,
                                )
                              : undefined
                          }
                        />
                        <Form.Group className="d-flex align-items-center gap-2">
                          <Form.Label htmlFor="workbench-order" className="mb-0 text-nowrap">
                            Sort by
                          </Form.Label>
                          <Form.Select
                            id="workbench-order"
                            size="sm"
                            value={order}
                            onChange={(event) => setOrder(event.target.value === 'loads' ? 'loads' : 'path')}
                          >
                            <option value="path">Path</option>
                            <option value="loads">Most loaded in play</option>
                          </Form.Select>
                        </Form.Group>
                      </div>
                    )}
                    <Editor
                      versionId={version.id}
                      files={editable}
                      shown={shown}
                      usage={usage}
                      replaced={replaced}
                      playPaths={playPaths.data}
                      readOnlyReason={readOnlyReason}
                      atlases={atlases.data?.atlases}
                      focusedFileId={focusedFileId}
                    />
                    {!whole && <Loading label="Loading the rest of the files..." />}
                  </>
                )}
              </FilesToReplace>
            )}
            {tab === 'files' && !ready && (
              <p className="mb-0">{gameNotReadyMessage(session.roleTypeId, game)}</p>
            )}
            {tab === 'files' && ready && (playPaths.isError || gameFiles.isError) && (
              <p className="mb-0">The game&apos;s files cannot be shown.</p>
            )}
            {playing && playPaths.isLoading && <Loading />}
            {playing && src && (
              <PlayFrame
                key={tab}
                src={src}
                title={`${game.name}: ${current?.label ?? ''}`}
                gameWidth={game.width}
                gameHeight={game.height}
                isolated={playPaths.data?.isolated ?? false}
                onLoad={() => setFrameLoaded(true)}
              />
            )}
            {playing && !ready && <p className="mb-0">{gameNotReadyMessage(session.roleTypeId, game)}</p>}
            {playing && ready && playPaths.isError && <p className="mb-0">This game cannot be played yet.</p>}
            {tab === 'helper-files' && gameId !== null && <HelperFilesTab gameId={gameId} />}
          </NotesRefusal>
        )}
      </Card.Body>
      {dialog}
    </Card>
  );
}

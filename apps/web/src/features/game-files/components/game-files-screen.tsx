import {
  atlasTexts,
  emptyTexts,
  fileUsageFilters,
  isGameReady,
  messages,
  sheetsOf,
  usageFilterWhere,
  validationMessages,
  type FileUsageFilter,
  type GameFile,
} from '@reskin/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useSearchParams } from 'react-router';
import { ListSearch } from '../../../components/lists/list-controls';
import { listQueryKeys, useListParams } from '../../../components/lists/use-list-params';
import { UsageFilterSelect } from '../../../components/ui/file-usage';
import { useConfirm } from '../../../components/ui/use-confirm';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useGameIdParam } from '../../../lib/game-id-param';
import { useFirstScreenShown, useRestOfLists } from '../../../lib/use-first-screen-shown';
import { failureTitle } from '../../../lib/failure-titles';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import {
  useDeleteGameFile,
  useFileUsage,
  useGameFilesPage,
  useIndexFile,
  useSetIndexFile,
  useSetSplashFile,
} from '../../../api/game-files';
import { isGenerating, useGame, useGenerateGame } from '../../../api/games';
import { useGameAtlases, useRemoveGrid } from '../../../api/atlases';
import { GridDialog } from './grid-dialog';
import { gridOfAtlas } from '../../../lib/sheets';
import { statusText } from '../../../lib/game-status';
import { useUploadBatch } from '../hooks/use-upload-batch';
import { fileItem } from '../../../lib/upload-item';
import { GameFilesTable, gameFileSortColumns, type GameFileActionKind } from './game-files-table';
import { HelperFilesSection } from './helper-files-section';
import { PlaySettingsSection } from './play-settings-section';
import { UploadPanel } from './upload-panel';

function BackToGames() {
  return (
    <Link to={paths.games} className="btn btn-outline-secondary btn-sm">
      Back to games
    </Link>
  );
}

/** Admin game files (SPEC §2) of the game in `?gameId=`. */
export function GameFilesScreen() {
  const gameId = useGameIdParam();
  if (gameId === null) {
    return (
      <Alert variant="warning">
        <p>No game is chosen. Open a game&apos;s files from the games list.</p>
        <BackToGames />
      </Alert>
    );
  }
  // Keyed so moving to another game's files starts from a clean screen.
  return <GameFiles key={gameId} gameId={gameId} />;
}

function GameFiles({ gameId }: { gameId: number }) {
  const game = useGame(gameId);
  // The usage filter lives in the URL beside the search, and a new one starts again at page 1.
  const [query, setQuery] = useSearchParams();
  const usageFilter: FileUsageFilter =
    fileUsageFilters.find(({ key }) => key === query.get('usage'))?.key ?? 'all';
  const chooseUsage = (next: FileUsageFilter) =>
    setQuery(
      (current) => {
        const changed = new URLSearchParams(current);
        changed.delete(listQueryKeys.page);
        if (next === 'all') changed.delete('usage');
        else changed.set('usage', next);
        return changed;
      },
      { replace: true },
    );
  const list = useListParams({
    searchColumns: ['path'],
    sortColumns: gameFileSortColumns,
    where: usageFilterWhere(usageFilter),
  });
  // The table's page of files comes by itself; the usage of every file, first page first and the rest once the
  // table is shown (decision 0063): the first page by path holds the default first page of the table.
  const [rest, allowRest] = useRestOfLists();
  const usage = useFileUsage(gameId, { rest });
  const files = useGameFilesPage(gameId, list.params);
  useFirstScreenShown(
    {
      ready: files.data !== undefined && usage.data !== undefined,
      pictures: (files.data?.items ?? []).some((file) => file.previews?.thumbnail),
    },
    allowRest,
  );
  const indexCall = useSetIndexFile();
  const indexFile = useIndexFile(gameId);
  const splashCall = useSetSplashFile();
  const deleteCall = useDeleteGameFile();
  const generateCall = useGenerateGame();
  const { state: uploadState, upload, uploadZip, retry, dismissErrors } = useUploadBatch(gameId);
  const { confirm, dialog } = useConfirm();
  // Sprite sheets: the badges, the descriptors that failed, and the grids declared here.
  const atlases = useGameAtlases(gameId);
  const removeGridCall = useRemoveGrid();
  const [gridFor, setGridFor] = useState<GameFile | null>(null);

  const findSheets = async () => {
    const found = await atlases.refetch();
    if (found.data)
      notifySuccess(
        atlasTexts.found(
          found.data.atlases.length,
          found.data.problems.filter((problem) => !problem.used).length,
        ),
      );
  };

  const gridAtlasOf = (file: GameFile) =>
    sheetsOf(atlases.data?.atlases ?? [], file.fileId).find((sheet) => sheet.atlas.format === 'grid')?.atlas;

  const act = async (kind: GameFileActionKind, file: GameFile) => {
    const ref = { gameId, fileId: file.fileId };
    if (kind === 'index') {
      // Another start file for a Ready game is asked first, naming the current and the new one.
      const current = indexFile.data;
      const switching = game.data && isGameReady(game.data) && current && current.fileId !== file.fileId;
      if (
        !switching ||
        (await confirm(messages.confirmSwitchIndex(current.path, file.path), { confirmVariant: 'primary' }))
      )
        indexCall.mutate(ref);
    } else if (kind === 'grid') {
      setGridFor(file);
    } else if (kind === 'removeGrid') {
      if (await confirm(atlasTexts.confirmRemoveGrid(file.path)))
        removeGridCall.mutate(ref, { onSuccess: () => notifySuccess(atlasTexts.gridRemoved(file.path)) });
    } else if (kind === 'splash') {
      splashCall.mutate(ref, {
        onSuccess: () => notifySuccess(messages.splashUpdated),
      });
    } else if (await confirm(messages.confirmDeleteFile)) {
      deleteCall.mutate(ref, { onSuccess: () => notifySuccess(messages.fileDeleted) });
    }
  };

  const replace = (file: GameFile, chosen: File[]) => {
    const [only] = chosen;
    if (chosen.length !== 1 || !only) {
      notifyError(failureTitle({ action: 'upload' }), validationMessages.multipleFilesNotAllowed);
      return;
    }
    void upload([fileItem(only, file.path)]);
  };

  // 'Gen.' as on the games list: makes every image's copies again; the status follows the generation.
  const generate = () =>
    generateCall.mutate(gameId, { onSuccess: () => notifySuccess(messages.gameFilesGenerating) });

  if (game.isPending) return <Loading />;
  if (game.isError) {
    return (
      <Alert variant="danger">
        <p>The game could not be loaded.</p>
        <BackToGames />
      </Alert>
    );
  }

  const rows = files.data?.items ?? [];
  const gridAtlas = gridFor ? gridAtlasOf(gridFor) : undefined;
  const total = files.data?.total ?? 0;

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <BackToGames />
        <h1 className="fs-4 mb-0">Game files of {game.data.name}</h1>
        <span className="text-body-secondary" data-testid="game-status">
          Status: {statusText(game.data)}
        </span>
        <Button
          size="sm"
          variant="outline-secondary"
          title="Generate the game files"
          disabled={generateCall.isPending || isGenerating(game.data)}
          onClick={generate}
        >
          Gen.
        </Button>
        <span className="text-body-secondary" data-testid="game-engine">
          Engine: {game.data.engine ?? 'not recognised'}
        </span>
      </div>
      <UploadPanel
        state={uploadState}
        onUpload={(items) => void upload(items)}
        onUploadZip={(file) => void uploadZip(file)}
        onRetry={() => void retry()}
        onDismissErrors={dismissErrors}
      />
      <PlaySettingsSection game={game.data} />
      <GameFilesTable
        frame={{
          title: { text: 'Game Files', total: files.data?.total, as: 'h2' },
          toolbar: (
            <>
              <div className="d-flex flex-wrap align-items-start gap-3">
                <div className="flex-grow-1">
                  <ListSearch list={list} label="Search by path" />
                </div>
                <UsageFilterSelect value={usageFilter} onChange={chooseUsage} />
                <Button
                  variant="outline-secondary"
                  disabled={atlases.isFetching}
                  onClick={() => void findSheets()}
                  title="Read the game's files again for sprite sheet descriptors"
                >
                  Find sprite sheets
                </Button>
              </div>
              {atlases.data && atlases.data.problems.length > 0 && (
                <Alert variant="warning" className="small" data-testid="sheet-problems">
                  <ul className="mb-0 ps-3">
                    {atlases.data.problems.map((problem) => (
                      <li key={`${problem.fileId}-${problem.problem}`}>
                        <code>{problem.path}</code>: {atlasTexts.problemLine(problem)}
                      </li>
                    ))}
                  </ul>
                </Alert>
              )}
            </>
          ),
          status: files.status,
          busy: files.isFetching,
          emptyText: emptyTexts.gameFiles,
          pager: { list, total },
        }}
        files={rows}
        usage={usage.data}
        atlases={atlases.data}
        list={list}
        busy={uploadState.running}
        onAction={act}
        onReplace={replace}
      />
      <HelperFilesSection gameId={gameId} />
      {dialog}
      <GridDialog
        image={
          gridFor && gridFor.width !== null && gridFor.height !== null
            ? {
                gameId,
                fileId: gridFor.fileId,
                path: gridFor.path,
                width: gridFor.width,
                height: gridFor.height,
              }
            : null
        }
        current={gridAtlas ? gridOfAtlas(gridAtlas) : null}
        onClose={() => setGridFor(null)}
      />
    </>
  );
}

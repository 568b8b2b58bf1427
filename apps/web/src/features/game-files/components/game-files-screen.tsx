import { emptyTexts, gameStatusName, messages, validationMessages, type GameFile } from '@reskin/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useGameIdParam } from '../../../lib/game-id-param';
import { notifyError, notifySuccess } from '../../../lib/toasts';
import { useDeleteGameFile, useGameFiles, useSetIndexFile, useSetSplashFile } from '../../../api/game-files';
import { useGame } from '../../../api/games';
import { useUploadBatch } from '../hooks/use-upload-batch';
import { GameFilesTable, type GameFileActionKind } from './game-files-table';
import { HelperFilesSection } from './helper-files-section';
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
  const files = useGameFiles(gameId);
  const indexCall = useSetIndexFile();
  const splashCall = useSetSplashFile();
  const deleteCall = useDeleteGameFile();
  const { state: uploadState, upload, uploadZip, dismissErrors } = useUploadBatch(gameId);
  const [deleting, setDeleting] = useState<GameFile | null>(null);
  const [confirming, setConfirming] = useState(false);

  const act = (kind: GameFileActionKind, file: GameFile) => {
    const ref = { gameId, fileId: file.fileId };
    if (kind === 'index') {
      indexCall.mutate(ref);
    } else if (kind === 'splash') {
      splashCall.mutate(ref, {
        onSuccess: () => notifySuccess(messages.splashUpdated),
      });
    } else {
      setDeleting(file);
      setConfirming(true);
    }
  };

  const replace = (file: GameFile, chosen: File[]) => {
    const [only] = chosen;
    if (chosen.length !== 1 || !only) {
      notifyError('Replace', validationMessages.multipleFilesNotAllowed);
      return;
    }
    void upload([{ file: only, fullPath: file.path }]);
  };

  const confirmDelete = () => {
    setConfirming(false);
    if (!deleting) return;
    deleteCall.mutate(
      { gameId, fileId: deleting.fileId },
      { onSuccess: () => notifySuccess(messages.fileDeleted) },
    );
  };

  if (game.isPending) return <Loading />;
  if (game.isError) {
    return (
      <Alert variant="danger">
        <p>The game could not be loaded.</p>
        <BackToGames />
      </Alert>
    );
  }

  // Sorted by path so folders stay together.
  const list = [...(files.data ?? [])].sort((a, b) => a.path.localeCompare(b.path));

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <BackToGames />
        <h1 className="fs-4 mb-0">Game files of {game.data.name}</h1>
        <span className="text-body-secondary">Status: {gameStatusName(game.data.gameStatusTypeId)}</span>
      </div>
      <UploadPanel
        state={uploadState}
        onUpload={(items) => void upload(items)}
        onUploadZip={(file) => void uploadZip(file)}
        onDismissErrors={dismissErrors}
      />
      <Card>
        <Card.Header as="h2" className="fs-5">
          Game Files ({list.length})
        </Card.Header>
        <Card.Body>
          {files.isPending && <Loading />}
          {files.isSuccess && list.length === 0 && <p className="mb-0">{emptyTexts.gameFiles}</p>}
          {list.length > 0 && (
            <GameFilesTable files={list} busy={uploadState.running} onAction={act} onReplace={replace} />
          )}
        </Card.Body>
      </Card>
      <HelperFilesSection gameId={gameId} />
      <ConfirmDialog
        show={confirming}
        question={messages.confirmDeleteFile}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      />
    </>
  );
}

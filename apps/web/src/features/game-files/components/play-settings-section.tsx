import {
  effectiveIsolated,
  effectivePrecompressed,
  isolatedLabels,
  isolatedSettings,
  precompressedLabels,
  precompressedSettings,
  type Game,
  type IsolatedSetting,
  type PrecompressedSetting,
} from '@reskin/contract';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useUpdatePlaySettings } from '../../../api/games';
import { notifySuccess } from '../../../lib/toasts';

const modeWords = { encoded: 'served encoded', stored: 'served as stored' } as const;

/**
 * The game's play settings (decision 0022): how its pre-compressed files are sent and whether it is
 * served cross-origin isolated. Each says what automatic decided from the files, and why; the admin can choose.
 */
export function PlaySettingsSection({ game }: { game: Game }) {
  const update = useUpdatePlaySettings();
  const save = (change: { precompressed?: PrecompressedSetting; isolated?: IsolatedSetting }) =>
    update.mutate(
      {
        id: game.id,
        body: {
          name: game.name,
          description: game.description,
          width: game.width,
          height: game.height,
          gameStatusTypeId: game.gameStatusTypeId,
          isActive: game.isActive,
          imagePath: game.imagePath,
          rootPath: game.rootPath,
          ...change,
        },
      },
      { onSuccess: () => notifySuccess('Play settings saved.') },
    );

  return (
    <Card className="mb-4">
      <Card.Header as="h2" className="fs-5">
        Play settings
      </Card.Header>
      <Card.Body className="d-grid gap-3">
        <Form.Group controlId="play-precompressed">
          <Form.Label className="fw-semibold">Pre-compressed files (.gz, .br)</Form.Label>
          <Form.Select
            value={game.precompressed}
            disabled={update.isPending}
            onChange={(event) => save({ precompressed: event.target.value as PrecompressedSetting })}
          >
            {precompressedSettings.map((value) => (
              <option key={value} value={value}>
                {value === 'auto'
                  ? `Automatic (${modeWords[game.precompressedDecided]})`
                  : precompressedLabels[value]}
              </option>
            ))}
          </Form.Select>
          <Form.Text as="p" className="mb-0" data-testid="precompressed-decision">
            Now {modeWords[effectivePrecompressed(game)]}. Automatic decided{' '}
            {modeWords[game.precompressedDecided]}: {game.precompressedReason}
          </Form.Text>
        </Form.Group>
        <Form.Group controlId="play-isolated">
          <Form.Label className="fw-semibold">Cross-origin isolation (SharedArrayBuffer, threads)</Form.Label>
          <Form.Select
            value={game.isolated}
            disabled={update.isPending}
            onChange={(event) => save({ isolated: event.target.value as IsolatedSetting })}
          >
            {isolatedSettings.map((value) => (
              <option key={value} value={value}>
                {value === 'auto'
                  ? `Automatic (${game.isolatedDecided ? 'on' : 'off'})`
                  : isolatedLabels[value]}
              </option>
            ))}
          </Form.Select>
          <Form.Text as="p" className="mb-0" data-testid="isolated-decision">
            Now {effectiveIsolated(game) ? 'isolated' : 'not isolated'}. Automatic decided{' '}
            {game.isolatedDecided ? 'on' : 'off'}: {game.isolatedReason}
          </Form.Text>
        </Form.Group>
      </Card.Body>
    </Card>
  );
}

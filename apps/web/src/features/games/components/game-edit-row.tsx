import { zodResolver } from '@hookform/resolvers/zod';
import { limits, updateGameBodySchema, type UpdateGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import type { GameListItem } from '../../../api/games';
import { statusOptions } from '../../../lib/game-status';

type EditGameInput = z.input<typeof updateGameBodySchema>;
type FieldName = 'name' | 'description' | 'width' | 'height' | 'gameStatusTypeId' | 'isActive';

interface GameEditRowProps {
  game: GameListItem;
  busy: boolean;
  onSave: (body: UpdateGameBody) => void;
  onCancel: () => void;
}

/** A games row in inline edit (SPEC §5 "Edit game"): inputs in the cells, Save and Cancel in Actions. */
export function GameEditRow({ game, busy, onSave, onCancel }: GameEditRowProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<EditGameInput, unknown, UpdateGameBody>({
    resolver: zodResolver(updateGameBodySchema),
    mode: 'onChange',
    defaultValues: {
      name: game.name,
      description: game.description,
      width: game.width,
      height: game.height,
      gameStatusTypeId: game.gameStatusTypeId,
      isActive: game.isActive,
      imagePath: game.imagePath ?? '',
      rootPath: game.rootPath ?? '',
    },
  });
  const { track, error } = useTrackedForm(register, errors);
  // Inline inputs: ids apart from the add form's below.
  const field = (name: FieldName, options?: { valueAsNumber: true }) => ({
    ...track(name, options),
    id: `edit-${name}`,
  });
  const feedback = (message: string | undefined) =>
    message === undefined ? null : (
      <Form.Control.Feedback type="invalid" className="d-block">
        {message}
      </Form.Control.Feedback>
    );

  const save = handleSubmit((body) => onSave(body));

  return (
    <tr>
      {/* The splash column: the splash is picked on the files screen. */}
      <td />
      <td>
        <Form.Control
          size="sm"
          aria-label="Name"
          isInvalid={error('name') !== undefined}
          {...field('name')}
        />
        {feedback(error('name'))}
      </td>
      <td>
        <Form.Control
          size="sm"
          as="textarea"
          rows={2}
          aria-label="Description"
          isInvalid={error('description') !== undefined}
          {...field('description')}
        />
        {feedback(error('description'))}
      </td>
      <td>
        <Form.Control
          size="sm"
          type="number"
          min={limits.game.minWidth}
          aria-label="Width"
          isInvalid={error('width') !== undefined}
          {...field('width', { valueAsNumber: true })}
        />
        {feedback(error('width'))}
      </td>
      <td>
        <Form.Control
          size="sm"
          type="number"
          min={limits.game.minHeight}
          aria-label="Height"
          isInvalid={error('height') !== undefined}
          {...field('height', { valueAsNumber: true })}
        />
        {feedback(error('height'))}
      </td>
      <td>
        <Form.Select
          size="sm"
          aria-label="Status"
          isInvalid={error('gameStatusTypeId') !== undefined}
          {...field('gameStatusTypeId', { valueAsNumber: true })}
        >
          {statusOptions(game.gameStatusTypeId).map((option) => (
            <option key={option.id} value={option.id} disabled={option.disabled}>
              {option.name}
            </option>
          ))}
        </Form.Select>
        {feedback(error('gameStatusTypeId'))}
      </td>
      {/* Recognised from the game's files, not edited by hand. */}
      <td>{game.engine ?? <span className="text-body-secondary">Unknown</span>}</td>
      <td>
        <Form.Check type="checkbox" aria-label="Active" {...field('isActive')} />
      </td>
      <td>
        <div className="d-flex flex-wrap gap-1">
          <Button size="sm" onClick={() => void save()} disabled={!isValid || busy}>
            Save
          </Button>
          <Button size="sm" variant="outline-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </div>
      </td>
    </tr>
  );
}

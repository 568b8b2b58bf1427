import { zodResolver } from '@hookform/resolvers/zod';
import { createGameBodySchema, limits, messages, type CreateGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useCreateGame } from '../../../api/games';
import { TextField } from '../../../components/forms/text-field';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { notifySuccess } from '../../../lib/toasts';

type AddGameInput = z.input<typeof createGameBodySchema>;

interface AddGameFormProps {
  /** Called after the game was added, so the parent can start a fresh form. */
  onAdded: () => void;
}

/** The add form below the games list (SPEC §5 "Add game"): all four fields required, Add disabled while invalid. */
export function AddGameForm({ onAdded }: AddGameFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid, isSubmitting },
  } = useForm<AddGameInput, unknown, CreateGameBody>({
    resolver: zodResolver(createGameBodySchema),
    mode: 'onChange',
    defaultValues: { name: '', description: '' },
  });
  const { track, error } = useTrackedForm(register, errors);
  const createCall = useCreateGame();

  // SPEC §8: on failure the client has toasted the server's reason; nothing more is shown.
  const add = handleSubmit((body) =>
    createCall.mutateAsync(body).then(
      () => {
        notifySuccess(messages.gameAdded);
        onAdded();
      },
      () => undefined,
    ),
  );

  return (
    <Form noValidate onSubmit={add} aria-label="Add a game">
      <Row className="g-3">
        <Col md={6}>
          <TextField registration={track('name')} label="Name" className="" error={error('name')} />
        </Col>
        <Col md={3}>
          <TextField
            registration={track('width', { valueAsNumber: true })}
            label="Width"
            type="number"
            min={limits.game.minWidth}
            step={1}
            className=""
            error={error('width')}
          />
        </Col>
        <Col md={3}>
          <TextField
            registration={track('height', { valueAsNumber: true })}
            label="Height"
            type="number"
            min={limits.game.minHeight}
            step={1}
            className=""
            error={error('height')}
          />
        </Col>
        <Col xs={12}>
          <TextField
            registration={track('description')}
            label="Description"
            rows={2}
            className=""
            error={error('description')}
          />
        </Col>
        <Col xs={12}>
          <Button type="submit" disabled={!isValid || isSubmitting}>
            Add
          </Button>
        </Col>
      </Row>
    </Form>
  );
}

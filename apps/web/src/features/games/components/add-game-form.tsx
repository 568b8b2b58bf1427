import { zodResolver } from '@hookform/resolvers/zod';
import { createGameBodySchema, limits, messages, type CreateGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useForm, type RegisterOptions } from 'react-hook-form';
import type { z } from 'zod';
import { useChangedFields, visibleError } from '../../../lib/forms/use-changed-fields';
import { notifySuccess } from '../../../lib/toasts';
import { useCreateGame } from '../../../api/games';

type AddGameInput = z.input<typeof createGameBodySchema>;
type FieldName = keyof AddGameInput;

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
  const { markChanged, isChanged } = useChangedFields<FieldName>();
  const createCall = useCreateGame();

  // register() plus marking the field changed: invalid styling shows only once a field is no longer pristine.
  const field = (name: FieldName, options?: RegisterOptions<AddGameInput, FieldName>) => {
    const registration = register(name, options);
    return {
      ...registration,
      onChange: (event: { target: unknown; type?: unknown }) => {
        markChanged(name);
        return registration.onChange(event);
      },
    };
  };
  const error = (name: FieldName) => visibleError(isChanged(name), errors[name]);

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

  const nameError = error('name');
  const descriptionError = error('description');
  const widthError = error('width');
  const heightError = error('height');

  return (
    <Form noValidate onSubmit={add} aria-label="Add a game">
      <Row className="g-3">
        <Col md={6}>
          <Form.Group controlId="name">
            <Form.Label>Name</Form.Label>
            <Form.Control type="text" isInvalid={nameError !== undefined} {...field('name')} />
            <Form.Control.Feedback type="invalid">{nameError}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={3}>
          <Form.Group controlId="width">
            <Form.Label>Width</Form.Label>
            <Form.Control
              type="number"
              min={limits.game.minWidth}
              step={1}
              isInvalid={widthError !== undefined}
              {...field('width', { valueAsNumber: true })}
            />
            <Form.Control.Feedback type="invalid">{widthError}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col md={3}>
          <Form.Group controlId="height">
            <Form.Label>Height</Form.Label>
            <Form.Control
              type="number"
              min={limits.game.minHeight}
              step={1}
              isInvalid={heightError !== undefined}
              {...field('height', { valueAsNumber: true })}
            />
            <Form.Control.Feedback type="invalid">{heightError}</Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col xs={12}>
          <Form.Group controlId="description">
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              isInvalid={descriptionError !== undefined}
              {...field('description')}
            />
            <Form.Control.Feedback type="invalid">{descriptionError}</Form.Control.Feedback>
          </Form.Group>
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

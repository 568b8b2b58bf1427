import { zodResolver } from '@hookform/resolvers/zod';
import {
  createUserGameBodySchema,
  gameStatusName,
  isGameReady,
  messages,
  UserGameType,
  type CreateUserGameBody,
} from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { searchGames, useGame } from '../../../api/games';
import { useCreateUserGame, useExistingAssignment } from '../../../api/user-games';
import { searchUsers } from '../../../api/users';
import { SelectField, TextField } from '../../../components/forms/text-field';
import { useConfirm } from '../../../components/ui/use-confirm';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { notifySuccess } from '../../../lib/toasts';
import { jobTypeOptions } from '../lib/format';
import { Typeahead } from './typeahead';

type AddUserGameInput = z.input<typeof createUserGameBodySchema>;

interface AddUserGameFormProps {
  /** Called after the assignment was added, so the parent can start a fresh form. */
  onAdded: () => void;
}

/** The add form below the list (SPEC §5 "Add user-game"): every field required, Add disabled while invalid. */
export function AddUserGameForm({ onAdded }: AddUserGameFormProps) {
  const createCall = useCreateUserGame();
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors, isValid },
  } = useForm<AddUserGameInput, unknown, CreateUserGameBody>({
    resolver: zodResolver(createUserGameBodySchema),
    mode: 'onChange',
    defaultValues: { userGameTypeId: UserGameType.ReSkin },
  });
  const { track, error } = useTrackedForm(register, errors);

  const [userId, gameId, userGameTypeId] = watch(['userId', 'gameId', 'userGameTypeId']);
  // One assignment per user, game and job type; the form says so before the server would (409).
  const existing = useExistingAssignment({ userId, gameId, userGameTypeId });
  const duplicate = existing.data
    ? existing.data.isActive
      ? messages.assignmentExists
      : messages.assignmentExistsInactive
    : undefined;
  // A game not Ready yet is assigned only after a question: its artist sees it once it is ready.
  const game = useGame(gameId ?? null);
  const { confirm, dialog } = useConfirm();

  // The client has toasted the server's reason on failure (e.g. another admin assigned the same game meanwhile).
  const add = (body: CreateUserGameBody) =>
    createCall.mutate(body, {
      onSuccess: () => {
        notifySuccess(messages.userGameAdded);
        onAdded();
      },
    });
  const submit = handleSubmit(async (body) => {
    const notReady = game.data && !isGameReady(game.data) ? game.data : null;
    if (
      !notReady ||
      (await confirm(
        messages.confirmAssignNotReady(notReady.name, gameStatusName(notReady.gameStatusTypeId)),
        { confirmVariant: 'primary' },
      ))
    )
      add(body);
  });

  const typeahead = (name: 'userId' | 'gameId', label: string, placeholder: string) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Typeahead
          id={name}
          label={label}
          placeholder={placeholder}
          search={name === 'userId' ? searchUsers : searchGames}
          selected={field.value !== undefined}
          onSelect={(suggestion) => field.onChange(suggestion?.id)}
          error={name === 'gameId' ? duplicate : undefined}
        />
      )}
    />
  );

  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="fs-5">
        Assign a game to a user
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={submit} aria-label="Add user game">
          <Row>
            <Col md={6}>{typeahead('userId', 'User', 'Type a username')}</Col>
            <Col md={6}>{typeahead('gameId', 'Game', 'Type a game name')}</Col>
          </Row>
          <Row>
            <Col md={6}>
              <SelectField
                registration={track('userGameTypeId', { valueAsNumber: true })}
                label="Job Type"
                options={jobTypeOptions}
              />
            </Col>
            <Col md={6}>
              <TextField
                registration={track('jobPrice', { valueAsNumber: true })}
                label="Budget (USD)"
                type="number"
                min={0}
                step="0.01"
                error={error('jobPrice')}
              />
            </Col>
          </Row>
          <Button type="submit" disabled={!isValid || duplicate !== undefined || createCall.isPending}>
            Add
          </Button>
        </Form>
      </Card.Body>
      {dialog}
    </Card>
  );
}

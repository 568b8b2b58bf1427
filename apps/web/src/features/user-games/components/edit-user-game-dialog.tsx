import { zodResolver } from '@hookform/resolvers/zod';
import { messages, updateUserGameBodySchema, type UpdateUserGameBody } from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useUpdateUserGame, type UserGameRow } from '../../../api/user-games';
import { SelectField, TextField } from '../../../components/forms/text-field';
import { useTrackedForm } from '../../../lib/forms/use-changed-fields';
import { notifySuccess, notifyWarning } from '../../../lib/toasts';
import { jobTypeOptions } from '../lib/format';

interface EditUserGameDialogProps {
  /** The row being edited; the dialog mounts with its values. */
  row: UserGameRow;
  onClose: () => void;
}

/** Edit a user-game's job type and budget (its user and game stay). */
export function EditUserGameDialog({ row, onClose }: EditUserGameDialogProps) {
  const updateCall = useUpdateUserGame();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<z.input<typeof updateUserGameBodySchema>, unknown, UpdateUserGameBody>({
    resolver: zodResolver(updateUserGameBodySchema),
    mode: 'onChange',
    // An unknown job type stays invalid until one is chosen.
    defaultValues: {
      userGameTypeId: row.userGameTypeId as UpdateUserGameBody['userGameTypeId'],
      jobPrice: row.jobPrice,
    },
  });
  const { track, error } = useTrackedForm(register, errors);

  // SPEC §8: leaving the editor without saving (Cancel, the close button, Escape) says so.
  const cancel = () => {
    notifyWarning(messages.itemEditingCancelled);
    onClose();
  };

  const save = handleSubmit((body) =>
    updateCall.mutate(
      { id: row.id, body },
      {
        onSuccess: () => {
          notifySuccess(messages.itemEdited);
          onClose();
        },
      },
    ),
  );

  return (
    <Modal show onHide={cancel} centered>
      <Form noValidate onSubmit={save}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="fs-5">
            Edit {row.user?.username ?? `user ${row.userId}`} / {row.game?.name ?? `game ${row.gameId}`}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <SelectField
            registration={track('userGameTypeId', { valueAsNumber: true })}
            id="editUserGameTypeId"
            label="Job Type"
            options={jobTypeOptions}
          />
          <TextField
            registration={track('jobPrice', { valueAsNumber: true })}
            id="editJobPrice"
            label="Budget (USD)"
            type="number"
            min={0}
            step="0.01"
            className=""
            error={error('jobPrice')}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!isValid || updateCall.isPending}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

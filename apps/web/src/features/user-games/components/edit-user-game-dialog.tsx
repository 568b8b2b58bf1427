import { updateUserGameBodySchema, messages } from '@reskin/contract';
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { notifySuccess, notifyWarning } from '../../../lib/toasts';
import { type UserGameRow, useUpdateUserGame } from '../../../api/user-games';
import { jobTypeOptions } from '../lib/format';

interface EditUserGameDialogProps {
  /** The row being edited; the dialog mounts with its values. */
  row: UserGameRow;
  onClose: () => void;
}

/** Edit a user-game's job type and budget (its user and game stay). */
export function EditUserGameDialog({ row, onClose }: EditUserGameDialogProps) {
  const updateCall = useUpdateUserGame();
  const [jobType, setJobType] = useState(String(row.userGameTypeId));
  const [budget, setBudget] = useState(String(row.jobPrice));
  const candidate = updateUserGameBodySchema.safeParse({
    userGameTypeId: Number(jobType),
    jobPrice: budget.trim() === '' ? undefined : Number(budget),
  });
  const budgetError = candidate.error?.issues.find((issue) => issue.path[0] === 'jobPrice')?.message;

  // SPEC §8: leaving the editor without saving (Cancel, the close button, Escape) says so.
  const cancel = () => {
    notifyWarning(messages.itemEditingCancelled);
    onClose();
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!candidate.success) return;
    updateCall.mutate(
      { id: row.id, body: candidate.data },
      {
        onSuccess: () => {
          notifySuccess(messages.itemEdited);
          onClose();
        },
      },
    );
  };

  return (
    <Modal show onHide={cancel} centered>
      <Form noValidate onSubmit={save}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="fs-5">
            Edit {row.user?.username ?? `user ${row.userId}`} / {row.game?.name ?? `game ${row.gameId}`}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group className="mb-3" controlId="editUserGameTypeId">
            <Form.Label>Job Type</Form.Label>
            <Form.Select value={jobType} onChange={(event) => setJobType(event.target.value)}>
              {jobTypeOptions.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="editJobPrice">
            <Form.Label>Budget (USD)</Form.Label>
            <Form.Control
              type="number"
              min={0}
              step="0.01"
              required
              value={budget}
              isInvalid={budgetError !== undefined}
              onChange={(event) => setBudget(event.target.value)}
            />
            {budgetError !== undefined && (
              <Form.Control.Feedback type="invalid">{budgetError}</Form.Control.Feedback>
            )}
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!candidate.success || updateCall.isPending}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

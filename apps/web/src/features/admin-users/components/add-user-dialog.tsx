import { messages, type SignupBody } from '@reskin/contract';
import Modal from 'react-bootstrap/Modal';
import { RegisterForm } from '../../../components/forms/register-form';
import { notifySuccess } from '../../../lib/toasts';
import { useCreateUser } from '../../../api/users';

interface AddUserDialogProps {
  show: boolean;
  onClose: () => void;
}

/**
 * The admin's add user: the register form in a modal, sent to POST /user/create (no signup rate limit; SPEC §7 names
 * POST /user/signup, decision 0004), a success toast naming the new user, and the dialog closes.
 */
export function AddUserDialog({ show, onClose }: AddUserDialogProps) {
  const createCall = useCreateUser();

  // On failure the client has toasted the server's reason (for example EMAIL_EXISTS); the form stays open and
  // shows a refused field (a common password) under that field.
  const add = (body: SignupBody) =>
    createCall.mutateAsync(body).then((user) => {
      notifySuccess(messages.userAdded(user.username));
      onClose();
    });

  return (
    <Modal show={show} onHide={onClose} size="lg">
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="fs-5">
          Add User
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <RegisterForm submitLabel="Add User" onSubmit={add} />
      </Modal.Body>
    </Modal>
  );
}

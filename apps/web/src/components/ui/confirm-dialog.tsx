import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

interface ConfirmDialogProps {
  show: boolean;
  question: string;
  onCancel: () => void;
  onConfirm: () => void;
  /**
   * Red for what destroys or locks out (the default); green for telling the reviewer a version is done; blue for
   * a change that goes ahead as asked (an assignment of a game not Ready yet, another start file).
   */
  confirmVariant?: 'danger' | 'success' | 'primary';
}

/** The confirmation of an action that cannot simply be undone: the question with Cancel and Confirm. */
export function ConfirmDialog({
  show,
  question,
  onCancel,
  onConfirm,
  confirmVariant = 'danger',
}: ConfirmDialogProps) {
  return (
    <Modal show={show} onHide={onCancel} centered>
      <Modal.Header>
        <Modal.Title as="h2" className="fs-5">
          Please confirm
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{question}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant={confirmVariant} onClick={onConfirm}>
          Confirm
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

interface ConfirmDialogProps {
  show: boolean;
  question: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The confirmation of a destructive action: the spec's question with Cancel and Confirm. */
export function ConfirmDialog({ show, question, onCancel, onConfirm }: ConfirmDialogProps) {
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
        <Button variant="danger" onClick={onConfirm}>
          Confirm
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

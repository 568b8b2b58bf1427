import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';

interface PasswordDialogProps {
  /** Whose password was reset, and the new one; null when closed. */
  reset: { username: string; password: string } | null;
  onClose: () => void;
}

/** The admin's newly generated password: stays on screen until closed (the toast closes after 5 s), with Copy. */
export function PasswordDialog({ reset, onClose }: PasswordDialogProps) {
  const titleId = useId();
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  const copy = () =>
    navigator.clipboard.writeText(reset?.password ?? '').then(
      () => setCopied(true),
      () => setCopied(false),
    );

  return (
    <Modal show={reset !== null} onHide={close} centered aria-labelledby={titleId}>
      <Modal.Header>
        <Modal.Title as="h2" className="fs-5" id={titleId}>
          New password of {reset?.username}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form.Label htmlFor="new-password">New password</Form.Label>
        <InputGroup>
          <Form.Control id="new-password" readOnly value={reset?.password ?? ''} className="font-monospace" />
          <Button variant="outline-primary" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </InputGroup>
        <Form.Text>It is shown only now: pass it on to the user before closing.</Form.Text>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface TextFieldProps {
  /** Also the input's name: the contract's field name. */
  registration: UseFormRegisterReturn;
  label: string;
  type?: 'text' | 'email' | 'password';
  placeholder?: string;
  autoComplete?: string;
  /** The message to show; set only once the field is no longer pristine. */
  error?: string;
  /** A visual warning that does not make the field invalid. */
  warning?: boolean;
}

/** A labelled input whose id and name are the field name, with Bootstrap's invalid styling and message. */
export function TextField({
  registration,
  label,
  type = 'text',
  placeholder,
  autoComplete,
  error,
  warning,
}: TextFieldProps) {
  return (
    <Form.Group className="mb-3" controlId={registration.name}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={type}
        placeholder={placeholder}
        autoComplete={autoComplete}
        isInvalid={error !== undefined}
        className={warning ? 'border-danger text-danger' : undefined}
        {...registration}
      />
      {error !== undefined && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
    </Form.Group>
  );
}

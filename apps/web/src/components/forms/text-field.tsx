import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface FieldProps {
  /** Also the input's name: the contract's field name. */
  registration: UseFormRegisterReturn;
  label: string;
  /** The input's id when the name is not unique on the page (a dialog above a form); else the name. */
  id?: string;
  /** The message to show; set only once the field is no longer pristine. */
  error?: string;
  /** The group's classes: Bootstrap's bottom margin unless the layout spaces the fields itself. */
  className?: string;
}

interface TextFieldProps extends FieldProps {
  type?: 'text' | 'email' | 'password' | 'number';
  /** A multi-line description. */
  rows?: number;
  placeholder?: string;
  autoComplete?: string;
  min?: number;
  step?: number | string;
  /** A visual warning that does not make the field invalid. */
  warning?: boolean;
}

/** A labelled input whose id and name are the field name, with Bootstrap's invalid styling and message. */
export function TextField({
  registration,
  label,
  id,
  error,
  className = 'mb-3',
  type = 'text',
  rows,
  warning,
  ...input
}: TextFieldProps) {
  return (
    <Form.Group className={className} controlId={id ?? registration.name}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...(rows === undefined ? { type } : { as: 'textarea', rows })}
        {...input}
        isInvalid={error !== undefined}
        className={warning ? 'border-danger text-danger' : undefined}
        {...registration}
      />
      {error !== undefined && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
    </Form.Group>
  );
}

interface SelectFieldProps extends FieldProps {
  options: readonly { id: number; label: string }[];
}

/** A labelled select of numeric ids (register it with valueAsNumber), styled like TextField. */
export function SelectField({
  registration,
  label,
  id,
  error,
  className = 'mb-3',
  options,
}: SelectFieldProps) {
  return (
    <Form.Group className={className} controlId={id ?? registration.name}>
      <Form.Label>{label}</Form.Label>
      <Form.Select isInvalid={error !== undefined} {...registration}>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </Form.Select>
      {error !== undefined && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
    </Form.Group>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import {
  legalDocuments,
  limits,
  registerFormSchema,
  type RegisterForm as RegisterFormValues,
  type SignupBody,
} from '@reskin/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { legalPagePath } from '../../config/paths';
import { serverFieldErrors } from '../../lib/forms/server-field-errors';
import { useTrackedForm } from '../../lib/forms/use-changed-fields';
import { PhoneInput } from './phone-input';
import { TextField } from './text-field';

type RegisterFormInput = z.input<typeof registerFormSchema>;

/** The data-protection links open their documents in a new tab, so a form half filled in stays as it is. */
const legalLinks = legalDocuments.map(({ document, title }) => (
  <a key={document} href={legalPagePath(document)} target="_blank" rel="noopener">
    {title}
  </a>
));

const emptyForm: Partial<RegisterFormInput> = {
  username: '',
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  phone: '',
};

/** The fields a server's 422 detail may name (its path `/password` is the field `password`). */
const serverCheckedFields = ['username', 'firstName', 'lastName', 'email', 'password', 'phone'] as const;

interface RegisterFormProps {
  submitLabel: string;
  /**
   * Receives the signup body: the form values without the checkbox, plus the regulation version. When it rejects
   * with the server's 422, the details show under their fields (a common password); the caller has
   * already toasted any failure.
   */
  onSubmit: (body: SignupBody) => Promise<void>;
}

/** The registration fields of SPEC §2 (also the admin's add-user form). */
export function RegisterForm({ submitLabel, onSubmit }: RegisterFormProps) {
  const {
    register,
    control,
    handleSubmit,
    trigger,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<RegisterFormInput, unknown, RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    mode: 'onChange',
    defaultValues: emptyForm,
  });
  const { track, markChanged, error } = useTrackedForm(register, errors);

  const submit = handleSubmit(async ({ dataProtection: _accepted, ...fields }) => {
    try {
      await onSubmit({ ...fields, dataProtectionRegulationVersion: limits.dataProtectionRegulationVersion });
    } catch (failure) {
      for (const [field, message] of serverFieldErrors(failure, serverCheckedFields)) {
        markChanged(field);
        setError(field, { type: 'server', message }, { shouldFocus: true });
      }
    }
  });

  const phoneError = error('phone');
  const dataProtectionError = error('dataProtection');

  return (
    <Form noValidate onSubmit={submit}>
      <TextField
        registration={track('username')}
        label="Username"
        autoComplete="username"
        error={error('username')}
      />
      <TextField
        registration={track('firstName')}
        label="Name"
        placeholder="Name"
        error={error('firstName')}
      />
      <TextField
        registration={track('lastName')}
        label="Surname"
        placeholder="Surname"
        error={error('lastName')}
      />
      <TextField
        registration={track('email')}
        label="Email"
        type="email"
        autoComplete="email"
        error={error('email')}
      />
      <TextField
        registration={track('password')}
        label="Password"
        type="password"
        autoComplete="new-password"
        error={error('password')}
      />
      <Form.Group className="mb-3">
        <Form.Label htmlFor="phone">Phone</Form.Label>
        <Controller
          control={control}
          name="phone"
          render={({ field }) => (
            <PhoneInput
              id="phone"
              name={field.name}
              value={field.value}
              inputRef={field.ref}
              onDigitsChange={field.onChange}
              onEdit={() => {
                // A refused letter changes no value, so nothing validated: check the field here, so its
                // message shows instead of a silently disabled Register button.
                markChanged('phone');
                void trigger('phone');
              }}
              onBlur={field.onBlur}
              invalid={phoneError !== undefined}
            />
          )}
        />
        {phoneError !== undefined && (
          <Form.Control.Feedback type="invalid" className="d-block">
            {phoneError}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Form.Group className="mb-3">
        <Form.Check
          id="dataProtection"
          type="checkbox"
          {...track('dataProtection')}
          isInvalid={dataProtectionError !== undefined}
          feedback={dataProtectionError}
          feedbackType="invalid"
          label={
            <>
              I accept the Data Protection Regulation: {legalLinks[0]}, {legalLinks[1]} and {legalLinks[2]}.
            </>
          }
        />
      </Form.Group>
      <Button type="submit" disabled={!isValid || isSubmitting}>
        {submitLabel}
      </Button>
    </Form>
  );
}

import { errorCodes, validationMessages as m, type SignupBody } from '@reskin/contract';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { RegisterForm } from './register-form';

afterEach(cleanup);

function field(id: string): HTMLInputElement {
  const element = document.getElementById(id);
  if (!(element instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
  return element;
}

const isInvalid = (id: string) => field(id).classList.contains('is-invalid');

function renderForm(onSubmit = vi.fn<(body: SignupBody) => Promise<void>>().mockResolvedValue(undefined)) {
  const user = userEvent.setup();
  render(<RegisterForm submitLabel="Register" onSubmit={onSubmit} />);
  return { user, onSubmit, submit: screen.getByRole('button', { name: 'Register' }) };
}

describe('register form validation styling (VAL-7: only once a field is no longer pristine)', () => {
  it('starts invalid and disabled, yet shows no invalid field and no message', () => {
    const { submit } = renderForm();
    expect(submit).toHaveProperty('disabled', true);
    expect(document.querySelectorAll('.is-invalid')).toHaveLength(0);
    expect(screen.queryByText(m.usernameLength)).toBeNull();
  });

  it('focusing and leaving a field without changing it keeps it unstyled', async () => {
    const { user } = renderForm();
    await user.click(field('firstName'));
    await user.tab();
    expect(isInvalid('firstName')).toBe(false);
    expect(screen.queryByText(m.firstName)).toBeNull();
  });

  it('a changed field shows its message; only that field is marked', async () => {
    const { user } = renderForm();
    await user.type(field('username'), 'x');
    await waitFor(() => expect(isInvalid('username')).toBe(true));
    expect(screen.getByText(m.usernameLength)).toBeTruthy();
    expect(document.querySelectorAll('.is-invalid')).toHaveLength(1);
  });

  it('a field typed into and cleared again stays invalid (unlike dirtyFields, which resets)', async () => {
    const { user } = renderForm();
    await user.type(field('lastName'), 'Lovelace');
    await user.clear(field('lastName'));
    await waitFor(() => expect(isInvalid('lastName')).toBe(true));
    expect(screen.getByText(m.lastName)).toBeTruthy();
  });

  it('the pattern message shows for characters outside the allowed set', async () => {
    const { user } = renderForm();
    await user.type(field('username'), 'bad.name!');
    await waitFor(() => expect(screen.getByText(m.usernamePattern)).toBeTruthy());
  });

  it("invisible characters in the username and email show the contract's message", async () => {
    const { user } = renderForm();
    await user.type(field('username'), 'nb\u00a0sp');
    await waitFor(() => expect(isInvalid('username')).toBe(true));
    await user.type(field('email'), 'zero\u200bwidth@example.com');
    await waitFor(() => expect(isInvalid('email')).toBe(true));
    expect(screen.getAllByText(m.unsafeCharacters)).toHaveLength(2);
  });

  it('the phone refuses letters, leaves no mask character behind and says why it is invalid', async () => {
    const { user, submit } = renderForm();
    await user.click(field('phone'));
    await user.keyboard('abc');
    expect(field('phone').value).toBe('');
    await waitFor(() => expect(isInvalid('phone')).toBe(true));
    expect(screen.getByText(m.phone)).toBeTruthy();
    expect(submit).toHaveProperty('disabled', true);
  });

  it('a phone with fewer than 10 digits shows the message; 10 digits clear it', async () => {
    const { user } = renderForm();
    await user.click(field('phone'));
    await user.keyboard('555x12');
    expect(field('phone').value).toBe('(555) 12');
    await waitFor(() => expect(screen.getByText(m.phone)).toBeTruthy());
    await user.keyboard('34567');
    expect(field('phone').value).toBe('(555) 123-4567');
    await waitFor(() => expect(isInvalid('phone')).toBe(false));
    expect(screen.queryByText(m.phone)).toBeNull();
  });

  it('unchecking the data-protection box marks it invalid', async () => {
    const { user } = renderForm();
    await user.click(field('dataProtection'));
    await user.click(field('dataProtection'));
    await waitFor(() => expect(isInvalid('dataProtection')).toBe(true));
    expect(screen.getByText(m.dataProtection)).toBeTruthy();
  });
});

describe('register form submit', () => {
  it('sends the fields with regulation version 1 and without the checkbox, the phone as 10 digits', async () => {
    const { user, onSubmit, submit } = renderForm();
    await user.type(field('username'), 'jane_doe');
    await user.type(field('firstName'), 'Jane');
    await user.type(field('lastName'), 'Doe');
    await user.type(field('email'), 'jane@example.com');
    await user.type(field('password'), 'Passw0rd!');
    await user.click(field('phone'));
    await user.keyboard('5551234567');
    expect(field('phone').value).toBe('(555) 123-4567');
    await user.click(field('dataProtection'));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));

    await user.click(submit);

    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      username: 'jane_doe',
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      password: 'Passw0rd!',
      phone: '5551234567',
      dataProtectionRegulationVersion: 1,
    });
  });
});

describe('register form and the server', () => {
  it("a password the server refuses as common shows the server's message under the password field", async () => {
    const message = m.commonPassword;
    const refused = new ApiError(422, errorCodes.validationFailed, message, {
      error: {
        statusCode: 422,
        name: 'UnprocessableEntityError',
        message: 'The request body is invalid.',
        code: errorCodes.validationFailed,
        details: [{ path: '/password', code: 'common_password', message }],
      },
    });
    const { user, submit } = renderForm(
      vi.fn<(body: SignupBody) => Promise<void>>().mockRejectedValue(refused),
    );
    await user.type(field('username'), 'jane_doe');
    await user.type(field('firstName'), 'Jane');
    await user.type(field('lastName'), 'Doe');
    await user.type(field('email'), 'jane@example.com');
    await user.type(field('password'), 'iloveyou');
    await user.click(field('phone'));
    await user.keyboard('5551234567');
    await user.click(field('dataProtection'));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));

    await user.click(submit);

    await waitFor(() => expect(isInvalid('password')).toBe(true));
    expect(screen.getByText(message)).toBeTruthy();
    expect(document.querySelectorAll('.is-invalid')).toHaveLength(1);
    // Typing another password clears the server's message (the form's own rules take over again).
    await user.type(field('password'), '-and-more');
    await waitFor(() => expect(isInvalid('password')).toBe(false));
    expect(screen.queryByText(message)).toBeNull();
  }, 20_000);
});

import {
  errorCodes,
  messages,
  tokenResponseSchema,
  userSchema,
  type LoginBody,
  type SignupBody,
} from '@reskin/contract';
import { apiParse, type Failure } from '../lib/api-client';
import { useApiMutation } from './mutation';

/**
 * SPEC §8's 'invalid email or password!' for wrong credentials and, with the server's reason under it, for a
 * disabled account (LOG-4); anything else (a 429) is the server's message alone.
 */
function loginFailure({ code }: Failure): string | undefined {
  return code === errorCodes.invalidCredentials || code === errorCodes.accountDisabled
    ? messages.loginFailed
    : undefined;
}

/** POST /user/login. A 401 here is a wrong password, not a lost session: it stays on the login screen. */
export const login = (body: LoginBody) =>
  apiParse(tokenResponseSchema, '/user/login', {
    method: 'POST',
    body,
    logoutOnUnauthorized: false,
    action: 'login',
    failureMessage: loginFailure,
  });

/**
 * SPEC §8: any registration failure says 'email already exists', with the server's reason under it (a taken
 * username says so). A field the server refused (a common password) shows its own rule instead, which
 * the form also shows under its field.
 */
function signupFailure({ code }: Failure): string | undefined {
  return code === errorCodes.validationFailed ? undefined : messages.registerFailed;
}

/** POST /user/signup: self-registration (the admin's Add User uses POST /user/create). */
export const signup = (body: SignupBody) =>
  apiParse(userSchema, '/user/signup', { method: 'POST', body, failureMessage: signupFailure });

export const useLogin = () => useApiMutation(['login'], login);

export const useSignup = () => useApiMutation(['signup'], signup);

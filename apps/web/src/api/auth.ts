import { tokenResponseSchema, userSchema, type LoginBody, type SignupBody } from '@reskin/contract';
import { apiParse } from '../lib/api-client';
import { useApiMutation } from './mutation';

/** POST /user/login. A 401 here is a wrong password, not a lost session: it stays on the login screen. */
export const login = (body: LoginBody) =>
  apiParse(tokenResponseSchema, '/user/login', { method: 'POST', body, logoutOnUnauthorized: false });

/** POST /user/signup: self-registration (the admin's Add User uses POST /user/create). */
export const signup = (body: SignupBody) => apiParse(userSchema, '/user/signup', { method: 'POST', body });

export const useLogin = () => useApiMutation(['login'], login);

export const useSignup = () => useApiMutation(['signup'], signup);

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  deviceCookie,
  idParamSchema,
  loginBodySchema,
  noContentSchema,
  passwordResetResponseSchema,
  roleParamsSchema,
  searchFilterSchema,
  signupBodySchema,
  tokenResponseSchema,
  updatePasswordBodySchema,
  updateUserBodySchema,
  userListResponseSchema,
  userSchema,
} from '@reskin/contract';
import { deviceCookieOptions } from './device-cookies';
import { currentUser } from '../../plugins/auth';
import { sendPage } from '../../search/page';
import type { UsersService } from './users.service';

export interface UsersRoutesOptions {
  users: UsersService;
  /** Login and signup requests per minute per IP. */
  authRateLimitMax: number;
}

const noContent = { 204: noContentSchema };
const ownAccount = { 403: 'The target is your own account (OWN_ACCOUNT).' };
const demoAccount = { 403: 'Demo accounts cannot do this (FORBIDDEN).' };
const tooManyFailures =
  'Too many wrong passwords for this account (at login: from unknown browsers, or from this device cookie): every ' +
  'attempt waits error.retryAfter seconds (also the Retry-After header), even with the right password (RATE_LIMITED).';
const taken = {
  409: 'The email or the username is taken; error.details names which (EMAIL_EXISTS, USERNAME_EXISTS).',
};

/** SPEC §7 "Users and session". Handlers only translate HTTP to service calls. */
export async function usersRoutes(app: FastifyInstance, { users, authRateLimitMax }: UsersRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const authRateLimit = { rateLimit: { max: authRateLimitMax, timeWindow: '1 minute' } };
  const tags = ['users'];

  r.post(
    '/user/login',
    {
      config: authRateLimit,
      schema: {
        tags,
        summary: 'Log in; answers a session token',
        description:
          'Also sets the HttpOnly device cookie (decision 0021): a later login from the same browser with it counts wrong ' +
          'passwords apart from the account, so failures from elsewhere do not slow it.',
        body: loginBodySchema,
        response: { 200: tokenResponseSchema },
        errors: {
          401: 'A wrong email or password, or a disabled account after its right password (INVALID_CREDENTIALS, ACCOUNT_DISABLED).',
          429: tooManyFailures,
        },
      },
    },
    async (request, reply) => {
      const { token, deviceCookie: device } = await users.login(
        request.body.email,
        request.body.password,
        request.cookies[deviceCookie.name],
      );
      reply.setCookie(deviceCookie.name, device, deviceCookieOptions(request.protocol === 'https'));
      return { token };
    },
  );

  r.get(
    '/user/me',
    {
      onRequest: app.requireUser,
      schema: { tags, summary: 'The current user', response: { 200: userSchema } },
    },
    async (request) => currentUser(request),
  );

  r.post(
    '/user/signup',
    {
      config: authRateLimit,
      schema: {
        tags,
        summary: 'Register a regular user',
        body: signupBodySchema,
        response: { 201: userSchema },
        errors: taken,
      },
    },
    async (request, reply) => reply.status(201).send(await users.signup(request.body)),
  );

  r.post(
    '/user/create',
    {
      // The signup itself, for an administrator, so their Add User is never counted against the signup limit.
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary:
          "An admin's Add User: the signup's body, rules and answer, without the login and signup rate limit",
        body: signupBodySchema,
        response: { 201: userSchema },
        errors: taken,
      },
    },
    async (request, reply) => reply.status(201).send(await users.signup(request.body)),
  );

  r.post(
    '/user/list',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Search users (LoopBack-style filter; whitelisted columns only)',
        body: searchFilterSchema,
        response: { 200: userListResponseSchema },
        paged: true,
      },
    },
    async (request, reply) => sendPage(reply, await users.list(request.body)),
  );

  r.get(
    '/user/detail/:id',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'A user (admins, or the user themself)',
        params: idParamSchema,
        response: { 200: userSchema },
        errors: { 403: "Another user's account, and the caller is not an administrator (FORBIDDEN)." },
      },
    },
    async (request) => users.detail(currentUser(request), request.params.id),
  );

  r.delete(
    '/user/delete/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Delete a user (not your own account)',
        params: idParamSchema,
        response: noContent,
        errors: ownAccount,
      },
    },
    async (request, reply) => {
      await users.delete(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.put(
    '/user/role/:id/:roleId',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Change a user's role (not your own)",
        params: roleParamsSchema,
        response: noContent,
        errors: ownAccount,
      },
    },
    async (request, reply) => {
      await users.setRole(currentUser(request), request.params.id, request.params.roleId);
      return reply.status(204).send(null);
    },
  );

  r.delete(
    '/user/disable',
    {
      onRequest: app.requireUser,
      schema: { tags, summary: 'Suspend your own account', response: noContent, errors: demoAccount },
    },
    async (request, reply) => {
      await users.disableOwn(currentUser(request));
      return reply.status(204).send(null);
    },
  );

  r.put(
    '/user/activate/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: 'Re-activate an account (one suspended with DELETE /user/disable); it can log in again',
        params: idParamSchema,
        response: noContent,
      },
    },
    async (request, reply) => {
      await users.activate(request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.put(
    '/user/update',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary:
          'Change your username and email; answers a new token. A new email needs currentPassword and ends every ' +
          'other session, play link and download link of the account',
        body: updateUserBodySchema,
        response: { 200: tokenResponseSchema },
        errors: {
          403: 'A wrong currentPassword for a new email (INVALID_CREDENTIALS, details at /currentPassword), or a demo account (FORBIDDEN).',
          422: 'A new email without currentPassword (VALIDATION_FAILED, details at /currentPassword), or an invalid field.',
          429: tooManyFailures,
          ...taken,
        },
      },
    },
    async (request) => ({ token: await users.updateOwn(currentUser(request), request.body) }),
  );

  r.put(
    '/user/update/password',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary:
          "Admin reset of another user's password ({ userId }: answers the new password once), or a change of your own " +
          '(answers a new token); either ends every earlier session of that user',
        body: updatePasswordBodySchema,
        response: { 200: passwordResetResponseSchema },
        errors: {
          403:
            'A reset by a non-administrator or of your own account (OWN_ACCOUNT), a wrong current password ' +
            '(INVALID_CREDENTIALS), or a demo account (FORBIDDEN).',
          404: 'No user with this userId (NOT_FOUND).',
          429: tooManyFailures,
        },
      },
    },
    async (request) => users.updatePassword(currentUser(request), request.body),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createUserGameBodySchema,
  idParamSchema,
  messageResponseSchema,
  myGamesSchema,
  searchFilterSchema,
  updateUserGameBodySchema,
  userGameListSchema,
  userGameSchema,
} from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import { sendPage } from '../../search/page';
import type { UserGamesService } from './user-games.service';

/** SPEC §7 "User-games". */
export async function userGamesRoutes(app: FastifyInstance, { userGames }: { userGames: UserGamesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['user-games'];
  const admin = { onRequest: app.requireAdmin };

  r.get(
    '/user-games/my-games',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The caller's active assignments, with their games",
        response: { 200: myGamesSchema },
      },
    },
    async (request) => userGames.myGames(currentUser(request)),
  );

  r.get(
    '/user-games',
    {
      ...admin,
      schema: {
        tags,
        summary: 'The newest user-games (one page), with their users and games',
        response: { 200: userGameListSchema },
        paged: true,
      },
    },
    async (_request, reply) =>
      sendPage(reply, await userGames.filter({ include: ['user', 'game'], order: 'id DESC' })),
  );

  r.post(
    '/user-games/filter',
    {
      ...admin,
      schema: {
        tags,
        summary:
          'Search user-games (LoopBack-style filter; include: user, game; also by username, gameName, versionCount, finishedCount, lastFinishedAt)',
        body: searchFilterSchema,
        response: { 200: userGameListSchema },
        paged: true,
      },
    },
    async (request, reply) => sendPage(reply, await userGames.filter(request.body)),
  );

  r.post(
    '/user-games',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Assign a game to a user',
        description: 'One assignment per user, game and job type, active or not.',
        body: createUserGameBodySchema,
        response: { 201: userGameSchema },
        errors: { 409: 'The user already has this game with this job type (ASSIGNMENT_EXISTS).' },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await userGames.create(currentUser(request), request.body)),
  );

  r.put(
    '/user-games/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Edit an assignment',
        params: idParamSchema,
        body: updateUserGameBodySchema,
        response: { 200: userGameSchema },
        errors: {
          409: 'Another assignment of the user has this game with the new job type (ASSIGNMENT_EXISTS).',
        },
      },
    },
    async (request) => userGames.update(request.params.id, request.body),
  );

  r.delete(
    '/user-games/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Delete an assignment and its versions',
        params: idParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await userGames.delete(request.params.id);
      return { message: 'User game deleted.' };
    },
  );

  r.delete(
    '/user-games/:id/changeActivity',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Remove Access / Give Access',
        params: idParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const userGame = await userGames.toggleActivity(request.params.id);
      return { message: userGame.isActive ? 'Access given.' : 'Access removed.' };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  inboxQuerySchema,
  inboxReadBodySchema,
  inboxSchema,
  inboxUnreadSchema,
  limits,
} from '@reskin/contract';
import { currentUser } from '../../plugins/auth';
import type { InboxService } from './inbox.service';

/** The inbox: every logged-in user's own events. */
export async function inboxRoutes(app: FastifyInstance, { inbox }: { inbox: InboxService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['inbox'];
  const user = { onRequest: app.requireUser };

  r.get(
    '/inbox',
    {
      ...user,
      schema: {
        tags,
        summary: `One's inbox: the newest ${limits.inbox.pageSize} events (older ones with ?before=<the last id>) and the unread count`,
        querystring: inboxQuerySchema,
        response: { 200: inboxSchema },
      },
    },
    async (request) => inbox.list(currentUser(request), request.query.before),
  );

  r.post(
    '/inbox/read',
    {
      ...user,
      schema: {
        tags,
        summary: "Mark one's events read (the given ids, or all); answers the unread count",
        body: inboxReadBodySchema,
        response: { 200: inboxUnreadSchema },
      },
    },
    async (request) => inbox.read(currentUser(request), request.body),
  );
}

import { inboxSchema, type InboxReadBody } from '@reskin/contract';
import { useQuery } from '@tanstack/react-query';
import { apiParse, apiRequest } from '../lib/api-client';
import { useApiMutation } from './mutation';

/** How often the bell asks for news while the page is open (and again whenever the window gets focus). */
export const inboxPollMs = 30_000;

export const inboxKeys = {
  all: ['inbox'] as const,
  page: (before: number | null) => [...inboxKeys.all, 'page', before] as const,
};

/** GET /api/inbox: the newest events (or those older than `before`) and the unread count. */
export const getInbox = (before: number | null) =>
  apiParse(inboxSchema, before === null ? '/inbox' : `/inbox?before=${before}`, {
    background: before === null,
  });

/** POST /api/inbox/read: these events (or all of them) are read. */
export const markInboxRead = (body: InboxReadBody) => apiRequest('/inbox/read', { method: 'POST', body });

/** The newest page of the inbox, polled: the bell's count and list. */
export const useInbox = () =>
  useQuery({
    queryKey: inboxKeys.page(null),
    queryFn: () => getInbox(null),
    refetchInterval: inboxPollMs,
    refetchOnWindowFocus: true,
  });

/** An older page of the inbox ("Older"), loaded when asked for. */
export const useOlderInbox = (before: number | null) =>
  useQuery({
    queryKey: inboxKeys.page(before),
    queryFn: () => getInbox(before),
    enabled: before !== null,
  });

export const useMarkInboxRead = () =>
  useApiMutation([...inboxKeys.all, 'read'], markInboxRead, () => [inboxKeys.all]);

import { inboxEventSentence, playScreenPaths, type InboxEventKind } from '@reskin/contract';

/**
 * Every mail the server sends (decision 0035), in one place: plain text plus a simple HTML part, the
 * product name, and links from PUBLIC_URL. A mail carries no secret other than its link: no password, no token
 * hash, no other user's email (an actor appears by username only).
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface TemplateContext {
  productName: string;
  /** PUBLIC_URL without a trailing slash. */
  publicUrl: string;
}

/** The fields of an inbox event a mail of it shows. */
export interface MailedEvent {
  kind: InboxEventKind | string;
  actorName: string | null;
  gameName: string | null;
  gameId: number | null;
  userGameId: number | null;
  versionId: number | null;
  /** The file a note is on (null: the version as a whole, or not a note). */
  fileId?: number | null;
  /** Whose version it is for the recipient (decision 0052): `others` names its artist, `versionOwnerName`. */
  versionOwner?: 'yours' | 'others' | null;
  versionOwnerName?: string | null;
  text: string;
  /** Whether the recipient reviews (their links go to the review screens rather than the artist's workbench). */
  toReviewer: boolean;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A mail of paragraphs and one link: the text part and the HTML part say the same. */
function compose(
  ctx: TemplateContext,
  subject: string,
  paragraphs: string[],
  link?: { label: string; url: string },
  footer?: string,
): MailContent {
  const closing = footer ?? `${ctx.productName}`;
  const text =
    [...paragraphs, ...(link ? [`${link.label}:\n${link.url}`] : []), `-- \n${closing}`].join('\n\n') + '\n';
  const html =
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">' +
    paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '') +
    `<p style="color: #666">${escapeHtml(closing)}</p></body></html>`;
  return { subject: `${subject} · ${ctx.productName}`, text, html };
}

/** The app's page for a path and query, on PUBLIC_URL. */
export function appLink(
  ctx: TemplateContext,
  path: string,
  query: Record<string, string | number | null | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== null && value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${ctx.publicUrl}${path}${search ? `?${search}` : ''}`;
}

export function verifyEmailMail(
  ctx: TemplateContext,
  username: string,
  token: string,
  hours: number,
): MailContent {
  return compose(
    ctx,
    'Verify your email address',
    [
      `Hello ${username},`,
      `please confirm that this is your email address for ${ctx.productName}. The link works once, for ${hours} hours.`,
      'If you did not ask for this, ignore this mail.',
    ],
    { label: 'Verify my email address', url: appLink(ctx, '/verify-email', { token }) },
  );
}

export function resetPasswordMail(
  ctx: TemplateContext,
  username: string,
  token: string,
  minutes: number,
): MailContent {
  return compose(
    ctx,
    'Reset your password',
    [
      `Hello ${username},`,
      `someone (we hope you) asked to reset the password of your ${ctx.productName} account. The link works once, for ${minutes} minutes.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
    { label: 'Choose a new password', url: appLink(ctx, '/reset-password', { token }) },
  );
}

/**
 * One line about an event: the inbox's sentence (the contract's inboxEventSentence, the same words as the app's
 * bell) with the event's text quoted in it.
 */
export function eventSentence(event: MailedEvent): string {
  const known = (event.kind as string) in mailableKinds;
  const sentence = known
    ? inboxEventSentence({ ...event, kind: event.kind as InboxEventKind, fileId: event.fileId ?? null })
    : `Something happened${event.gameName ? ` on ${event.gameName}` : ''}.`;
  return event.text ? `${sentence.replace(/\.$/, '')}: "${event.text}".` : sentence;
}

/** The kinds a mail words (an unknown kind, from a newer server, is said plainly). */
const mailableKinds: Record<InboxEventKind, true> = {
  game_assigned: true,
  version_finished: true,
  verdict: true,
  note: true,
  note_answered: true,
  generation_failed: true,
};

/** The screen an event opens: the artist's workbench or versions, or the reviewer's version files. */
export function eventLink(ctx: TemplateContext, event: MailedEvent): string {
  const ids = { versionId: event.versionId, gameId: event.gameId, userGameId: event.userGameId };
  if (event.kind === 'game_assigned')
    return appLink(ctx, '/my-games/versions', { gameId: event.gameId, userGameId: event.userGameId });
  if (event.kind === 'generation_failed') return appLink(ctx, '/games/game-files', { gameId: event.gameId });
  if (event.versionId === null) return appLink(ctx, '/');
  return event.toReviewer || event.kind === 'version_finished'
    ? appLink(ctx, '/user-game-list/game-versions/files', ids)
    : appLink(ctx, playScreenPaths.workbench, ids);
}

const settingsHint = (ctx: TemplateContext) =>
  `You get these mails because of your mail setting on the Account screen (${appLink(ctx, '/account')}).`;

export function inboxEventMail(ctx: TemplateContext, username: string, event: MailedEvent): MailContent {
  const sentence = eventSentence(event);
  return compose(
    ctx,
    sentence.length > 90 ? `${sentence.slice(0, 87)}...` : sentence,
    [`Hello ${username},`, sentence],
    { label: 'Open it', url: eventLink(ctx, event) },
    `${ctx.productName}. ${settingsHint(ctx)}`,
  );
}

/**
 * A mail listing events: the daily digest, and the events that came together within a few minutes (decision 0044).
 * `total` counts every event it stands for; past the events listed, it says how many more the inbox holds.
 */
function eventListMail(
  ctx: TemplateContext,
  username: string,
  events: MailedEvent[],
  total: number,
  heading: string,
  subject: string,
): MailContent {
  const more = total - events.length;
  const moreLine = more > 0 ? `...and ${more} more in your inbox (${appLink(ctx, '/')}).` : undefined;
  const lines = events.map((event) => `- ${eventSentence(event)}\n  ${eventLink(ctx, event)}`);
  const text =
    [
      `Hello ${username},`,
      heading,
      lines.join('\n'),
      ...(moreLine ? [moreLine] : []),
      `-- \n${ctx.productName}. ${settingsHint(ctx)}`,
    ].join('\n\n') + '\n';
  const html =
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">' +
    `<p>Hello ${escapeHtml(username)},</p><p>${escapeHtml(heading)}</p><ul>` +
    events
      .map(
        (event) =>
          `<li>${escapeHtml(eventSentence(event))} <a href="${escapeHtml(eventLink(ctx, event))}">Open</a></li>`,
      )
      .join('') +
    `</ul>${moreLine ? `<p>${escapeHtml(moreLine)}</p>` : ''}<p style="color: #666">${escapeHtml(`${ctx.productName}. ${settingsHint(ctx)}`)}</p></body></html>`;
  return { subject: `${subject} · ${ctx.productName}`, text, html };
}

const eventCount = (n: number) => `${n} new event${n === 1 ? '' : 's'}`;

export function digestMail(ctx: TemplateContext, username: string, events: MailedEvent[]): MailContent {
  return eventListMail(
    ctx,
    username,
    events,
    events.length,
    `${eventCount(events.length)} since your last digest:`,
    `Your daily digest: ${eventCount(events.length)}`,
  );
}

/** The most events one gathered mail lists; the rest are counted ("...and 250 more in your inbox"). */
export const eventsListedPerMail = 50;

/**
 * The inbox events of one user that came within a few minutes, as one mail (decision 0044): a single event reads as
 * before (inboxEventMail); more are a list of the first `eventsListedPerMail` and a count of the rest.
 */
export function gatheredEventsMail(
  ctx: TemplateContext,
  username: string,
  events: MailedEvent[],
  total: number,
): MailContent {
  if (total === 1 && events.length === 1) return inboxEventMail(ctx, username, events[0]!);
  return eventListMail(ctx, username, events, total, `${eventCount(total)}:`, eventCount(total));
}

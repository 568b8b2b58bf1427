import { totalCountHeader, xsrf, type SearchFilter } from '@reskin/contract';
import type { ZodType } from 'zod';
import { ApiError, envelopeError } from './api-error';
import { actionOf, failureTitle, type RequestAction } from './failure-titles';
import { readToken } from './session/token-storage';
import { notifyError } from './toasts';

const apiPrefix = '/api';

export interface RequestOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * false where a 401 is an answer rather than a lost session: the login call itself (a wrong password
   * stays on the login screen) and the start-up check of a saved token.
   */
  logoutOnUnauthorized?: boolean;
  /** What the call is for, when its method does not say it (a list search is a POST that loads). */
  action?: RequestAction;
  /**
   * SPEC §8's product message for this call's failure, when it has one (e.g. 'invalid email or password!'): the
   * toast's body, with the server's message under it when that says something else. Undefined: the server's
   * message is the body.
   */
  failureMessage?: (failure: Failure) => string | undefined;
  /**
   * A call the app makes by itself in the background (the inbox's poll): a failure is logged but shows
   * no toast, so a server that is away does not toast every half minute. A 401 still ends the session.
   */
  background?: boolean;
}

/** A failed answer as the app reads it. */
export interface Failure {
  status: number;
  /** The toast's title, in words (lib/failure-titles.ts). */
  title: string;
  /** The server's message: the first detail's when there are details, else error.message. */
  message: string;
  /** error.code and error.name of the envelope, for the console log and callers' decisions. */
  code?: string;
  name?: string;
}

let unauthorizedHandler: (() => void) | null = null;

/**
 * The session registers what a 401 does (log out, go to /login, and one 'Session ended' toast); the client itself
 * knows no routes and shows no toast of its own for such a 401.
 */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

/** Hands a 401 to the session; false when none is registered (then the caller shows the failure itself). */
export function endSessionOnUnauthorized(): boolean {
  if (!unauthorizedHandler) return false;
  unauthorizedHandler();
  return true;
}

/**
 * Every failed call is logged here, once, with what the toast leaves out: the method and path, the status, the
 * envelope's code and name, and the request id the server logged it under (X-Request-Id).
 */
export function logFailure(method: string, url: string, failure: Failure, requestId: string | null): void {
  const what = [failure.status, failure.code ?? failure.name].filter((part) => part !== undefined).join(' ');
  const request = requestId === null ? '' : ` (request ${requestId})`;
  console.warn(`${method} ${url} failed: ${what}${request}`, {
    code: failure.code,
    name: failure.name,
    message: failure.message,
    requestId,
  });
}

export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return null;
}

function isRelativeUrl(url: string): boolean {
  return !/^([a-z][a-z\d+\-.]*:)?\/\//i.test(url);
}

/** The headers of SPEC §7: bearer token, JSON accept and content type, and the XSRF double submit. */
export function buildHeaders(method: string, url: string, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  const token = readToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  headers.set('Accept', 'application/json');
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  const safe = method === 'GET' || method === 'HEAD';
  if (!safe && isRelativeUrl(url)) {
    const value = readCookie(xsrf.cookie);
    if (value !== null) headers.set(xsrf.header, value);
  }
  return headers;
}

/** Reads a body as JSON, also when the JSON arrives wrapped in a string; else the text itself. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'string') return parsed;
    try {
      return JSON.parse(parsed) as unknown;
    } catch {
      return parsed;
    }
  } catch {
    return text;
  }
}

/**
 * A failed response as the app reads it (SPEC §8): with details, the first detail's message; without,
 * error.message; the title in words by the envelope's code, the status and the call's action.
 */
export function describeFailure(
  status: number,
  statusText: string,
  body: unknown,
  action: RequestAction,
): Failure {
  const error = envelopeError(body);
  if (error) {
    const message = error.details?.[0]?.message ?? error.message;
    return {
      status,
      title: failureTitle({ status, code: error.code, action }),
      message,
      code: error.code,
      name: error.name,
    };
  }
  const text = typeof body === 'string' && body.trim() !== '' ? body : statusText || 'The request failed.';
  return { status, title: failureTitle({ status, action }), message: text };
}

/**
 * Sends the request. On failure: logs it, shows its one error toast (a 401 that ends the session leaves the toast
 * to the session) and throws an ApiError.
 */
async function send(path: string, options: RequestOptions): Promise<{ body: unknown; headers: Headers }> {
  const method = options.method ?? 'GET';
  const action = options.action ?? actionOf(method);
  const url = `${apiPrefix}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: buildHeaders(method, url, options.headers),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const failure: Failure = {
      status: 0,
      title: failureTitle({ status: 0, action }),
      message: 'The server could not be reached.',
    };
    logFailure(method, url, failure, null);
    if (!options.background) notifyError(failure.title, failure.message);
    throw new ApiError(0, failure.title, failure.message, undefined);
  }

  const body = parseBody(await response.text());
  if (response.ok) return { body, headers: response.headers };

  const failure = describeFailure(response.status, response.statusText, body, action);
  logFailure(method, url, failure, response.headers.get('X-Request-Id'));
  const error = new ApiError(response.status, failure.title, failure.message, body);
  if (response.status === 401 && options.logoutOnUnauthorized !== false && endSessionOnUnauthorized())
    throw error;
  if (options.background) throw error;
  const product = options.failureMessage?.(failure);
  if (product === undefined) notifyError(failure.title, failure.message);
  else notifyError(failure.title, product, failure.message);
  throw error;
}

/**
 * Calls `/api` + path. Answers the parsed JSON body (undefined for an empty one). On failure it shows the one
 * error toast (with the call's `failureMessage`), logs out on a 401, and throws an ApiError.
 */
export async function apiRequest(path: string, options: RequestOptions = {}): Promise<unknown> {
  return (await send(path, options)).body;
}

/** apiRequest, its answer checked with the contract's schema. */
export async function apiParse<T>(schema: ZodType<T>, path: string, options?: RequestOptions): Promise<T> {
  return schema.parse(await apiRequest(path, options));
}

/** What a list screen asks of a list endpoint: LoopBack's where, order and paging. */
export type ListParams = Pick<SearchFilter, 'where' | 'order' | 'limit' | 'skip'>;

/** A page of a list and the number of all rows that match its filter. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** POSTs a search body to a list endpoint: the rows, checked with `schema`, and the X-Total-Count header. */
export async function apiList<T>(
  path: string,
  { body, schema, signal }: { body: unknown; schema: ZodType<T>; signal?: AbortSignal },
): Promise<ListPage<T>> {
  const answer = await send(path, { method: 'POST', body, signal, action: 'load' });
  const items = schema.array().parse(answer.body);
  const total = Number(answer.headers.get(totalCountHeader) ?? Number.NaN);
  if (!Number.isSafeInteger(total)) throw new Error(`${path} answered no ${totalCountHeader} header.`);
  return { items, total };
}

import { totalCountHeader, xsrf, type SearchFilter } from '@reskin/contract';
import type { ZodType } from 'zod';
import { ApiError, envelopeError } from './api-error';
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
}

let unauthorizedHandler: (() => void) | null = null;

/** The session registers what a 401 does (log out, go to /login); the client itself knows no routes. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
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
 * The toast of a failed response (SPEC §8): with details, the code as title and the first detail's message
 * as body; without, the error's name and message.
 */
export function describeFailure(
  status: number,
  statusText: string,
  body: unknown,
): { title: string; message: string } {
  const error = envelopeError(body);
  if (error) {
    const first = error.details?.[0];
    if (first) return { title: error.code ?? error.name, message: first.message };
    return { title: error.name, message: error.message };
  }
  const text = typeof body === 'string' && body.trim() !== '' ? body : statusText || 'The request failed.';
  return { title: `Error ${status}`, message: text };
}

/** Sends the request; on failure shows the error toast, logs out on a 401 and throws an ApiError. */
async function send(path: string, options: RequestOptions): Promise<{ body: unknown; headers: Headers }> {
  const method = options.method ?? 'GET';
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
    const message = 'The server could not be reached.';
    notifyError('NetworkError', message);
    throw new ApiError(0, 'NetworkError', message, undefined);
  }

  const body = parseBody(await response.text());
  if (response.ok) return { body, headers: response.headers };

  const { title, message } = describeFailure(response.status, response.statusText, body);
  notifyError(title, message);
  if (response.status === 401 && options.logoutOnUnauthorized !== false) unauthorizedHandler?.();
  throw new ApiError(response.status, title, message, body);
}

/**
 * Calls `/api` + path. Answers the parsed JSON body (undefined for an empty one). On failure it shows the
 * error toast, logs out on a 401, and throws an ApiError so callers can add their product message.
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
  const answer = await send(path, { method: 'POST', body, signal });
  const items = schema.array().parse(answer.body);
  const total = Number(answer.headers.get(totalCountHeader) ?? Number.NaN);
  if (!Number.isSafeInteger(total)) throw new Error(`${path} answered no ${totalCountHeader} header.`);
  return { items, total };
}

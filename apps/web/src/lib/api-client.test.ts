import { errorCodes, storageKeys, throttleMessages } from '@reskin/contract';
import { createNote } from '../api/review';
import { finishVersion } from '../api/versions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiList, apiRequest, describeFailure, readCookie, setUnauthorizedHandler } from './api-client';
import { ApiError } from './api-error';
import { notifyError } from './toasts';

vi.mock('./toasts', () => ({ notifyError: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function sentHeaders(call = 0): Headers {
  const init = fetchMock.mock.calls[call]?.[1];
  return new Headers(init?.headers);
}

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  localStorage.clear();
  clearCookies();
});

afterEach(() => {
  setUnauthorizedHandler(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request headers (SPEC §7)', () => {
  it('sends the bearer token, JSON accept and JSON content type, also on GET, but no XSRF header on GET', async () => {
    localStorage.setItem(storageKeys.token, 'abc.def.ghi');
    document.cookie = 'XSRF-TOKEN=cookie-value';
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));

    await expect(apiRequest('/user/me')).resolves.toEqual({ ok: true });

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user/me');
    const headers = sentHeaders();
    expect(headers.get('Authorization')).toBe('Bearer abc.def.ghi');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.has('X-XSRF-TOKEN')).toBe(false);
  });

  it('copies the XSRF-TOKEN cookie into X-XSRF-TOKEN on state-changing requests', async () => {
    document.cookie = 'other=1';
    document.cookie = 'XSRF-TOKEN=abc%2B123';
    fetchMock.mockResolvedValue(jsonResponse(204, undefined));

    await expect(apiRequest('/user/role/5/1000', { method: 'PUT' })).resolves.toBeUndefined();

    expect(sentHeaders().get('X-XSRF-TOKEN')).toBe('abc+123');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('PUT');
  });

  it('sends no Authorization header without a stored token, and no XSRF header without the cookie', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { token: 't' }));

    await apiRequest('/user/login', { method: 'POST', body: { email: 'a@b.co', password: 'x' } });

    const headers = sentHeaders();
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"email":"a@b.co","password":"x"}');
  });

  it('keeps a content type the caller set', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await apiRequest('/x', { method: 'POST', headers: { 'Content-Type': 'text/plain' } });
    expect(sentHeaders().get('Content-Type')).toBe('text/plain');
  });
});

describe('failed responses (SPEC §8: one toast, titled in words)', () => {
  const conflict = {
    error: {
      statusCode: 409,
      name: 'ConflictError',
      message: 'Conflict',
      code: 'EMAIL_EXISTS',
      details: [
        { path: '/email', code: 'unique', message: 'This email is taken.' },
        { path: '/username', code: 'unique', message: 'This username is taken.' },
      ],
    },
  };

  it('with details: one toast, its title in words and the first detail as body, then throws; the code goes to the console', async () => {
    const response = jsonResponse(409, conflict);
    response.headers.set('X-Request-Id', 'req-7');
    fetchMock.mockResolvedValue(response);

    const failure = apiRequest('/user/create', { method: 'POST', body: {} });

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 409,
      title: 'Already in use',
      message: 'This email is taken.',
    });
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('Already in use', 'This email is taken.');
    expect(console.warn).toHaveBeenCalledWith(
      'POST /api/user/create failed: 409 EMAIL_EXISTS (request req-7)',
      expect.objectContaining({ code: 'EMAIL_EXISTS', name: 'ConflictError', requestId: 'req-7' }),
    );
  });

  it('without details: the title by status, the body error.message', async () => {
    const envelope = {
      error: { statusCode: 403, name: 'ForbiddenError', message: 'Not for you.', code: 'FORBIDDEN' },
    };
    fetchMock.mockResolvedValue(jsonResponse(403, envelope));

    await expect(apiRequest('/admin/update')).rejects.toMatchObject({ title: 'Not allowed' });
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('Not allowed', 'Not for you.');
  });

  it("decision 0044: a note or a finish refused as too fast toasts the wait in the contract's words, as every RATE_LIMITED does", async () => {
    for (const [call, words] of [
      [() => createNote({ versionId: 7, body: { text: 'One more' } }), throttleMessages.notes(42)],
      [() => finishVersion(7), throttleMessages.finishes(42)],
    ] as const) {
      vi.mocked(notifyError).mockClear();
      const envelope = {
        error: {
          statusCode: 429,
          name: 'TooManyRequestsError',
          message: words,
          code: errorCodes.rateLimited,
          retryAfter: 42,
        },
      };
      fetchMock.mockResolvedValueOnce(jsonResponse(429, envelope));
      await expect(call()).rejects.toMatchObject({ status: 429, code: errorCodes.rateLimited });
      expect(notifyError).toHaveBeenCalledExactlyOnceWith('Too many attempts', words);
      expect(words).toContain('42 seconds');
    }
  });

  it("a call's product message is the body, the server's message under it", async () => {
    fetchMock.mockResolvedValue(jsonResponse(409, conflict));
    const failureMessage = vi.fn(() => 'email already exists');

    await expect(apiRequest('/user/signup', { method: 'POST', failureMessage })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(failureMessage).toHaveBeenCalledWith(
      expect.objectContaining({ status: 409, code: 'EMAIL_EXISTS' }),
    );
    expect(notifyError).toHaveBeenCalledExactlyOnceWith(
      'Already in use',
      'email already exists',
      'This email is taken.',
    );
  });

  it('reads an envelope that arrives as a JSON string', async () => {
    const envelope = { error: { statusCode: 400, name: 'BadRequestError', message: 'Nope.', details: [] } };
    fetchMock.mockResolvedValue(jsonResponse(400, JSON.stringify(envelope)));

    await expect(apiRequest('/x', { method: 'POST' })).rejects.toBeInstanceOf(ApiError);
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('Could not save', 'Nope.');
  });

  it('a list search that fails could not load', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(500, { error: { statusCode: 500, name: 'InternalServerError', message: 'Nope.' } }),
    );
    await expect(apiList('/games/filter', { body: {}, schema: z.object({}) })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('Server error', 'Nope.');
    fetchMock.mockResolvedValue(
      jsonResponse(422, {
        error: { statusCode: 422, name: 'UnprocessableEntityError', message: 'Bad filter.' },
      }),
    );
    await expect(apiList('/games/filter', { body: {}, schema: z.object({}) })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(notifyError).toHaveBeenLastCalledWith('Could not load', 'Bad filter.');
  });

  it('a 401 goes to the unauthorized handler without a toast of its own, except where the caller opts out', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    const envelope = {
      error: { statusCode: 401, name: 'UnauthorizedError', message: 'Log in.', code: 'UNAUTHORIZED' },
    };
    fetchMock.mockImplementation(async () => jsonResponse(401, envelope));

    await expect(apiRequest('/user/update', { method: 'PUT', body: {} })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(notifyError).not.toHaveBeenCalled();

    await expect(
      apiRequest('/user/login', { method: 'POST', logoutOnUnauthorized: false }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('Session ended', 'Log in.');
  });

  it('the server out of reach: one toast titled in words', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('/user/me')).rejects.toMatchObject({ status: 0, title: 'No connection' });
    expect(notifyError).toHaveBeenCalledExactlyOnceWith('No connection', 'The server could not be reached.');
  });

  it('a body that is no envelope still gets a title and a message', () => {
    expect(describeFailure(502, 'Bad Gateway', '<html>', 'load')).toEqual({
      status: 502,
      title: 'Server error',
      message: '<html>',
    });
    expect(describeFailure(500, 'Internal Server Error', undefined, 'save')).toEqual({
      status: 500,
      title: 'Server error',
      message: 'Internal Server Error',
    });
  });

  it('a body shaped almost like an envelope is read as no envelope', () => {
    const almost = {
      error: { statusCode: 422, name: 'UnprocessableEntityError', message: 'm', details: ['x'] },
    };
    expect(describeFailure(422, 'Unprocessable Entity', almost, 'save')).toEqual({
      status: 422,
      title: 'Could not save',
      message: 'Unprocessable Entity',
    });
    expect(describeFailure(400, 'Bad Request', { error: 'text' }, 'load').title).toBe('Could not load');
    expect(describeFailure(400, 'Bad Request', { error: { name: 1, message: 'm' } }, 'upload').title).toBe(
      'Upload failed',
    );
  });
});

describe('readCookie', () => {
  it('finds a cookie by exact name and decodes it', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=x%3Dy; XSRF-TOKEN2=z')).toBe('x=y');
    expect(readCookie('XSRF', 'XSRF-TOKEN=1')).toBeNull();
  });
});

describe('lists with their total', () => {
  const schema = z.object({ id: z.number() });

  it('POSTs the search body and reads the total from X-Total-Count', async () => {
    const response = jsonResponse(200, [{ id: 1 }, { id: 2 }]);
    response.headers.set('X-Total-Count', '153');
    fetchMock.mockResolvedValue(response);

    await expect(apiList('/user/list', { body: { limit: 2 }, schema })).resolves.toEqual({
      items: [{ id: 1 }, { id: 2 }],
      total: 153,
    });
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"limit":2}');
  });

  it('refuses a list answer without the header', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, [{ id: 1 }]));
    await expect(apiList('/games/filter', { body: {}, schema })).rejects.toThrow('X-Total-Count');
  });
});

import { errorCodes } from '@reskin/contract';

/** What the failed request was for: it names the title when neither the code nor the status does. */
export type RequestAction = 'load' | 'save' | 'upload' | 'login';

/**
 * The title of every error toast, in words (decision 0025): never an error code or class name, which stay
 * in the console log and the envelope. One table: a refused login is 'Login failed' (wrong credentials or a
 * disabled account: its toast says which); else by the server's error.code, then by the HTTP status (0: no answer),
 * then by what the request was for.
 */
const sessionEnded = 'Session ended';

export const failureTitles = {
  /** SES-4: a 401 that ends the session (its toast comes from the session, lib/session/session-provider.tsx). */
  sessionEnded,
  byCode: {
    /** Outside the login: the current password the account screen asks for (a refused login is 'Login failed'). */
    [errorCodes.invalidCredentials]: 'Wrong password',
    [errorCodes.emailExists]: 'Already in use',
    [errorCodes.usernameExists]: 'Already in use',
    [errorCodes.rateLimited]: 'Too many attempts',
    [errorCodes.xsrf]: 'Not allowed',
    [errorCodes.lastAdmin]: 'Not allowed',
    [errorCodes.versionLocked]: 'Version locked',
    [errorCodes.versionDisabled]: 'Version disabled',
    [errorCodes.fileTooLarge]: 'File too large',
    [errorCodes.tooManyFiles]: 'Too many files',
    [errorCodes.storageFull]: 'Storage full',
    [errorCodes.databaseUnavailable]: 'Server unavailable',
    [errorCodes.storageUnavailable]: 'Server unavailable',
  } as Readonly<Record<string, string>>,
  byStatus: {
    0: 'No connection',
    401: sessionEnded,
    403: 'Not allowed',
    404: 'Not found',
    423: 'Not allowed',
    429: 'Too many attempts',
    503: 'Server unavailable',
    507: 'Storage full',
  } as Readonly<Record<number, string>>,
  /** Any other status of 500 and above. */
  serverError: 'Server error',
  byAction: {
    load: 'Could not load',
    save: 'Could not save',
    upload: 'Upload failed',
    login: 'Login failed',
  } satisfies Record<RequestAction, string>,
  /** An upload the user or the page stopped (no request failed). */
  cancelled: 'Upload cancelled',
} as const;

export interface FailureTitleInput {
  /** The HTTP status; 0 when the server could not be reached. Left out for a failure with no request. */
  status?: number;
  /** The envelope's error.code. */
  code?: string;
  action: RequestAction;
}

/** The toast title of a failure: a refused login's, else by code, else by status, else by action. */
export function failureTitle({ status, code, action }: FailureTitleInput): string {
  if (action === 'login' && status === 401) return failureTitles.byAction.login;
  const byCode = code === undefined ? undefined : failureTitles.byCode[code];
  if (byCode !== undefined) return byCode;
  if (status !== undefined) {
    const byStatus = failureTitles.byStatus[status];
    if (byStatus !== undefined) return byStatus;
    if (status >= 500) return failureTitles.serverError;
  }
  return failureTitles.byAction[action];
}

/** The action of a request by its method: reading loads, anything else saves. */
export function actionOf(method: string): RequestAction {
  return method === 'GET' || method === 'HEAD' ? 'load' : 'save';
}

import { limits } from './limits';

/** A duration as "1 h 02 min 05 s", "15 min", "42 s". */
function formatDuration(totalSeconds: number): string {
  const whole = Math.round(totalSeconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  const parts = [
    h > 0 ? `${h} h` : '',
    m > 0 ? `${h > 0 ? String(m).padStart(2, '0') : m} min` : '',
    s > 0 ? `${h > 0 || m > 0 ? String(s).padStart(2, '0') : s} s` : '',
  ];
  return parts.filter(Boolean).join(' ') || '0 s';
}

/** Validation messages of SPEC §5, verbatim (including the quirks the spec keeps). */
export const validationMessages = {
  usernamePattern: 'Username contains only Letters, Numbers, Underscore, Hyphen, Period.',
  usernameLength: 'Username must be 3-30 characters.',
  firstName: 'Name must be 3-30 characters.',
  lastName: 'Lastname must be 3-30 characters.',
  email: 'Please enter a valid email address.',
  loginEmail: 'Email must be 3-100 characters.',
  password: 'Your password should be at least 8 character long.',
  loginPassword: 'Password is required.',
  phone: 'Please enter a valid phone number.',
  dataProtection: 'You have to accept the Data Protection Regulation.',
  /**
   * A password on the list of the most common and breached passwords (the server checks it: the list is
   * too large for the web app), or one character repeated.
   */
  commonPassword:
    'This password is too common: it is on a list of leaked passwords. Choose a less predictable one.',
  /** Identities and names refuse control, invisible and text-direction characters (text-safety.ts). */
  unsafeCharacters: 'Control, invisible and text-direction characters are not allowed.',
  /** A new email on the account screen needs the account's current password. */
  currentPasswordRequired: 'Enter your current password to change your email.',
  currentPasswordWrong: 'The current password is wrong.',
  versionName: 'Name must be 2-250 characters of letters, numbers, underscore, hyphen or space.',
  versionDescription:
    'Description must be 2-500 characters of letters, numbers, underscore, hyphen or space.',
  imageSize: (original: { width: number; height: number }, loaded: { width: number; height: number }) =>
    `Original Size ${original.width} x ${original.height} Loaded Size ${loaded.width} x ${loaded.height}`,
  /** A replacement of one frame of a sprite sheet must have the frame's source (untrimmed) size. */
  frameSize: (frame: string, expected: { w: number; h: number }, loaded: { width: number; height: number }) =>
    `The frame "${frame}" is ${expected.w} × ${expected.h} pixels; this image is ${loaded.width} × ${loaded.height}.`,
  multipleSameName: 'Multiple files found with same name!',
  noMatchingFile: 'No matching file is found',
  fileReadError: 'Error Occurred On File Read',
  imageReadError: 'Error Occurred On Image Read',
  notAudio: 'File is not audio',
  /** A replacement sound over limits.audioConversion.maxDurationSeconds (decision 0045). */
  soundTooLong: (seconds: number) =>
    `This sound lasts ${formatDuration(seconds)}: a sound may last at most ${formatDuration(limits.audioConversion.maxDurationSeconds)}.`,
  multipleFilesNotAllowed: 'Multiple Files are not allowed!',
  fileNotFound: 'File is not found!',
} as const;

/** Product messages of SPEC §8, verbatim. */
const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

/**
 * The answers of the posting throttles (limits.posting, decision 0044): the server's 429 message, which the web's
 * error toast shows as it is, so the wait is worded once.
 */
export const throttleMessages = {
  notes: (wait: number) =>
    `You are writing notes faster than they can be read. You can send the next one in ${seconds(wait)}.`,
  finishes: (wait: number) =>
    `You have pressed "I Finished My Game" many times in a short while. You can press it again in ${seconds(wait)}.`,
} as const;

export const messages = {
  loginFailed: 'invalid email or password!',
  registered: 'you successfully registered!',
  registerFailed: 'email already exists',
  accountSaved: 'account settings saved!',
  accountDisabled: 'Your account is disabled',
  /** 'Suspend My Account' asks first, since only an administrator can undo it. */
  confirmSuspendAccount:
    'Suspend your account? You will be logged out and only an administrator can re-activate it.',
  confirmDeleteUser: (username: string) => `Are you sure you want to delete ${username}?`,
  confirmResetPassword: (username: string) => `Are you sure you want to reset password of ${username}?`,
  confirmUpdateRole: (username: string) => `Are you sure you want to update role of ${username}?`,
  userDeleted: 'user deleted successfully.',
  passwordReset: (password: string) => `User password is reset to ${password}`,
  roleUpdated: 'user role updated successfully.',
  /** Worded like the admin's other confirmations and toasts. */
  confirmActivateUser: (username: string) => `Are you sure you want to activate ${username}?`,
  userActivated: 'user activated successfully.',
  /** The admin's Add User; SPEC §8 names no message for it, so it is worded like the others. */
  userAdded: (username: string) => `user ${username} added successfully.`,
  servicesUpdated: 'Services updated',
  gameAdded: 'Game added successfully.',
  /** SPEC §8 names no message for adding a user-game; worded like 'Game added successfully.'. */
  userGameAdded: 'User game added successfully.',
  /**
   * Assigning a game that is not Ready asks first; the artist sees its card as being prepared until then.
   */
  confirmAssignNotReady: (game: string, status: string) =>
    `${game} is not ready yet (${status}). Assign it anyway? The artist will see it once it is ready.`,
  /** A 2nd assignment of a game to a user with the same job type (the server's 409 ASSIGNMENT_EXISTS). */
  assignmentExists: 'This game is already assigned to this user with this job type.',
  /** The same, when that assignment's access was removed: Give Access brings it (and its versions) back. */
  assignmentExistsInactive:
    'This game is already assigned to this user with this job type, with its access removed: use Give Access on its row.',
  /** Marking another index of a Ready game asks first, naming both start files. */
  confirmSwitchIndex: (current: string, next: string) =>
    `Switch the start file of this Ready game from ${current} to ${next}? Everyone playing it will start at ${next}.`,
  itemEdited: 'item edited successfully.',
  itemDeleted: 'item deleted successfully.',
  itemEditingCancelled: 'item editing cancelled.',
  gameEditingCancelled: 'Game editing cancelled.',
  gameFilesGenerating: 'Game files are generating...',
  splashUpdated: 'Splash updated successfully.',
  fileDeleted: 'File deleted successfully.',
  itemActivity: 'item activity successfully.',
  confirmDeleteItem: 'Are you sure you want to permanently delete this item?',
  confirmDeleteFile: 'Are you sure you want to permanently delete this file?',
  versionSaved: 'You successfully created version!',
  versionSaveFailed: 'There was an error.',
  uploadFailed: 'Error is occurred while uploading the item.',
  uploaded: 'Item uploaded successfully.',
  informed: 'You successfully informed',
  /** 'I Finished My Game' asks first; the artist sees a Finished version as such afterwards. */
  confirmFinishVersion: 'Tell the reviewer this version is finished?',
  /** Undoing a replacement (DELETE /game-versions/{versionId}/files/{fileId}). */
  confirmRestoreOriginal: (path: string) =>
    `Restore the original ${path}? Your replacement is removed from this version.`,
  /** Undoing one frame's replacement (DELETE /game-versions/{versionId}/files/{fileId}/frames/{frameName}). */
  confirmRestoreFrame: (frame: string, path: string) =>
    `Restore the original frame "${frame}" of ${path}? Your replacement of this frame is removed from this version.`,
  originalRestored: 'Original restored.',
  activityChanged: 'Activity is changed successfully.',
  lockChanged: 'Lock is changed successfully.',
  versionDeleted: 'Game version is deleted',
  confirmDeleteNamed: (name: string) => `Are you sure you want to delete ${name}?`,
  typeaheadFailed: 'Sorry, suggestions could not be loaded.',
  typeaheadNone: 'No results available',
  typeaheadCount: (n: number) => `${n} results available`,
  popupBlocked: 'Please disable your Pop-up blocker and try again.',
  /** A saved or current session the server no longer accepts (expired, revoked) sends the user to /login. */
  sessionEnded: 'Your session has ended. Please log in again.',
} as const;

/** The server's details for a taken email or username (the web adds its own product toast). */
export const conflictMessages = {
  email: 'This email is already registered.',
  username: 'This username is already taken.',
  /** The answer (409 LAST_ADMIN) and the toast when a change would leave no active administrator. */
  lastAdmin:
    'This is the last active administrator: it cannot be suspended, deleted or made a regular or demo user until another administrator is active.',
} as const;

/** Empty-state texts of SPEC §2, verbatim. */
export const emptyTexts = {
  users: 'There are no registered users.',
  userGames: 'There are no user game in the DB. Assign a game to user below.',
  games: 'There are no game in the DB. Add a new game below.',
  gameFiles: 'There are no game files in the DB. Add a new game files from top.',
  myGames: 'There is no game.',
  helperFiles: 'There are no Additional file.',
  audioFiles: 'There are no game files. Please contact the admin.',
  /** The image workbench of a game without images (the spec gives no wording of its own). */
  images: 'This game has no images to replace.',
  versions: 'There are no user game version in the DB.',
  versionFiles: 'There are no game files in the DB. Add a new game files from top.',
} as const;

export const landing = {
  heading: (product: string) => `Welcome to ${product}`,
  subheading: 'We are team of game developers making beautiful games',
} as const;

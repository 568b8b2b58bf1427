/**
 * The expected status of every /api route for each caller (authorization-matrix.test.ts): anonymous, a demo
 * user (assigned to the game), user A (assigned to the game, owner of the version), user B (a user without an
 * assignment) and an admin. Today's behaviour, checked against the SPEC and docs/architecture.md's API table.
 * A new route needs a row here.
 */
export const roles = ['anonymous', 'demo', 'userB', 'userA', 'admin'] as const;
export type Role = (typeof roles)[number];

export const expectedStatuses: Record<string, Record<Role, number>> = {
  'GET /api/config': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/health': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/health/ready': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  // its own bearer token (METRICS_TOKEN, decision 0031), not a session; unset in tests: 404 for everyone
  'GET /api/metrics': { anonymous: 404, demo: 404, userB: 404, userA: 404, admin: 404 },
  'GET /api/legal/{document}': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  // anyone; the body is user B's credentials
  'POST /api/user/login': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/user/me': { anonymous: 401, demo: 200, userB: 200, userA: 200, admin: 200 },
  'POST /api/user/signup': { anonymous: 201, demo: 201, userB: 201, userA: 201, admin: 201 },
  'POST /api/user/create': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 201 },
  'POST /api/user/list': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // the id is user A's: A sees their own row, others are refused
  'GET /api/user/detail/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 200, admin: 200 },
  'DELETE /api/user/delete/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 204 },
  'PUT /api/user/role/{id}/{roleId}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 204 },
  // not demo; each caller disables their own account (replaced afterwards)
  'DELETE /api/user/disable': { anonymous: 401, demo: 403, userB: 204, userA: 204, admin: 204 },
  'PUT /api/user/activate/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 204 },
  // not demo
  'PUT /api/user/update': { anonymous: 401, demo: 403, userB: 200, userA: 200, admin: 200 },
  // not demo; own password change
  'PUT /api/user/update/password': { anonymous: 401, demo: 403, userB: 200, userA: 200, admin: 200 },
  // mail: the matrix's server runs without SMTP_URL, so forgot password is 404 MAIL_OFF for everyone
  'POST /api/user/forgot-password': { anonymous: 404, demo: 404, userB: 404, userA: 404, admin: 404 },
  // anyone; the body's token was never issued: 400 TOKEN_INVALID
  'POST /api/user/reset-password': { anonymous: 400, demo: 400, userB: 400, userA: 400, admin: 400 },
  'POST /api/user/verify-email': { anonymous: 400, demo: 400, userB: 400, userA: 400, admin: 400 },
  // not demo; then 404 MAIL_OFF without SMTP_URL
  'POST /api/user/verify-email/send': { anonymous: 401, demo: 403, userB: 404, userA: 404, admin: 404 },
  'GET /api/user/mail-settings': { anonymous: 401, demo: 200, userB: 200, userA: 200, admin: 200 },
  // not demo
  'PUT /api/user/mail-settings': { anonymous: 401, demo: 403, userB: 200, userA: 200, admin: 200 },
  'GET /api/admin/update': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // admin, or an active assignment (demo and A are assigned, B is not: 404)
  'GET /api/games/{id}/path': { anonymous: 401, demo: 200, userB: 404, userA: 200, admin: 200 },
  'GET /api/games/{id}/files-root': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // an image preview by user A's URL (decision 0038): the URL is A's capability, no session needed, so
  // whoever holds it gets A's preview until the grant ends or A's token version changes; a forged one is a 404
  'GET /api/previews/{grant}/{name}': { anonymous: 200, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/user-games/my-games': { anonymous: 401, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/user-games': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'POST /api/user-games': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 201 },
  'POST /api/user-games/filter': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'PUT /api/user-games/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'DELETE /api/user-games/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'DELETE /api/user-games/{id}/changeActivity': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  // admin, or an active assignment
  'GET /api/games/{id}/files': { anonymous: 401, demo: 200, userB: 404, userA: 200, admin: 200 },
  // admin, or an artist with an active assignment; demo 403 before the lookup, B 404
  'GET /api/games/{id}/usage': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  // as the usage record
  'GET /api/games/{id}/atlases': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  // admins only: a grid places the watermark's frame marks (decision 0047)
  'PUT /api/games/{id}/files/{fileId}/grid': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  // as declaring; the admin declares one before each cell
  'DELETE /api/games/{id}/files/{fileId}/grid': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 204,
  },
  'POST /api/games/filter': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'POST /api/games/{id}/files/filter': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'POST /api/games': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 201 },
  'GET /api/games/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'PATCH /api/games/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'DELETE /api/games/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'GET /api/games/{id}/generate': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'PATCH /api/games/{id}/files/{fileId}/index': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  'PATCH /api/games/{id}/files/{fileId}/splash': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  'DELETE /api/games/{id}/files/{fileId}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  'POST /api/game/upload/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // admin; the body is no zip, so the admin passes the guard and gets 422 INVALID_ZIP
  'POST /api/game/upload-zip/{id}': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 422 },
  'POST /api/game-versions/filter': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // owner or admin; demo 403
  'POST /api/game-versions/done': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  // owner or admin; the demo user is assigned but does not own the version: 404
  'GET /api/game-versions/path/{id}/{gameId}': {
    anonymous: 401,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'GET /api/game-versions/files/{id}/{gameId}': {
    anonymous: 401,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'GET /api/game-versions/{gameId}/{userGameId}': {
    anonymous: 401,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // owner of the assignment or admin; demo 403
  'POST /api/game-versions': { anonymous: 401, demo: 403, userB: 404, userA: 201, admin: 201 },
  'PATCH /api/game-versions/{id}': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  'DELETE /api/game-versions/{id}': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  // "Restore original": owner or admin; demo 403
  'DELETE /api/game-versions/{versionId}/files/{fileId}': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 204,
    admin: 204,
  },
  'DELETE /api/game-versions/{id}/changeActivity': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  'DELETE /api/game-versions/{id}/changeLock': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  'GET /api/game-versions/{id}/zip-url': { anonymous: 401, demo: 404, userB: 404, userA: 200, admin: 200 },
  // header or ticket: without either the zip is 404, not 401
  'GET /api/files/{id}/{gameId}/files.zip': { anonymous: 404, demo: 404, userB: 404, userA: 200, admin: 200 },
  'POST /api/game-version/upload/{versionId}/{fileId}': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // as a file's replacement: the fixture's hero.png is a sheet of one frame "hero"
  'POST /api/game-version/upload-frame/{versionId}/{fileId}': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'DELETE /api/game-versions/{versionId}/files/{fileId}/frames/{frameName}': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 204,
    admin: 204,
  },
  // replace from a folder or a zip, and the preview of a fit: the single upload's rules
  'POST /api/game-versions/{versionId}/batch': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'POST /api/game-versions/{versionId}/files/{fileId}/fit-preview': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // the history of a version's file (decision 0034): as the version's files; user A uploads one first
  'GET /api/game-versions/{versionId}/files/{fileId}/history': {
    anonymous: 401,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // header or ticket: without either the entry is 404, not 401
  'GET /api/game-versions/{versionId}/files/{fileId}/history/{entryId}/content': {
    anonymous: 404,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // a restore is an upload: owner or admin; demo 403
  'POST /api/game-versions/{versionId}/files/{fileId}/history/{entryId}/restore': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  // a version's storage use: reviewers (admin) only
  'GET /api/game-versions/{id}/storage': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // the review loop: reviewers give verdicts (artists 403); the version is finished first
  'PUT /api/game-versions/{versionId}/verdict': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
  'GET /api/game-versions/to-review': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // notes: reviewers and the version's artist; someone else's version 404 (decision 0007), demo 404 to read, 403 to write
  'GET /api/game-versions/{versionId}/notes': {
    anonymous: 401,
    demo: 404,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'POST /api/game-versions/{versionId}/notes': {
    anonymous: 401,
    demo: 403,
    userB: 404,
    userA: 201,
    admin: 201,
  },
  // { resolved: true } on the admin's note on user A's version
  'PATCH /api/notes/{noteId}': { anonymous: 401, demo: 403, userB: 404, userA: 200, admin: 200 },
  // one's own inbox, every logged-in user
  'GET /api/inbox': { anonymous: 401, demo: 200, userB: 200, userA: 200, admin: 200 },
  'POST /api/inbox/read': { anonymous: 401, demo: 200, userB: 200, userA: 200, admin: 200 },
  'GET /api/games/{id}/psd-files': { anonymous: 401, demo: 200, userB: 404, userA: 200, admin: 200 },
  'POST /api/games/{id}/psd-files': { anonymous: 401, demo: 403, userB: 403, userA: 403, admin: 200 },
  // header or ticket: without either the download is 404, not 401
  'GET /api/games/{id}/psd-files/{helperId}': {
    anonymous: 404,
    demo: 200,
    userB: 404,
    userA: 200,
    admin: 200,
  },
  'DELETE /api/games/{id}/psd-files/{helperId}': {
    anonymous: 401,
    demo: 403,
    userB: 403,
    userA: 403,
    admin: 200,
  },
};

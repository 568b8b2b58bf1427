// The floor of GET /user-games/my-games on SQLite: what the request must do by its rules, and nothing
// else, in a bare Fastify route: verify the bearer token (fast-jwt, cached), read the user (the check on every
// request), the user's assignments with their counts (versions, finished, and the review loop's: to
// review, open notes and the artist's own open questions, the newest verdict; the answer carries them) and their games with their splash files' keys (the
// cards' preview pictures) through prepared statements (better-sqlite3),
// and answer JSON.stringify of cards of the same size (no schema, no hooks, no logging). How far the app is from
// this is what our code costs; how far this is from the bare route is what the rules cost.
// `node floor-server.mjs <reskin.sqlite> <jwt-secret file>`; prints {"port":...} once it listens.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createVerifier } from 'fast-jwt';

const [dbFile, secretFile] = process.argv.slice(2);
const db = new Database(dbFile, { readonly: true });
const verify = createVerifier({
  key: readFileSync(secretFile, 'utf8').trim(),
  algorithms: ['HS256'],
  cache: 1000,
});
const userGames = db.prepare(`select ug.*,
  (select count(*) from gameVersions v where v.userGamesId = ug.id) as versionCount,
  (select count(*) from gameVersions v where v.userGamesId = ug.id and v.gameVersionStatusId = 2) as finishedCount,
  (select max(v.finishedAt) from gameVersions v where v.userGamesId = ug.id and v.gameVersionStatusId = 2) as lastFinishedAt,
  (select count(*) - count(v.verdict) from gameVersions v where v.userGamesId = ug.id and v.gameVersionStatusId = 2) as toReviewCount,
  (select count(*) from notes n where n.versionId in (select v.id from gameVersions v where v.userGamesId = ug.id) and n.replyTo is null and n.resolvedAt is null) as openNotes,
  (select count(*) from notes n where n.versionId in (select v.id from gameVersions v where v.userGamesId = ug.id) and n.replyTo is null and n.resolvedAt is null and n.authorId = ug.userId) as openQuestions,
  (select v.verdict from gameVersions v where v.userGamesId = ug.id and v.verdict is not null order by v.verdictAt desc, v.id desc limit 1) as lastVerdict,
  (select max(v.verdictAt) from gameVersions v where v.userGamesId = ug.id and v.gameVersionStatusId = 2) as lastVerdictAt,
  (select username from users u where u.id = ug.userId) as username,
  (select name from games g where g.id = ug.gameId) as gameName
  from userGames ug where ug.userId = ? and ug.isActive = 1 order by ug.id`);
// Each game with its splash file's stored keys: the card's picture is a preview of the splash's watermarked copy
// (only admins ever get originals), so the answer needs them.
const games =
  db.prepare(`select g.id, g.name, g.description, g.width, g.height, g.imagePath, g.gameStatusTypeId, g.engine,
  f.storageKey as splashKey, f.copiesKey as splashCopiesKey
  from games g left join gameFiles f on f.gameId = g.id and f.path = g.imagePath where g.id in (select value from json_each(?))`);
const user = db.prepare('select id, roleTypeId, activated, tokenVersion from users where id = ?');
const app = Fastify({ logger: false });
app.get('/api/user-games/my-games', async (request, reply) => {
  const payload = verify(request.headers.authorization.slice(7));
  const me = user.get(payload.user.id);
  const rows = userGames.all(me.id);
  const byId = new Map(games.all(JSON.stringify(rows.map((r) => r.gameId))).map((g) => [g.id, g]));
  const cards = rows.map((r) => ({
    ...r,
    isActive: r.isActive === 1,
    game: byId.get(r.gameId),
    imageUrl: `http://g${r.gameId}.localhost:3001/p/${'x'.repeat(200)}/img/splash.png`,
  }));
  return reply.type('application/json').send(JSON.stringify(cards));
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

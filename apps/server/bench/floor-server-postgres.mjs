// The floor of GET /user-games/my-games on PostgreSQL, beside floor-server.mjs (SQLite's): what the
// request must do by its rules and nothing else, in a bare Fastify route: verify the bearer token (fast-jwt, cached),
// read the user (the check on every request), the user's active assignments with their counts (the review loop's
// too, as the answer carries them), and their games with their splash files' keys (the cards' preview
// pictures),
// through a pg pool of the app's size (named statements), and answer JSON.stringify of cards of the same size (no
// schema, no hooks, no logging).
// `node floor-server-postgres.mjs <DATABASE_URL> <jwt-secret file>`; prints {"port":...} once it listens.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import Fastify from 'fastify';
import { createVerifier } from 'fast-jwt';

const [databaseUrl, secretFile] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const verify = createVerifier({
  key: readFileSync(secretFile, 'utf8').trim(),
  algorithms: ['HS256'],
  cache: 1000,
});
const userGames = {
  name: 'floor-user-games',
  text: `select ug.*,
  (select count(*)::int from "gameVersions" v where v."userGamesId" = ug.id) as "versionCount",
  (select count(*)::int from "gameVersions" v where v."userGamesId" = ug.id and v."gameVersionStatusId" = 2) as "finishedCount",
  (select max(v."finishedAt") from "gameVersions" v where v."userGamesId" = ug.id and v."gameVersionStatusId" = 2) as "lastFinishedAt",
  (select (count(*) - count(v.verdict))::int from "gameVersions" v where v."userGamesId" = ug.id and v."gameVersionStatusId" = 2) as "toReviewCount",
  (select count(*)::int from notes n where n."versionId" in (select v.id from "gameVersions" v where v."userGamesId" = ug.id) and n."replyTo" is null and n."resolvedAt" is null) as "openNotes",
  (select count(*)::int from notes n where n."versionId" in (select v.id from "gameVersions" v where v."userGamesId" = ug.id) and n."replyTo" is null and n."resolvedAt" is null and n."authorId" = ug."userId") as "openQuestions",
  (select v.verdict from "gameVersions" v where v."userGamesId" = ug.id and v.verdict is not null order by v."verdictAt" desc, v.id desc limit 1) as "lastVerdict",
  (select max(v."verdictAt") from "gameVersions" v where v."userGamesId" = ug.id and v."gameVersionStatusId" = 2) as "lastVerdictAt",
  (select username from users u where u.id = ug."userId") as username,
  (select name from games g where g.id = ug."gameId") as "gameName"
  from "userGames" ug where ug."userId" = $1 and ug."isActive" = 1 order by ug.id`,
};
// Each game with its splash file's stored keys: the card's picture is a preview of the splash's watermarked copy
// (only admins ever get originals), so the answer needs them.
const games = {
  name: 'floor-games',
  text: `select g.id, g.name, g.description, g.width, g.height, g."imagePath", g."gameStatusTypeId", g.engine,
  f."storageKey" as "splashKey", f."copiesKey" as "splashCopiesKey"
  from games g left join "gameFiles" f on f."gameId" = g.id and f.path = g."imagePath" where g.id = any($1::int[])`,
};
const user = {
  name: 'floor-user',
  text: 'select id, "roleTypeId", activated, "tokenVersion" from users where id = $1',
};
const app = Fastify({ logger: false });
app.get('/api/user-games/my-games', async (request, reply) => {
  const payload = verify(request.headers.authorization.slice(7));
  const me = (await pool.query({ ...user, values: [payload.user.id] })).rows[0];
  const rows = (await pool.query({ ...userGames, values: [me.id] })).rows;
  const byId = new Map(
    (await pool.query({ ...games, values: [rows.map((r) => r.gameId)] })).rows.map((g) => [g.id, g]),
  );
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
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);

import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { serverRoot, type Config } from '../config';
import { RoleType, UserGameType, limits } from '@reskin/contract';
import { isUniqueViolation, nowIso } from '../db/database';
import type { Database } from '../db/schema';
import type { GameGeneration } from '../modules/games/game-generation';
import type { GameUploads, IncomingFile } from '../modules/games/game-uploads.service';
import type { GamesService } from '../modules/games/games.service';
import { UsersRepository } from '../modules/users/users.repository';
import { hashPassword } from '../modules/users/users.service';

/**
 * What a start seeds and checks, as the configuration asks (DESIGN.md "Running"): the demo accounts and the sample
 * game on an empty database, the configured administrator, and a warning for demo accounts in production or for no
 * active administrator at all.
 */
export async function seedOnStart(
  config: Pick<Config, 'seedDemo' | 'admin' | 'nodeEnv'>,
  db: Kysely<Database>,
  services: { games: GamesService; uploads: GameUploads; generation: GameGeneration },
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.seedDemo && (await seedDemo(db, log))) {
    await seedSampleGame(db, services.games, services.uploads, services.generation, log);
  }
  if (config.admin) await ensureAdmin(db, config.admin, log);
  if (config.nodeEnv === 'production' && (await demoAccountsPresent(db))) {
    log.warn(
      'NODE_ENV=production and the demo accounts exist: delete them or set SEED_DEMO=false on a fresh database.',
    );
  }
  if (!(await activeAdminPresent(db))) {
    log.warn(
      'NO ACTIVE ADMINISTRATOR: nobody can manage users or games. Set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create one.',
    );
  }
}

/** The demo logins of the README (DESIGN.md "Running"). */
export const demoAccounts = [
  {
    username: 'admin',
    email: 'admin@example.com',
    password: 'admin1234',
    roleTypeId: RoleType.Admin,
    firstName: 'Ada',
    lastName: 'Admin',
  },
  {
    username: 'user',
    email: 'user@example.com',
    password: 'user12345',
    roleTypeId: RoleType.User,
    firstName: 'Uma',
    lastName: 'User',
  },
  {
    username: 'demo',
    email: 'demo@example.com',
    password: 'demo12345',
    roleTypeId: RoleType.Demo,
    firstName: 'Dee',
    lastName: 'Demo',
  },
] as const;

async function userCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Seeds the demo accounts on an empty database (answers true); a database that has any user is left alone. */
export async function seedDemo(db: Kysely<Database>, log: FastifyBaseLogger): Promise<boolean> {
  if ((await userCount(db)) > 0) return false;
  const users = new UsersRepository(db);
  for (const account of demoAccounts) {
    await users.insert({
      username: account.username,
      email: account.email,
      passwordHash: await hashPassword(account.password),
      firstName: account.firstName,
      lastName: account.lastName,
      phone: '5550000000',
      roleTypeId: account.roleTypeId,
      dataProtectionRegulationVersion: limits.dataProtectionRegulationVersion,
    });
  }
  log.info(`seeded the demo accounts: ${demoAccounts.map((a) => a.email).join(', ')}`);
  return true;
}

/** The sample game written for this project (apps/server/sample-game). */
export const sampleGame = {
  folder: join(serverRoot, 'sample-game', 'star-catcher'),
  name: 'Star Catcher',
  description: 'Catch the falling stars with your basket and dodge the bombs. Arrow keys, A/D or the mouse.',
  width: 640,
  height: 480,
  index: 'star-catcher/game/index.html',
  splash: 'star-catcher/assets/img/splash.png',
} as const;

/** Every file under a folder, as game paths that start with the folder's name (as a browser folder upload sends). */
async function* folderFiles(folder: string): AsyncGenerator<IncomingFile> {
  const base = basename(folder);
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(entry.parentPath, entry.name);
    yield { path: [base, ...relative(folder, full).split(sep)].join('/'), content: createReadStream(full) };
  }
}

/**
 * Seeds the sample game: uploaded, index and splash marked, generated (waits until Ready), and assigned to
 * the demo user and the regular user as a ReSkin job (DESIGN.md "Running").
 */
export async function seedSampleGame(
  db: Kysely<Database>,
  games: GamesService,
  uploads: GameUploads,
  generation: GameGeneration,
  log: FastifyBaseLogger,
): Promise<void> {
  const game = await games.create({
    name: sampleGame.name,
    description: sampleGame.description,
    width: sampleGame.width,
    height: sampleGame.height,
  });
  const uploaded = await uploads.upload(game.id, folderFiles(sampleGame.folder));
  const fileIdOf = (path: string) => {
    const file = uploaded.find((result) => result.file.path === path)?.file;
    if (!file) throw new Error(`The sample game has no ${path}`);
    return file.fileId;
  };
  await games.setIndex(game.id, fileIdOf(sampleGame.index));
  await games.setSplash(game.id, fileIdOf(sampleGame.splash));
  await games.generate(game.id);
  await generation.idle();
  const now = nowIso();
  const assignees = await db
    .selectFrom('users')
    .select('id')
    .where('email', 'in', ['demo@example.com', 'user@example.com'])
    .execute();
  for (const { id } of assignees) {
    await db
      .insertInto('userGames')
      .values({
        userId: id,
        gameId: game.id,
        userGameTypeId: UserGameType.ReSkin,
        jobPrice: 150,
        isActive: 1,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
  }
  log.info(`seeded the sample game "${sampleGame.name}" (${uploaded.length} files)`);
}

/** Creates the configured administrator, or resets its password, role and active flag (ADMIN_EMAIL/PASSWORD). */
export async function ensureAdmin(
  db: Kysely<Database>,
  admin: { email: string; password: string },
  log: FastifyBaseLogger,
): Promise<void> {
  const users = new UsersRepository(db);
  const passwordHash = await hashPassword(admin.password);
  const update = async (id: number) => {
    await users.update(id, { passwordHash, roleTypeId: RoleType.Admin, activated: true });
    log.info(`administrator ${admin.email} updated from ADMIN_EMAIL/ADMIN_PASSWORD`);
  };
  const existing = await users.findCredentials(admin.email);
  if (existing) return update(existing.id);
  const base = (admin.email.split('@')[0] ?? 'admin')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 24)
    .padEnd(3, '_');
  let username = base;
  for (let n = 2; (await users.findTaken('', username)).length > 0; n++) username = `${base}-${n}`;
  try {
    await users.insert({
      username,
      email: admin.email,
      passwordHash,
      firstName: 'Administrator',
      lastName: 'Administrator',
      phone: '0000000000',
      roleTypeId: RoleType.Admin,
      dataProtectionRegulationVersion: limits.dataProtectionRegulationVersion,
    });
  } catch (error) {
    // Several app servers starting at once on a new database: another one created the administrator first.
    const created = isUniqueViolation(error) ? await users.findCredentials(admin.email) : undefined;
    if (!created) throw error;
    return update(created.id);
  }
  log.info(`administrator ${admin.email} created from ADMIN_EMAIL/ADMIN_PASSWORD`);
}

/** True while any demo account still exists (the server warns about this in production). */
export async function demoAccountsPresent(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(
      'email',
      'in',
      demoAccounts.map((a) => a.email),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** True while at least one active administrator exists (the server warns loudly at start when none does). */
export async function activeAdminPresent(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('roleTypeId', '=', RoleType.Admin)
    .where('activated', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { RoleType, limits } from '@reskin/contract';
import type { Database } from './schema';
import { UsersRepository } from '../modules/users/users.repository';
import { hashPassword } from '../modules/users/users.service';

/** The demo logins of the README (DESIGN.md "Running"). */
export const demoAccounts = [
  { username: 'admin', email: 'admin@example.com', password: 'admin1234', roleTypeId: RoleType.Admin, firstName: 'Ada', lastName: 'Admin' },
  { username: 'user', email: 'user@example.com', password: 'user12345', roleTypeId: RoleType.User, firstName: 'Uma', lastName: 'User' },
  { username: 'demo', email: 'demo@example.com', password: 'demo12345', roleTypeId: RoleType.Demo, firstName: 'Dee', lastName: 'Demo' },
] as const;

async function userCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Seeds the demo accounts on an empty database; a database that has any user is left alone. */
export async function seedDemo(db: Kysely<Database>, log: FastifyBaseLogger): Promise<void> {
  if ((await userCount(db)) > 0) return;
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
}

/** Creates the configured administrator, or resets its password, role and active flag (ADMIN_EMAIL/PASSWORD). */
export async function ensureAdmin(
  db: Kysely<Database>,
  admin: { email: string; password: string },
  log: FastifyBaseLogger,
): Promise<void> {
  const users = new UsersRepository(db);
  const passwordHash = await hashPassword(admin.password);
  const existing = await users.findCredentials(admin.email);
  if (existing) {
    await users.update(existing.id, { passwordHash, roleTypeId: RoleType.Admin, activated: true });
    log.info(`administrator ${admin.email} updated from ADMIN_EMAIL/ADMIN_PASSWORD`);
    return;
  }
  const base = (admin.email.split('@')[0] ?? 'admin').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24).padEnd(3, '_');
  let username = base;
  for (let n = 2; (await users.findTaken('', username)).length > 0; n++) username = `${base}-${n}`;
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

import type { Kysely, Selectable } from 'kysely';
import { RoleType, type User } from '@reskin/contract';
import { nowIso, toIso, type Dialect } from '../../db/database';
import type { Database, Flag, UsersTable } from '../../db/schema';
import type { CompiledFilter, SearchableEntity } from '../../search/filter';
import { listPage, type Page } from '../../search/page';

/** Every column of a user except the password hash, which only `findCredentials` reads. */
const userColumns = [
  'id',
  'username',
  'email',
  'firstName',
  'lastName',
  'phone',
  'roleTypeId',
  'activated',
  'emailVerified',
  'dataProtectionRegulationVersion',
  'createdAt',
  'updatedAt',
] as const;

/** The user columns a search query may name (POST /user/list). The password hash is not one of them. */
export const searchableUser: SearchableEntity = {
  table: 'users',
  columns: {
    id: 'number',
    username: 'string',
    email: 'string',
    firstName: 'string',
    lastName: 'string',
    phone: 'string',
    roleTypeId: 'number',
    activated: 'boolean',
    emailVerified: 'boolean',
    createdAt: 'date',
    updatedAt: 'date',
  },
};

type UserRow = Omit<Selectable<UsersTable>, 'passwordHash' | 'tokenVersion' | 'inboxMail'>;

function toUser(row: UserRow): User {
  return {
    ...row,
    activated: row.activated === 1,
    emailVerified: row.emailVerified === 1,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

const flag = (on: boolean): Flag => (on ? 1 : 0);

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string;
  roleTypeId: number;
  dataProtectionRegulationVersion: number;
}

export class UsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** Decides the row locks of withActiveAdmins; undefined (seeding, test set-up) takes none. */
    private readonly dialect?: Dialect,
  ) {}

  /** The same repository on a transaction (`trx`) that another repository opened. */
  on(trx: Kysely<Database>): UsersRepository {
    return new UsersRepository(trx, this.dialect);
  }

  /**
   * Runs `work` in one transaction, on a repository of that transaction, after lockActiveAdmins: a change that
   * checks the active administrators there (the last one stays) cannot interleave with another such change.
   */
  async withActiveAdmins<T>(
    work: (activeAdminIds: number[], users: UsersRepository) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      const users = this.on(trx);
      return work(await users.lockActiveAdmins(), users);
    });
  }

  /**
   * The ids of the active administrators, their rows locked until the transaction ends (PostgreSQL: FOR UPDATE in
   * id order, so two such transactions queue rather than deadlock; the second one, once the first commits, re-reads
   * the rows it changed and counts what is left; SQLite runs one write transaction at a time).
   */
  async lockActiveAdmins(): Promise<number[]> {
    const query = this.db
      .selectFrom('users')
      .select('id')
      .where('roleTypeId', '=', RoleType.Admin)
      .where('activated', '=', 1)
      .orderBy('id');
    const rows = await (this.dialect === 'postgres' ? query.forUpdate() : query).execute();
    return rows.map((row) => row.id);
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  /** A user with their token version (decision 0013), for checking a session or play token. */
  async findWithTokenVersion(id: number): Promise<{ user: User; tokenVersion: number } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select([...userColumns, 'tokenVersion'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { tokenVersion, ...user } = row;
    return { user: toUser(user), tokenVersion };
  }

  /** The id, hash and state needed to check a login. Emails are stored lower-cased. */
  async findCredentials(email: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'passwordHash', 'activated'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /**
   * The users (other than `exceptId`) that already hold this email or this username in any case (`Admin` takes
   * `admin`). The unique index on lower("username") (migration 0002) backs this up.
   */
  async findTaken(email: string, username: string, exceptId?: number) {
    let query = this.db
      .selectFrom('users')
      .select(['id', 'email', 'username'])
      .where((eb) =>
        eb.or([
          eb('email', '=', email.toLowerCase()),
          eb(eb.fn('lower', ['username']), '=', username.toLowerCase()),
        ]),
      );
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    return query.execute();
  }

  async insert(user: NewUser): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('users')
      .values({
        ...user,
        email: user.email.toLowerCase(),
        activated: 1,
        emailVerified: 0,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Changes a user. `endSessions` adds one to the token version in the same statement, so every token signed
   * before stops working (decision 0013).
   */
  async update(
    id: number,
    patch: Partial<{
      username: string;
      email: string;
      passwordHash: string;
      roleTypeId: number;
      activated: boolean;
      emailVerified: boolean;
    }>,
    { endSessions = false }: { endSessions?: boolean } = {},
  ): Promise<boolean> {
    const { activated, email, emailVerified, ...rest } = patch;
    const result = await this.db
      .updateTable('users')
      .set((eb) => ({
        ...rest,
        ...(email !== undefined ? { email: email.toLowerCase() } : {}),
        ...(activated !== undefined ? { activated: flag(activated) } : {}),
        ...(emailVerified !== undefined ? { emailVerified: flag(emailVerified) } : {}),
        ...(endSessions ? { tokenVersion: eb('tokenVersion', '+', 1) } : {}),
        updatedAt: nowIso(),
      }))
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async list(filter: CompiledFilter): Promise<Page<User>> {
    const page = await listPage(this.db.selectFrom('users').select(userColumns), filter);
    return { ...page, rows: page.rows.map(toUser) };
  }
}

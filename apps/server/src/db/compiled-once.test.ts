import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledOnce } from './compiled-once';

interface Tables {
  cards: { id: number; owner: number; name: string };
}

describe('compiledOnce', () => {
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  afterAll(() => db.destroy());

  it("builds the query once and runs it with each call's arguments in the places of their stand-ins", async () => {
    await db.schema
      .createTable('cards')
      .addColumn('id', 'integer')
      .addColumn('owner', 'integer')
      .addColumn('name', 'text')
      .execute();
    await db
      .insertInto('cards')
      .values([
        { id: 1, owner: 7, name: 'a' },
        { id: 2, owner: 7, name: 'b' },
        { id: 3, owner: 8, name: 'c' },
      ])
      .execute();
    let builds = 0;
    const cardsOf = compiledOnce(db, (owner: number, name: string) => {
      builds += 1;
      // A constant (the id) stays in its place among the arguments.
      return db
        .selectFrom('cards')
        .select(['id', 'name'])
        .where('owner', '=', owner)
        .where('id', '>', 1)
        .where('name', '!=', name)
        .orderBy('id');
    });
    expect(await cardsOf(7, 'x')).toEqual([{ id: 2, name: 'b' }]);
    expect(await cardsOf(8, 'x')).toEqual([{ id: 3, name: 'c' }]);
    expect(await cardsOf(8, 'c')).toEqual([]);
    expect(builds).toBe(1);
  });
});

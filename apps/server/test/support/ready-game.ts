import { expect } from 'vitest';
import { GameStatus, type Game, type GameFile } from '@reskin/contract';
import { call, createGame, filesForm, type TestApp, type TestUser } from '../helpers';

/**
 * A game made Ready through the API, as an admin makes one: created, its files uploaded, `index` marked as its
 * start file, generated (and waited for).
 */
export async function readyGame(
  t: TestApp,
  admin: TestUser,
  name: string,
  files: { path: string; content: Buffer | string }[],
  index = 'index.html',
): Promise<{ game: Game; files: GameFile[] }> {
  const created = await createGame(t, admin.token, { name, description: 'x', width: 480, height: 640 });
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/game/upload/${created.id}`,
    headers: { authorization: `Bearer ${admin.token}` },
    payload: filesForm(files),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const list = (await call(t, 'GET', `/api/games/${created.id}/files`, { token: admin.token })).json<
    GameFile[]
  >();
  const start = list.find((file) => file.path === index);
  if (!start) throw new Error(`no ${index} among the uploaded files`);
  await call(t, 'PATCH', `/api/games/${created.id}/files/${start.fileId}/index`, { token: admin.token });
  await call(t, 'GET', `/api/games/${created.id}/generate`, { token: admin.token });
  await t.generation.idle();
  const game = (await call(t, 'GET', `/api/games/${created.id}`, { token: admin.token })).json<Game>();
  expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
  return { game, files: list };
}

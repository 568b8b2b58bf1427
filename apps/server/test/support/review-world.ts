import { expect } from 'vitest';
import {
  GameStatus,
  RoleType,
  type Game,
  type GameFile,
  type GameVersion,
  type UserGame,
} from '@reskin/contract';
import { call, createUser, type TestApp, type TestUser } from '../helpers';
import { solidPng } from './image-samples';

/**
 * The review loop's cast and stage (the review tests): two active admins (reviewers), an artist, another artist
 * without the game, a demo account assigned to the game, and a Ready game with index.html, hero.png (a sprite
 * sheet of two 8×16 frames "left" and "right", described by hero.json) and bg.png.
 */
export interface ReviewWorld {
  admin: TestUser;
  admin2: TestUser;
  artist: TestUser;
  other: TestUser;
  demo: TestUser;
  game: Game;
  userGame: UserGame;
  fileIds: { index: number; hero: number; bg: number };
  png16: Buffer;
  png8x16: Buffer;
}

export async function reviewWorld(t: TestApp): Promise<ReviewWorld> {
  const admin = await createUser(t, RoleType.Admin);
  const admin2 = await createUser(t, RoleType.Admin);
  const artist = await createUser(t);
  const other = await createUser(t);
  const demo = await createUser(t, RoleType.Demo);
  const png16 = await solidPng(16, 16, 'orange');
  const png8x16 = await solidPng(8, 16, 'blue');
  const created = await call(t, 'POST', '/api/games', {
    token: admin.token,
    payload: { name: `Review ${Math.random()}`, description: 'd', width: 480, height: 640 },
  });
  expect(created.statusCode, created.body).toBe(201);
  const gameId = created.json<Game>().id;
  const body = new FormData();
  const sheet = {
    frames: { left: { frame: { x: 0, y: 0, w: 8, h: 16 } }, right: { frame: { x: 8, y: 0, w: 8, h: 16 } } },
    meta: { image: 'hero.png' },
  };
  for (const file of [
    { path: 'index.html', content: '<!doctype html><p>hi' },
    { path: 'hero.png', content: png16 },
    { path: 'hero.json', content: JSON.stringify(sheet) },
    { path: 'bg.png', content: await solidPng(16, 16, 'green') },
  ]) {
    body.append('fullPath', file.path);
    body.append('file', new Blob([file.content]), file.path);
  }
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/game/upload/${gameId}`,
    headers: { authorization: `Bearer ${admin.token}` },
    payload: body,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const files = (await call(t, 'GET', `/api/games/${gameId}/files`, { token: admin.token })).json<
    GameFile[]
  >();
  const idOf = (path: string) => files.find((f) => f.path === path)!.fileId;
  await call(t, 'PATCH', `/api/games/${gameId}/files/${idOf('index.html')}/index`, { token: admin.token });
  await call(t, 'GET', `/api/games/${gameId}/generate`, { token: admin.token });
  await t.generation.idle();
  const game = (await call(t, 'GET', `/api/games/${gameId}`, { token: admin.token })).json<Game>();
  expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
  const userGame = await assign(t, admin, artist, gameId);
  await assign(t, admin, demo, gameId);
  return {
    admin,
    admin2,
    artist,
    other,
    demo,
    game,
    userGame,
    fileIds: { index: idOf('index.html'), hero: idOf('hero.png'), bg: idOf('bg.png') },
    png16,
    png8x16,
  };
}

export async function assign(t: TestApp, admin: TestUser, user: TestUser, gameId: number): Promise<UserGame> {
  const response = await call(t, 'POST', '/api/user-games', {
    token: admin.token,
    payload: { userId: user.id, gameId, userGameTypeId: 1, jobPrice: 10 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<UserGame>();
}

export async function newVersion(t: TestApp, w: ReviewWorld, name = 'Look'): Promise<GameVersion> {
  const response = await call(t, 'POST', '/api/game-versions', {
    token: w.artist.token,
    payload: {
      name: `${name} ${Math.floor(Math.random() * 1e6)}`,
      description: 'My look',
      gameId: w.game.id,
      userGamesId: w.userGame.id,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<GameVersion>();
}

export async function finish(t: TestApp, token: string, versionId: number): Promise<GameVersion> {
  const response = await call(t, 'POST', '/api/game-versions/done', { token, payload: { id: versionId } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<GameVersion>();
}

/** A multipart body with one file part (the single and frame uploads), `frame` first when given. */
export function uploadForm(content: Buffer, name: string, frame?: string): FormData {
  const body = new FormData();
  if (frame) body.append('frame', frame);
  body.append('file', new Blob([content]), name);
  return body;
}

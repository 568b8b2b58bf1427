import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GameStatus,
  RoleType,
  copyMimeTypes,
  imageFormats,
  type Game,
  type GameFile,
  type GamePath,
  type GameVersion,
  type ImageFormatName,
  type UserGame,
} from '@reskin/contract';
import { playHeaders, svgContentSecurityPolicy } from '../src/play/play-app';
import { call, createTestApp, createUser, errorOf, testDb, type TestApp, type TestUser } from './helpers';
import { sampleImage, sampleSvg, svgFont } from './support/image-samples';

/** sharp's name of each copy format. */
const sharpFormat = { png: 'png', jpeg: 'jpeg', gif: 'gif', webp: 'webp', avif: 'heif', svg: 'svg' } as const;
const formats = Object.keys(imageFormats) as ImageFormatName[];

describe(`[API-3] file kinds: every image format gets real copies, SVG fonts and empty files are ordinary files, on ${testDb}`, () => {
  let t: TestApp;
  let admin: TestUser;
  let artist: TestUser;
  let game: Game;
  let files: GameFile[];
  let paths: GamePath;
  const uploads: { path: string; content: Buffer }[] = [];
  const fileOf = (path: string) => files.find((file) => file.path === path)!;
  const get = (base: string, path: string) =>
    t.playApp.inject({ method: 'GET', url: new URL(base).pathname.replace(/index\.html$/, '') + path });

  function uploadBody(entries: { path: string; content: Buffer }[]): FormData {
    const body = new FormData();
    for (const entry of entries) {
      body.append('fullPath', entry.path);
      body.append('file', new Blob([entry.content]), entry.path);
    }
    return body;
  }
  const upload = (gameId: number, entries: { path: string; content: Buffer }[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/game/upload/${gameId}`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: uploadBody(entries),
    });

  beforeAll(async () => {
    t = await createTestApp();
    [admin, artist] = [await createUser(t, RoleType.Admin), await createUser(t)];
    game = (
      await call(t, 'POST', '/api/games', {
        token: admin.token,
        payload: { name: 'Every kind', description: 'd', width: 640, height: 480 },
      })
    ).json<Game>();
    uploads.push({ path: 'index.html', content: Buffer.from('<canvas></canvas>') });
    for (const format of formats) {
      const { name, content } = await sampleImage(format, 120, 80);
      uploads.push({ path: `img/${name}`, content });
    }
    uploads.push(
      { path: 'fonts/gamefont.svg', content: svgFont },
      { path: 'fonts/gamefont.woff', content: Buffer.from('wOFF') },
      { path: 'empty.txt', content: Buffer.alloc(0) },
      { path: 'img/placeholder.svg', content: Buffer.alloc(0) },
      { path: 'levels/empty.dat', content: Buffer.alloc(0) },
    );
    const response = await upload(game.id, uploads);
    expect(response.statusCode, response.body).toBe(200);
    files = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>();
    await call(t, 'PATCH', `/api/games/${game.id}/files/${fileOf('index.html').fileId}/index`, {
      token: admin.token,
    });
    await call(t, 'GET', `/api/games/${game.id}/generate`, { token: admin.token });
    for (let i = 0; i < 400 && game.gameStatusTypeId !== GameStatus.Ready; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      game = (await call(t, 'GET', `/api/games/${game.id}`, { token: admin.token })).json<Game>();
      if (game.gameStatusTypeId === GameStatus.Failed)
        throw new Error(game.statusReason ?? 'generation failed');
    }
    expect(game.gameStatusTypeId).toBe(GameStatus.Ready);
    const assigned = await call(t, 'POST', '/api/user-games', {
      token: admin.token,
      payload: { userId: artist.id, gameId: game.id, userGameTypeId: 1, jobPrice: 1 },
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    paths = (await call(t, 'GET', `/api/games/${game.id}/path/`, { token: artist.token })).json<GamePath>();
  });
  afterAll(async () => t.close());

  it('an SVG web font and empty files upload and are listed as ordinary files (no pixel size)', () => {
    for (const path of ['fonts/gamefont.svg', 'img/placeholder.svg', 'empty.txt', 'levels/empty.dat']) {
      expect(fileOf(path), path).toMatchObject({ width: null, height: null });
    }
    expect(fileOf('empty.txt').size).toBe(0);
    expect(fileOf('fonts/gamefont.svg')).toMatchObject({
      size: svgFont.length,
      contentType: 'image/svg+xml',
    });
    for (const format of formats)
      expect(fileOf(`img/sample.${imageFormats[format].extensions[0]}`)).toMatchObject({
        width: 120,
        height: 80,
      });
  });

  it('the play origin serves the SVG font and the empty files unchanged in every view', async () => {
    for (const base of [paths.emtFile, paths.wtmFile, paths.orjFile]) {
      const font = await get(base, 'fonts/gamefont.svg');
      expect(font.statusCode).toBe(200);
      expect(font.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(font.rawPayload.equals(svgFont)).toBe(true);
      for (const path of ['empty.txt', 'img/placeholder.svg', 'levels/empty.dat']) {
        const empty = await get(base, path);
        expect(empty.statusCode, path).toBe(200);
        expect(empty.headers['content-length'], path).toBe('0');
        expect(empty.rawPayload.length, path).toBe(0);
      }
    }
  });

  for (const format of formats) {
    it(`a ${format} image gets a skeleton and a watermark that the browser renders and that differ from it`, async () => {
      const path = `img/sample.${imageFormats[format].extensions[0]}`;
      const original = uploads.find((upload) => upload.path === path)!.content;
      const copiesAs = imageFormats[format].copiesAs;
      for (const base of [paths.emtFile, paths.wtmFile]) {
        const copy = await get(base, path);
        expect(copy.statusCode, base).toBe(200);
        // The copy's real type, so the browser (nosniff) renders it: a BMP's or an icon's copies are PNG.
        expect(copy.headers['content-type']).toBe(
          copyMimeTypes[copiesAs] + (copiesAs === 'svg' ? '; charset=utf-8' : ''),
        );
        expect(copy.rawPayload.equals(original)).toBe(false);
        const meta = await sharp(copy.rawPayload).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([sharpFormat[copiesAs], 120, 80]);
      }
    });
  }

  it('a watermarked SVG holds the mark in its pixels: no drawing of the original is left to delete', async () => {
    const marked = (await get(paths.wtmFile, 'img/sample.svg')).rawPayload.toString();
    expect(marked).toMatch(/<image [^>]*href="data:image\/png;base64,/);
    expect(marked).not.toContain('<rect');
  });

  it('an SVG that is not drawable is never offered for replacement', async () => {
    const userGame = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<
      UserGame[]
    >()[0]!;
    const version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: {
          name: 'Font try',
          description: 'Fonts',
          gameId: game.id,
          userGamesId: userGame.id,
          isLocked: false,
        },
      })
    ).json<GameVersion>();
    const body = uploadBody([{ path: 'gamefont.svg', content: svgFont }]);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/game-version/upload/${version.id}/${fileOf('fonts/gamefont.svg').fileId}`,
      headers: { authorization: `Bearer ${artist.token}` },
      payload: body,
    });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).details?.[0]).toMatchObject({ code: 'not_replaceable' });
  });

  it("an artist's SVG with a script, an event handler or an external reference is refused with what was found; a clean one is stored", async () => {
    const userGame = (await call(t, 'GET', '/api/user-games/my-games', { token: artist.token })).json<
      UserGame[]
    >()[0]!;
    const version = (
      await call(t, 'POST', '/api/game-versions', {
        token: artist.token,
        payload: {
          name: 'SVG try',
          description: 'Vector art',
          gameId: game.id,
          userGamesId: userGame.id,
          isLocked: false,
        },
      })
    ).json<GameVersion>();
    const target = fileOf('img/sample.svg');
    const send = (content: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/game-version/upload/${version.id}/${target.fileId}`,
        headers: { authorization: `Bearer ${artist.token}` },
        payload: uploadBody([{ path: 'sample.svg', content: Buffer.from(content) }]),
      });
    const clean = sampleSvg(120, 80).toString();
    const cases: [string, string][] = [
      [clean.replace('</svg>', '<script>alert(document.domain)</script></svg>'), '<script>'],
      [clean.replace('<rect ', '<rect onclick="steal()" '), 'event handler (onclick)'],
      [
        clean.replace('</svg>', '<image href="https://evil.example/x.png" width="1" height="1"/></svg>'),
        'https://evil.example/x.png',
      ],
      [
        clean.replace('</svg>', '<foreignObject width="10" height="10"><p>hi</p></foreignObject></svg>'),
        '<foreignObject>',
      ],
      [clean.replace('</svg>', '<style>@import url(other.css);</style></svg>'), '@import'],
      // The audit's bypasses of the old regular-expression check.
      [
        clean.replace(
          '</svg>',
          '<a.b:script xmlns:a.b="http://www.w3.org/2000/svg">alert(1)</a.b:script></svg>',
        ),
        '<script>',
      ],
      [
        clean.replace('</svg>', '<style>rect { fill: u\\72l(https://evil.example/x) }</style></svg>'),
        'https://evil.example/x',
      ],
      [
        clean.replace('</svg>', '<set attributeName="onload" to="alert(1)"/></svg>'),
        'event handler (onload)',
      ],
      ['<?xml-stylesheet href="#s"?>' + clean, '<?xml-stylesheet?>'],
    ];
    for (const [svg, named] of cases) {
      const response = await send(svg);
      expect(response.statusCode, named).toBe(422);
      expect(errorOf(response).details?.[0]?.code).toBe('unsafe_svg');
      expect(errorOf(response).message).toContain(named);
    }
    expect(
      (
        await call(t, 'GET', `/api/game-versions/files/${version.id}/${game.id}`, { token: artist.token })
      ).json<unknown[]>(),
    ).toEqual([]);
    const stored = await send(clean.replace('#143ca0', '#ff0000'));
    expect(stored.statusCode, stored.body).toBe(200);

    // The play origin answers the artist's SVG with a policy of its own that runs no script, on a
    // revalidation (304) too, since a browser updates a cached answer's headers from it.
    const versionPaths = (
      await call(t, 'GET', `/api/game-versions/path/${version.id}/${game.id}`, { token: artist.token })
    ).json<GamePath>();
    const served = await get(versionPaths.orjFile, 'img/sample.svg');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.toString()).toContain('#ff0000');
    expect(served.headers['content-security-policy']).toBe(svgContentSecurityPolicy);
    const again = await t.playApp.inject({
      method: 'GET',
      url: new URL(versionPaths.orjFile).pathname.replace(/index\.html$/, '') + 'img/sample.svg',
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(svgContentSecurityPolicy);
  });

  it('every SVG on the play origin, in every view, carries a policy that runs no script; other files keep the sandbox', async () => {
    for (const base of [paths.emtFile, paths.wtmFile, paths.orjFile]) {
      for (const path of ['img/sample.svg', 'fonts/gamefont.svg', 'img/placeholder.svg']) {
        const response = await get(base, path);
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-security-policy'], `${base} ${path}`).toBe(svgContentSecurityPolicy);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
      }
      for (const path of ['index.html', 'img/sample.png']) {
        expect((await get(base, path)).headers['content-security-policy'], path).toBe(
          playHeaders['Content-Security-Policy'],
        );
      }
    }
    expect(svgContentSecurityPolicy).not.toContain('script');
    expect(svgContentSecurityPolicy).toContain("default-src 'none'");
  });

  it('an empty raster image is refused with a clear message; nothing of the upload is stored', async () => {
    const before = (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<
      GameFile[]
    >();
    const response = await upload(game.id, [
      { path: 'new.txt', content: Buffer.from('x') },
      { path: 'img/blank.png', content: Buffer.alloc(0) },
    ]);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response).message).toBe(
      'img/blank.png is empty (0 bytes); an image file must hold an image.',
    );
    expect(
      (await call(t, 'GET', `/api/games/${game.id}/files`, { token: admin.token })).json<GameFile[]>(),
    ).toEqual(before);
  });
});

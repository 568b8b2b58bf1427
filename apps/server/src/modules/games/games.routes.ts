import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createGameBodySchema,
  filePageQuerySchema,
  filesUploadPartsSchema,
  gameFileListSchema,
  gameFileParamsSchema,
  gameFileSchema,
  gameFileSearchResponseSchema,
  gameIdParamSchema,
  gameListResponseSchema,
  gameSchema,
  limits,
  messageResponseSchema,
  searchFilterSchema,
  updateGameBodySchema,
  uploadMessages,
  uploadResultSchema,
  zipUploadPartsSchema,
} from '@reskin/contract';
import { z } from 'zod';
import { noFile } from '../../lib/errors';
import {
  fileContent,
  fileTooLarge,
  maxMultipartBytes,
  readUpload,
  refuseDeclaredBodyOver,
  streamUpload,
  uploadTooLarge,
} from '../../lib/multipart';
import { currentUser } from '../../plugins/auth';
import { revalidatedRoutes } from '../../plugins/revalidation';
import { sendPage } from '../../search/page';
import { uploadGameZip } from './game-zip';
import { uploadTooManyFiles, type GameUploads, type IncomingFile } from './game-uploads.service';
import type { GamesService } from './games.service';

export interface GamesRoutesOptions {
  games: GamesService;
  uploads: GameUploads;
  maxFileSizeBytes: number;
}

/**
 * The file parts of a multipart upload, each paired with the `fullPath` field sent before it (the browser's
 * folder path; the file's own name when none came), the fields parsed by the contract's filesUploadPartsSchema
 * (lib/multipart.ts streamUpload). Each file must be consumed before the next is read; its content fails with
 * a 413 when the file is over the per-file limit. A body that cannot be read is a 400, every part must have a name.
 */
export async function* incomingFiles(
  request: FastifyRequest,
  maxFileSizeBytes: number,
): AsyncGenerator<IncomingFile> {
  const upload = streamUpload(request, filesUploadPartsSchema, {
    maxFileSizeBytes,
    tooManyFiles: uploadTooManyFiles,
  });
  for await (const { part, fields } of upload.files) {
    const path = fields.fullPath ?? part.filename ?? '';
    yield { path, content: fileContent(part, path, maxFileSizeBytes) };
  }
}

/**
 * SPEC §7 "Games" and POST /game/upload/{gameId}. Every call is for administrators, except the file list,
 * which an artist's workbench reads too (admins, or users with an active assignment of the game).
 */
export async function gamesRoutes(app: FastifyInstance, options: GamesRoutesOptions) {
  // A big game's longest list, read whenever a workbench or review screen opens: revalidated (decision 0063).
  await revalidatedRoutes(app, (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().get(
      '/games/:id/files',
      {
        onRequest: app.requireUser,
        schema: {
          tags: ['games'],
          summary:
            "A game's files by path (admins, or users with an active assignment of the game): all of them, or a page: those after `after`, at most `limit`",
          params: gameIdParamSchema,
          querystring: filePageQuerySchema,
          response: { 200: gameFileListSchema },
        },
      },
      async (request) => options.games.files(currentUser(request), request.params.id, request.query),
    );
  });
  await app.register(adminGamesRoutes, options);
}

async function adminGamesRoutes(
  app: FastifyInstance,
  { games, uploads, maxFileSizeBytes }: GamesRoutesOptions,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['games'];
  // On each route (not a plugin hook), so the OpenAPI document sees the guard (openapi.ts).
  const admin = { onRequest: app.requireAdmin };

  r.post(
    '/games/filter',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Search games (LoopBack-style filter)',
        body: searchFilterSchema,
        response: { 200: gameListResponseSchema },
        paged: true,
      },
    },
    async (request, reply) => sendPage(reply, await games.filter(currentUser(request), request.body)),
  );

  r.post(
    '/games/:id/files/filter',
    {
      ...admin,
      schema: {
        tags,
        summary: "Search a game's files (LoopBack-style filter; GET /games/{id}/files lists them all)",
        params: gameIdParamSchema,
        body: searchFilterSchema,
        response: { 200: gameFileSearchResponseSchema },
        paged: true,
      },
    },
    async (request, reply) =>
      sendPage(reply, await games.filterFiles(currentUser(request), request.params.id, request.body)),
  );

  r.post(
    '/games',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Add a game (a Draft without files)',
        body: createGameBodySchema,
        response: { 201: gameSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await games.create(request.body)),
  );

  r.get(
    '/games/:id',
    {
      ...admin,
      schema: { tags, summary: 'A game', params: gameIdParamSchema, response: { 200: gameSchema } },
    },
    async (request) => games.get(request.params.id),
  );

  r.patch(
    '/games/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Edit a game inline (the status can only be set back to Draft by hand)',
        params: gameIdParamSchema,
        body: updateGameBodySchema,
        response: { 200: gameSchema },
      },
    },
    async (request) => games.update(request.params.id, request.body),
  );

  r.delete(
    '/games/:id',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Delete a game with all its files',
        params: gameIdParamSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await games.delete(request.params.id);
      return { message: 'Game deleted.' };
    },
  );

  r.get(
    '/games/:id/generate',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Gen.: generate the skeleton and watermarked copies in the background',
        description:
          'Answers at once with the game, now Generating (3); it becomes Ready (2) or Failed (4, with statusReason). ' +
          'A second call while a generation runs starts nothing.',
        params: gameIdParamSchema,
        response: { 200: gameSchema },
      },
    },
    async (request) => games.generate(request.params.id),
  );

  r.patch(
    '/games/:id/files/:fileId/index',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Mark the index file (clears the flag on the others)',
        description: 'Only an .html (or .htm) file can be the index; any other is refused with 422.',
        params: gameFileParamsSchema,
        response: { 200: gameFileSchema },
      },
    },
    async (request) => games.setIndex(request.params.id, request.params.fileId),
  );

  r.patch(
    '/games/:id/files/:fileId/splash',
    {
      ...admin,
      schema: {
        tags,
        summary: "Mark the splash image (the game's card image)",
        params: gameFileParamsSchema,
        response: { 200: gameFileSchema },
      },
    },
    async (request) => games.setSplash(request.params.id, request.params.fileId),
  );

  r.delete(
    '/games/:id/files/:fileId',
    {
      ...admin,
      schema: {
        tags,
        summary: 'Delete a game file',
        params: gameFileParamsSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await games.deleteFile(request.params.id, request.params.fileId);
      return { message: 'File deleted.' };
    },
  );

  r.post(
    '/game/upload/:id',
    {
      ...admin,
      preValidation: refuseDeclaredBodyOver(
        maxMultipartBytes(limits.adminUploadFiles, maxFileSizeBytes),
        () => uploadTooLarge(limits.adminUploadFiles, maxFileSizeBytes),
      ),
      schema: {
        tags,
        summary:
          'Upload game files (multipart: a fullPath field before each file; up to 1000 files, all or nothing)',
        description:
          'A file whose path exists replaces that file and keeps its fileId; a png or jpg replacement must keep ' +
          'the original width and height. Images are checked by content. Any refusal stores nothing.',
        params: gameIdParamSchema,
        multipartBody: filesUploadPartsSchema,
        response: { 200: z.array(uploadResultSchema) },
      },
    },
    async (request) => uploads.upload(request.params.id, incomingFiles(request, maxFileSizeBytes)),
  );

  r.post(
    '/game/upload-zip/:id',
    {
      ...admin,
      preValidation: refuseDeclaredBodyOver(maxMultipartBytes(1, limits.zipUpload.maxZipBytes), () =>
        fileTooLarge('The .zip', limits.zipUpload.maxZipBytes),
      ),
      schema: {
        tags,
        summary:
          'Upload a game folder as one .zip (multipart: one file part; unpacked on the server, all or nothing)',
        description:
          'Every entry is taken as a file of a folder upload, with the same rules (paths, types, the per-file limit, ' +
          `at most ${limits.adminUploadFiles} files). Folders, __MACOSX/ and .DS_Store entries are skipped; when all entries ` +
          'share one top folder (mygame/index.html), it is left out. Against zip bombs, the entries may unpack to at ' +
          `most ${limits.zipUpload.maxUnpackedBytes / 1024 ** 3} GB together, and an entry of 1 MB or more to at most ` +
          `${limits.zipUpload.maxCompressionRatio} times its packed size (declared sizes, then the bytes counted while ` +
          'inflating). The answer is one result per file, as for a folder upload. Any refusal stores nothing.',
        params: gameIdParamSchema,
        multipartBody: zipUploadPartsSchema,
        response: { 200: z.array(uploadResultSchema) },
        errors: {
          413: `The zip is over ${limits.zipUpload.maxZipBytes / 1024 ** 3} GB, an entry is over the per-file limit (FILE_TOO_LARGE), more than ${limits.adminUploadFiles} files (TOO_MANY_FILES), or a zip bomb (ZIP_BOMB).`,
          422: 'Not a readable .zip (INVALID_ZIP: corrupt, cut short, encrypted), an entry path outside the game (../, absolute), or a file the folder upload refuses.',
        },
      },
    },
    async (request) => {
      await games.get(request.params.id);
      const { content } = await readUpload(request, zipUploadPartsSchema, {
        maxFileSizeBytes: limits.zipUpload.maxZipBytes,
        missing: () => noFile(uploadMessages.noFileInUpload, uploadMessages.chooseZip),
      });
      return uploadGameZip(uploads, request.params.id, content, maxFileSizeBytes);
    },
  );
}

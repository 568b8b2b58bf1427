import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  frameUploadPartsSchema,
  frameUploadSchema,
  noContentSchema,
  versionFileParamsSchema,
  versionFrameParamsSchema,
} from '@reskin/contract';
import { fileTooLarge, maxMultipartBytes, readUpload, refuseDeclaredBodyOver } from '../../../lib/multipart';
import { currentUser } from '../../../plugins/auth';
import type { VersionIntake } from '../intake/version-intake';
import type { VersionFramesService } from './version-frames.service';

const changeErrors = {
  403: 'Demo accounts cannot create or change versions (FORBIDDEN).',
  404: 'No such version, not one of your active assignments, no such game file, or no such frame in the sheet (NOT_FOUND).',
  423: 'The version is locked (VERSION_LOCKED) or disabled (VERSION_DISABLED).',
};

/** Replacing and restoring single frames of a sprite sheet in a version. */
export async function versionFramesRoutes(
  app: FastifyInstance,
  {
    frames,
    intake,
    maxFileSizeBytes,
  }: { frames: VersionFramesService; intake: VersionIntake; maxFileSizeBytes: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['game-versions'];
  const user = { onRequest: app.requireUser };

  r.post(
    '/game-version/upload-frame/:versionId/:fileId',
    {
      ...user,
      preValidation: refuseDeclaredBodyOver(maxMultipartBytes(1, maxFileSizeBytes), () =>
        fileTooLarge(undefined, maxFileSizeBytes),
      ),
      schema: {
        tags,
        summary:
          "Replace one frame of a sprite sheet inside a version (multipart: frame, then file); the version's sheet is composed before the answer",
        params: versionFileParamsSchema,
        multipartBody: frameUploadPartsSchema,
        response: { 200: frameUploadSchema },
        errors: {
          ...changeErrors,
          422: "No frame name or file, a file that is not an image, an image of another size than the frame's source size (the message names it), or a game file that is no sprite sheet.",
        },
      },
    },
    async (request) => {
      const { file, content, fields } = await readUpload(request, frameUploadPartsSchema, {
        maxFileSizeBytes,
      });
      return intake.uploadFrame(currentUser(request), request.params.versionId, request.params.fileId, {
        frame: fields.frame,
        fileName: file.filename,
        content,
      });
    },
  );

  r.delete(
    '/game-versions/:versionId/files/:fileId/frames/:frameName',
    {
      ...user,
      schema: {
        tags,
        summary:
          "Restore one frame of a sprite sheet in a version: the version's sheet is composed again without it",
        params: versionFrameParamsSchema,
        response: { 204: noContentSchema },
        errors: {
          ...changeErrors,
          404: 'No such version, game file, or no replacement of this frame in the version (NOT_FOUND).',
        },
      },
    },
    async (request, reply) => {
      await frames.restoreFrame(
        currentUser(request),
        request.params.versionId,
        request.params.fileId,
        request.params.frameName,
      );
      return reply.status(204).send(null);
    },
  );
}

import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { image, imageFileParam, imageListQuery, IMAGE_TYPES } from '@paddock/contract/images';
import { detailBody, idParam, paginated } from '@paddock/contract/common';
import { routeErrors as errors } from '../../lib/route-errors';
import type { Deps } from '../../deps';
import { requireUser } from '../../plugins/auth';
import { ValidationError } from '../../plugins/errors';
import type { ImageStorage } from './image-storage-type';
import * as images from './images.service';

const tags = ['images'];
/** Routes that reach the image storage: a bucket that does not answer is a 503 (decision 0052). */
const storageErrors = { ...errors, 503: detailBody };
const TYPE_OF_EXTENSION = Object.fromEntries(
  Object.entries(IMAGE_TYPES).map(([type, extension]) => [extension, type]),
);
/** The file's name is its content's hash: it never changes, so browsers may keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The one file of a multipart upload, refused with a 400 on `file` however it goes wrong. */
async function readUpload(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart())
    throw ValidationError.field(
      'file',
      'Send the image as multipart/form-data in the field "file".',
    );
  try {
    const part = await request.file({
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 11 },
      throwFileSizeLimit: true,
    });
    if (!part) throw ValidationError.field('file', 'No file was submitted.');
    return await part.toBuffer();
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw ValidationError.field('file', images.oversizeMessage(maxBytes));
    throw ValidationError.field('file', 'The upload could not be read.');
  }
}

export const imagesRoutes =
  (deps: Deps, storage: ImageStorage): FastifyPluginAsyncZod =>
  async (app) => {
    const db = deps.database.db;
    const maxBytes = deps.config.images.maxBytes;

    app.get(
      '/images',
      {
        schema: {
          tags,
          summary: 'Uploaded images, newest first',
          querystring: imageListQuery,
          response: { 200: paginated(image), ...errors },
        },
      },
      async (request) => images.listImages(db, request.query),
    );

    app.get(
      '/images/:id',
      { schema: { tags, params: idParam, response: { 200: image, ...errors } } },
      async (request) => images.getImage(db, request.params.id),
    );

    app.get(
      '/images/files/:name',
      {
        schema: {
          tags,
          summary: "An image's file (its URL)",
          params: imageFileParam,
          response: {
            200: {
              description: 'The image, cached for a year (its name is its hash)',
              content: Object.fromEntries(
                Object.keys(IMAGE_TYPES).map((type) => [type, { schema: z.string() }]),
              ),
            },
            ...storageErrors,
          },
        },
      },
      async (request, reply) => {
        const { name } = request.params;
        const body = await storage.read(name);
        if (!body) return reply.status(404).send({ detail: 'Not found.' });
        return (
          reply
            .type(TYPE_OF_EXTENSION[name.slice(name.lastIndexOf('.') + 1)])
            .header('cache-control', IMMUTABLE)
            // A stream goes out as it is (no serializer); the schema above documents its bytes.
            .send(body as unknown as string)
        );
      },
    );

    app.delete(
      '/images/:id',
      { schema: { tags, params: idParam, response: { 204: z.undefined(), ...storageErrors } } },
      async (request, reply) => {
        await images.deleteImage({ db, storage }, request.params.id);
        return reply.status(204).send();
      },
    );

    // Multipart only here: every other route keeps its JSON body.
    await app.register(async (uploads) => {
      await uploads.register(multipart);
      uploads.post(
        '/images',
        {
          schema: {
            tags,
            summary: `Upload an image (multipart/form-data, field "file"; PNG, JPEG, WebP or GIF)`,
            documentBody: {
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: {
                      file: {
                        type: 'string',
                        contentMediaType: 'application/octet-stream',
                        description: 'The image: PNG, JPEG, WebP or GIF',
                      },
                    },
                    required: ['file'],
                  },
                },
              },
            },
            response: { 201: image, ...storageErrors },
          },
        },
        async (request, reply) => {
          const user = requireUser(request);
          const bytes = await readUpload(request, maxBytes);
          return reply.status(201).send(await images.addImage({ db, storage }, user.id, bytes));
        },
      );
    });
  };

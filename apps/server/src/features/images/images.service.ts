import { IMAGE_TYPES, type Image } from '@paddock/contract/images';
import type { Paginated, PaginationQuery } from '@paddock/contract/common';
import type { Db } from '../../db/client';
import { sha256Hex } from '../../lib/hash';
import { NotFound, ValidationError } from '../../plugins/errors';
import { paginate } from '../../plugins/pagination';
import type { ImageStorage } from './image-storage-type';
import { sniffImageType } from './image-type';
import * as repo from './images.repo';

export type ImageDeps = { db: Db; storage: ImageStorage };

export const IMAGE_FILES_PATH = '/api/images/files/';
export const WRONG_TYPE_MESSAGE = 'Upload a PNG, JPEG, WebP or GIF image.';
export const oversizeMessage = (maxBytes: number) =>
  `The image may be at most ${formatSize(maxBytes)}.`;

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;

const toImage = (row: repo.ImageRow): Image => ({
  id: row.id,
  url: `${IMAGE_FILES_PATH}${row.file}`,
  owner: row.ownerId,
  content_type: row.contentType as Image['content_type'],
  size: row.size,
  created: row.createdAt.toISOString(),
});

export async function listImages(db: Db, query: PaginationQuery): Promise<Paginated<Image>> {
  const page = await paginate(
    query,
    () => repo.countImages(db),
    (limit, offset) => repo.listImages(db, limit, offset),
  );
  return { ...page, results: page.results.map(toImage) };
}

export async function getImage(db: Db, id: number): Promise<Image> {
  const row = await repo.findImage(db, id);
  if (!row) throw new NotFound();
  return toImage(row);
}

/**
 * Keeps an uploaded file once its bytes say it is a PNG, JPEG, WebP or GIF (the name and the
 * browser's type are not trusted). Its name is its hash: the same file twice is one image.
 */
export async function addImage(deps: ImageDeps, ownerId: number, bytes: Buffer): Promise<Image> {
  if (bytes.length === 0) throw ValidationError.field('file', 'The file is empty.');
  const type = await sniffImageType(bytes);
  if (!type) throw ValidationError.field('file', WRONG_TYPE_MESSAGE);
  const file = `${sha256Hex(bytes)}.${IMAGE_TYPES[type]}`;
  // The file first: a row never points at a file that is not there.
  await deps.storage.put(file, bytes, type);
  const row = await repo.insertImage(deps.db, {
    file,
    contentType: type,
    size: bytes.length,
    ownerId,
  });
  return toImage(row);
}

/** Refused while the venue still shows it (settings, seat types, seats): a broken image else. */
export async function deleteImage(deps: ImageDeps, id: number): Promise<void> {
  const row = await repo.findImage(deps.db, id);
  if (!row) throw new NotFound();
  const uses = await repo.usesOf(deps.db, toImage(row).url);
  if (uses.length > 0)
    throw ValidationError.nonField(
      `This image is in use by ${uses.join(', ')}. Change those first.`,
    );
  if (await repo.deleteImage(deps.db, id)) await deps.storage.remove(row.file);
}

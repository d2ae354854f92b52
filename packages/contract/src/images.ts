import { z } from 'zod';
import { paginationQuery } from './common';

/**
 * Image types staff may upload, told by their content (never the file name). SVG is refused: it
 * can carry script, and sanitising it is not worth it for logos and seat photos.
 */
export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
} as const;
export type ImageType = keyof typeof IMAGE_TYPES;

/** Default upload limit; the server's IMAGE_MAX_KB changes it. */
export const IMAGE_MAX_BYTES_DEFAULT = 5 * 1024 * 1024;

/** The stored file's name: its content's SHA-256 and the extension of its type. */
export const IMAGE_FILE_PATTERN = /^[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

/** An uploaded image (spec: "Image (/images): url, owner"). */
export const image = z.object({
  id: z.number().int(),
  /** A path on this site, stable for as long as the image exists. */
  url: z.string(),
  /** The staff member who uploaded it; null once their account is gone. */
  owner: z.number().int().nullable(),
  content_type: z.enum(Object.keys(IMAGE_TYPES) as [ImageType, ...ImageType[]]),
  size: z.number().int(),
  created: z.string(),
});
export type Image = z.infer<typeof image>;

export const imageListQuery = paginationQuery;

export const imageFileParam = z.object({
  name: z.string().regex(IMAGE_FILE_PATTERN, 'Not an image file name.'),
});

import type { Readable } from 'node:stream';

// Apart from image-storage.ts, which picks disk or S3: the S3 store implements this too (0086).
/** Where image files live: a folder on disk, or an S3-compatible bucket (decision 0041). */
export interface ImageStorage {
  /** Stores the bytes under `file` (a content hash: storing it again changes nothing). */
  put(file: string, body: Buffer, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is no such file. */
  read(file: string): Promise<Readable | null>;
  /** Removes the file; no error when it is already gone. */
  remove(file: string): Promise<void>;
}

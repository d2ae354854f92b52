import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config';
import { s3Storage } from './s3-storage';
import type { ImageStorage } from './image-storage-type';

export function createImageStorage(config: Config): ImageStorage {
  return config.images.s3
    ? s3Storage(config.images.s3)
    : diskStorage(path.join(config.dataDir, 'images'));
}

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/** Files under `dir`; names are checked by the routes (a hash and an extension, no slashes). */
export function diskStorage(dir: string): ImageStorage {
  return {
    async put(file, body) {
      await fsp.mkdir(dir, { recursive: true });
      // Written aside and renamed: a reader never sees half a file.
      const partial = path.join(dir, `.${randomUUID()}.partial`);
      await fsp.writeFile(partial, body);
      await fsp.rename(partial, path.join(dir, file));
    },
    async read(file) {
      const stream = fs.createReadStream(path.join(dir, file));
      return new Promise((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (error) => (isMissing(error) ? resolve(null) : reject(error)));
      });
    },
    async remove(file) {
      await fsp.rm(path.join(dir, file), { force: true });
    },
  };
}

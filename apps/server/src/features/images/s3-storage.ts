import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3Config } from '../../config';
import { HttpError } from '../../plugins/errors';
import type { ImageStorage } from './image-storage-type';

/**
 * The bucket did not answer, or answered with an error (down, unreachable, misconfigured): a 503
 * in the usual `{detail, code}` shape, logged with its cause, never a 500 or a crash.
 */
export class StorageUnavailable extends HttpError {
  constructor(cause: unknown) {
    super(503, 'Image storage is unavailable. Try again shortly.', 'storage_unavailable');
    this.cause = cause;
  }
}

/**
 * Image files in an S3-compatible bucket (AWS, MinIO, R2…). Paddock still serves them at its own
 * URL, so the bucket may stay private and the web app's CSP needs no new host. Tested against a
 * real S3 server (s3rver) in images-s3.test.ts (decision 0052).
 */
export function s3Storage(config: S3Config): ImageStorage {
  // The SDK (some 25 MB resident) is loaded with the first image call, not at start-up, and
  // never when images stay on disk (decision 0049).
  const sdk = () => import('@aws-sdk/client-s3');
  let made: S3Client | undefined;
  const connect = async () => {
    const { S3Client } = await sdk();
    return (made ??= new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // Checksums only where S3 requires one: MinIO, Ceph, R2, B2… refuse or mishandle the SDK's
      // default CRC32 headers and aws-chunked bodies on PutObject (decision 0052).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A bucket that does not answer fails the request in seconds, not at the socket's whim.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      maxAttempts: 2,
    }));
  };
  /** The client's call; any failure but a missing key is the storage being unavailable. */
  const send = async <T>(
    call: (client: S3Client, s3: typeof import('@aws-sdk/client-s3')) => Promise<T>,
  ) => {
    const [client, s3] = await Promise.all([connect(), sdk()]);
    try {
      return await call(client, s3);
    } catch (error) {
      if (error instanceof s3.NoSuchKey) throw error;
      throw new StorageUnavailable(error);
    }
  };
  const key = (file: string) => `${config.prefix}${file}`;
  return {
    async put(file, body, contentType) {
      await send((client, s3) =>
        client.send(
          new s3.PutObjectCommand({
            Bucket: config.bucket,
            Key: key(file),
            Body: body,
            ContentType: contentType,
          }),
        ),
      );
    },
    async read(file) {
      const { NoSuchKey } = await sdk();
      try {
        const answer = await send((client, s3) =>
          client.send(new s3.GetObjectCommand({ Bucket: config.bucket, Key: key(file) })),
        );
        // In Node the SDK's body is an IncomingMessage: a Readable.
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async remove(file) {
      await send((client, s3) =>
        client.send(new s3.DeleteObjectCommand({ Bucket: config.bucket, Key: key(file) })),
      );
    },
  };
}

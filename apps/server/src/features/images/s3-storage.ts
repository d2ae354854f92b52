import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3Config } from '../../config';
import { HttpError } from '../../plugins/errors';
import type { ImageStorage } from './image-storage';

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
  const client = new S3Client({
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
  });
  const guard = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (error) {
      if (error instanceof NoSuchKey) throw error;
      throw new StorageUnavailable(error);
    }
  };
  const key = (file: string) => `${config.prefix}${file}`;
  return {
    async put(file, body, contentType) {
      await guard(
        client.send(
          new PutObjectCommand({
            Bucket: config.bucket,
            Key: key(file),
            Body: body,
            ContentType: contentType,
          }),
        ),
      );
    },
    async read(file) {
      try {
        const answer = await guard(
          client.send(new GetObjectCommand({ Bucket: config.bucket, Key: key(file) })),
        );
        // In Node the SDK's body is an IncomingMessage: a Readable.
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async remove(file) {
      await guard(client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key(file) })));
    },
  };
}

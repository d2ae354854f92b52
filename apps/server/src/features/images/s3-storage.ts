import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3Config } from '../../config';
import type { ImageStorage } from './image-storage';

/**
 * Image files in an S3-compatible bucket (AWS, MinIO, R2…). Paddock still serves them at its own
 * URL, so the bucket may stay private and the web app's CSP needs no new host. Not reachable from
 * the test machine: the disk storage is the tested one (decision 0041).
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
    }));
  };
  const key = (file: string) => `${config.prefix}${file}`;
  return {
    async put(file, body, contentType) {
      const [client, { PutObjectCommand }] = await Promise.all([connect(), sdk()]);
      await client.send(
        new PutObjectCommand({
          Bucket: config.bucket,
          Key: key(file),
          Body: body,
          ContentType: contentType,
        }),
      );
    },
    async read(file) {
      const [client, { GetObjectCommand, NoSuchKey }] = await Promise.all([connect(), sdk()]);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: config.bucket, Key: key(file) }),
        );
        // In Node the SDK's body is an IncomingMessage: a Readable.
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async remove(file) {
      const [client, { DeleteObjectCommand }] = await Promise.all([connect(), sdk()]);
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key(file) }));
    },
  };
}

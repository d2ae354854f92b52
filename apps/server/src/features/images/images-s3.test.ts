import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';

// Issue 16: images in S3-compatible storage, run against a real S3 server (s3rver: the S3 REST
// API over a local folder), through the app's own API and the AWS SDK the app uses.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');
const BUCKET = 'paddock-images';
// s3rver's fixed development credentials.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function multipart(bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

let s3: S3rver;
let s3Dir: string;
let endpoint: string;
let bucket: S3Client;
let t: TestApp;
let staff: CreatedUser;

async function startS3(port: number) {
  s3 = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  return (await s3.run()) as AddressInfo;
}

beforeAll(async () => {
  s3Dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paddock-s3-'));
  const { port } = await startS3(0);
  endpoint = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    S3_PREFIX: 'venue/images/',
  });
  staff = await createUser(t, { isStaff: true, permissions: ['images.add_image'] });
  // A client of our own, only to look into the bucket.
  bucket = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });
});
afterAll(async () => {
  bucket?.destroy();
  await t?.close();
  await s3?.close().catch(() => undefined);
  if (s3Dir) await fs.rm(s3Dir, { recursive: true, force: true });
});

async function upload(bytes: Buffer, name: string, type: string) {
  const body = await multipart(bytes, name, type);
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    headers: { ...bearer(staff.token), ...body.headers },
    payload: body.payload,
  });
}

const objectKey = (url: string) => `venue/images/${url.split('/').pop()}`;

async function inBucket(key: string): Promise<Buffer | null> {
  try {
    const object = await bucket.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    return Buffer.from(await object.Body!.transformToByteArray());
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

describe('images in S3-compatible storage (a real S3 server)', () => {
  it('stores an upload in the bucket under the prefix and serves it at its URL with caching', async () => {
    const res = await upload(PNG, 'logo.png', 'image/png');
    expect(res.statusCode).toBe(201);
    const image = res.json();
    expect(image).toMatchObject({ content_type: 'image/png', size: PNG.length });

    const stored = await inBucket(objectKey(image.url));
    expect(stored?.equals(PNG)).toBe(true);
    const head = await bucket.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: objectKey(image.url) }),
    );
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(PNG.length);
    // Nothing was written to the data folder.
    await expect(fs.readdir(path.join(t.deps.config.dataDir, 'images'))).rejects.toThrow();

    const list = await t.app.inject({ method: 'GET', url: '/api/images' });
    expect(list.json().results.map((i: { id: number }) => i.id)).toEqual([image.id]);

    const served = await t.app.inject({ method: 'GET', url: image.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    // The same bytes again are the same image and the same object.
    expect((await upload(PNG, 'copy.png', 'image/png')).json().id).toBe(image.id);
  });

  it('answers 404 for a file the bucket does not have', async () => {
    const missing = `/api/images/files/${'0'.repeat(64)}.png`;
    const res = await t.app.inject({ method: 'GET', url: missing });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('refuses to delete an image in use and deletes an unused one from the bucket', async () => {
    const logo = (await t.app.inject({ method: 'GET', url: '/api/images' })).json().results[0];
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const saved = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(admin.token),
      payload: { logo_url: logo.url },
    });
    expect(saved.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/images/${logo.id}`,
      headers: bearer(staff.token),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().non_field_errors[0]).toContain('the venue setting logo_url');
    expect(await inBucket(objectKey(logo.url))).not.toBeNull();

    const gif = (await upload(GIF, 'dot.gif', 'image/gif')).json();
    expect((await inBucket(objectKey(gif.url)))?.equals(GIF)).toBe(true);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/images/${gif.id}`,
      headers: bearer(staff.token),
    });
    expect(del.statusCode).toBe(204);
    expect(await inBucket(objectKey(gif.url))).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: gif.url })).statusCode).toBe(404);
  });

  it('answers 503 in the usual error shape while the S3 endpoint is down, and recovers', async () => {
    const logo = (await t.app.inject({ method: 'GET', url: '/api/images' })).json().results[0];
    const { port } = new URL(endpoint);
    await s3.close();
    try {
      const served = await t.app.inject({ method: 'GET', url: logo.url });
      expect(served.statusCode).toBe(503);
      expect(served.json()).toEqual({
        detail: 'Image storage is unavailable. Try again shortly.',
        code: 'storage_unavailable',
      });
      const uploaded = await upload(GIF, 'dot.gif', 'image/gif');
      expect(uploaded.statusCode).toBe(503);
      expect(uploaded.json().code).toBe('storage_unavailable');
      // The upload left no row pointing at a file that is not there.
      const list = await t.app.inject({ method: 'GET', url: '/api/images' });
      expect(list.json().count).toBe(1);
    } finally {
      await startS3(Number(port));
    }
    const again = await t.app.inject({ method: 'GET', url: logo.url });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(PNG)).toBe(true);
  });
});

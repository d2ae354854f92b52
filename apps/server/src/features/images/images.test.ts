import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { bearer, createUser, type CreatedUser } from '../../test/factories';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/** A multipart/form-data body as a browser sends it, built by the platform's own FormData. */
async function multipart(fields: Record<string, { bytes: Buffer; name: string; type: string }>) {
  const form = new FormData();
  for (const [field, file] of Object.entries(fields))
    form.append(field, new Blob([file.bytes], { type: file.type }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

let t: TestApp;
let staff: CreatedUser;
beforeAll(async () => {
  // 1 KB of a limit, so an oversize file is small to build.
  t = await createTestApp({ IMAGE_MAX_KB: '1' });
  staff = await createUser(t, { isStaff: true, permissions: ['images.add_image'] });
});
afterAll(() => t.close());

async function upload(bytes: Buffer, name = 'logo.png', type = 'image/png', who = staff) {
  const body = await multipart({ file: { bytes, name, type } });
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    headers: { ...bearer(who.token), ...body.headers },
    payload: body.payload,
  });
}

describe('images', () => {
  it('takes a PNG, keeps it on disk under its hash and serves it with caching headers', async () => {
    const res = await upload(PNG);
    expect(res.statusCode).toBe(201);
    const image = res.json();
    expect(image).toMatchObject({
      owner: staff.id,
      content_type: 'image/png',
      size: PNG.length,
      url: expect.stringMatching(/^\/api\/images\/files\/[0-9a-f]{64}\.png$/),
    });
    const file = image.url.split('/').pop();
    const onDisk = await fs.readFile(path.join(t.deps.config.dataDir, 'images', file));
    expect(onDisk.equals(PNG)).toBe(true);

    const served = await t.app.inject({ method: 'GET', url: image.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const detail = await t.app.inject({ method: 'GET', url: `/api/images/${image.id}` });
    expect(detail.json()).toEqual(image);
    // The same bytes again are the same image.
    expect((await upload(PNG, 'copy.png')).json().id).toBe(image.id);
  });

  it('tells the type by the content, not the file name', async () => {
    const gifNamedPng = await upload(GIF, 'photo.png', 'image/png');
    expect(gifNamedPng.statusCode).toBe(201);
    expect(gifNamedPng.json().content_type).toBe('image/gif');
    expect(gifNamedPng.json().url).toMatch(/\.gif$/);

    const textNamedPng = await upload(Buffer.from('not an image at all'), 'fake.png', 'image/png');
    expect(textNamedPng.statusCode).toBe(400);
    expect(textNamedPng.json()).toEqual({ file: ['Upload a PNG, JPEG, WebP or GIF image.'] });

    const svg = await upload(SVG, 'logo.svg', 'image/svg+xml');
    expect(svg.statusCode).toBe(400);
    expect(Object.keys(svg.json())).toEqual(['file']);
  });

  it('refuses an oversize image with a 400 naming the field, and a request without a file', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2048)]);
    const res = await upload(big);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ file: ['The image may be at most 1 KB.'] });

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      headers: bearer(staff.token),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(Object.keys(json.json())).toEqual(['file']);

    const empty = await upload(Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json())).toEqual(['file']);
    expect((await t.app.inject({ method: 'GET', url: '/api/images' })).json().count).toBe(2);
  });

  it('answers a damaged or odd multipart body with a 400 on file, never a 5xx', async () => {
    const send = (payload: Buffer | string, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/images',
        headers: { ...bearer(staff.token), 'content-type': contentType },
        payload,
      });
    const garbage = await send('not multipart at all', 'multipart/form-data; boundary=xyz');
    expect(garbage.statusCode).toBe(400);
    expect(Object.keys(garbage.json())).toEqual(['file']);
    const noBoundary = await send('--x\r\n', 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(Object.keys(noBoundary.json())).toEqual(['file']);

    const form = new FormData();
    form.append('note', 'hello');
    const fieldsOnly = new Request('http://localhost/', { method: 'POST', body: form });
    const noFile = await send(
      Buffer.from(await fieldsOnly.arrayBuffer()),
      fieldsOnly.headers.get('content-type')!,
    );
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ file: ['No file was submitted.'] });

    const two = await multipart({
      file: { bytes: GIF, name: 'a.gif', type: 'image/gif' },
      other: { bytes: PNG, name: 'b.png', type: 'image/png' },
    });
    const both = await send(two.payload, two.headers['content-type']);
    // The first file is the upload; anything after it is not read.
    expect(both.statusCode).toBe(201);
    expect(both.json().content_type).toBe('image/gif');
  });

  it('is for staff holding images.add_image', async () => {
    const customer = await createUser(t);
    const otherStaff = await createUser(t, { isStaff: true, permissions: ['pages.change_page'] });
    expect((await upload(PNG, 'a.png', 'image/png', customer)).statusCode).toBe(403);
    expect((await upload(PNG, 'a.png', 'image/png', otherStaff)).statusCode).toBe(403);
    const body = await multipart({ file: { bytes: PNG, name: 'a.png', type: 'image/png' } });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/images', ...body });
    expect(anonymous.statusCode).toBe(401);
    const id = (await t.app.inject({ method: 'GET', url: '/api/images' })).json().results[0].id;
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/images/${id}`,
      headers: bearer(otherStaff.token),
    });
    expect(del.statusCode).toBe(403);
  });

  it('lists newest first, page by page, and deletes an image with its file', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/images?page_size=1' });
    expect(list.json()).toMatchObject({ count: 2, page_count: 2, page_size: 1 });
    const newest = list.json().results[0];
    expect(newest.content_type).toBe('image/gif');

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/images/${newest.id}`,
      headers: bearer(staff.token),
    });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: newest.url })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/images/${newest.id}` })).statusCode,
    ).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/images/files/..%2F..%2Fjwt-secret',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses to delete an image the venue still shows', async () => {
    const logo = (await t.app.inject({ method: 'GET', url: '/api/images' })).json().results[0];
    const admin = await createUser(t, { isStaff: true, isSuperuser: true });
    const saved = await t.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: bearer(admin.token),
      payload: { logo_url: logo.url },
    });
    expect(saved.statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/images/${logo.id}`,
      headers: bearer(staff.token),
    });
    expect(del.statusCode).toBe(400);
    expect(del.json().non_field_errors[0]).toContain('the venue setting logo_url');
    expect((await t.app.inject({ method: 'GET', url: logo.url })).statusCode).toBe(200);
  });
});

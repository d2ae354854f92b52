import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { Page } from '@paddock/contract/pages';
import { bearer, createUser } from '../../test/factories';

let t: TestApp;
let staffToken: string;
beforeAll(async () => {
  t = await createTestApp();
  staffToken = (await createUser(t, { isStaff: true, permissions: ['pages.change_page'] })).token;
});
afterAll(() => t.close());

/** A request as the staff member who keeps the pages. */
const asStaff = (
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => t.app.inject({ method, url, headers: bearer(staffToken), payload });

async function createPage(payload: Record<string, unknown>) {
  const res = await asStaff('POST', '/api/pages', payload);
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; name: string; menu_name: string; content: string };
}

describe('custom pages', () => {
  it('lists pages and serves their content to anyone', async () => {
    const about = await createPage({ name: 'About', menu_name: 'About', content: '<p>Hi</p>' });
    await createPage({ name: 'House Rules', content: '<p>Rules</p>' });
    const list = await t.app.inject({ method: 'GET', url: '/api/pages' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 2, page_count: 1, page_size: 100 });
    expect(list.json().results).toEqual([
      { id: about.id, name: 'About', menu_name: 'About', menu_order: 0 },
      { id: expect.any(Number), name: 'House Rules', menu_name: '', menu_order: 0 },
    ]);
    const content = await t.app.inject({ method: 'GET', url: `/api/pages/${about.id}/content` });
    expect(content.json()).toEqual({ id: about.id, name: 'About', content: '<p>Hi</p>' });
    const detail = await t.app.inject({ method: 'GET', url: `/api/pages/${about.id}/` });
    expect(detail.json()).toMatchObject({ menu_name: 'About', content: '<p>Hi</p>' });
    const past = await t.app.inject({ method: 'GET', url: '/api/pages?page=2' });
    expect(past.statusCode).toBe(404);
  });

  it('lists pages by menu order, then by id', async () => {
    const late = await createPage({ name: 'Late', menu_name: 'Late', menu_order: 5 });
    const early = await createPage({ name: 'Early', menu_name: 'Early', menu_order: -3 });
    const ids = async () =>
      ((await t.app.inject({ method: 'GET', url: '/api/pages' })).json().results as Page[])
        .filter((p) => [late.id, early.id].includes(p.id))
        .map((p) => p.id);
    expect(await ids()).toEqual([early.id, late.id]);
    const moved = await asStaff('PATCH', `/api/pages/${early.id}`, { menu_order: 9 });
    expect(moved.json()).toMatchObject({ menu_order: 9, name: 'Early' });
    expect(await ids()).toEqual([late.id, early.id]);
    for (const id of [late.id, early.id]) await asStaff('DELETE', `/api/pages/${id}`);
  });

  it('previews the HTML exactly as it would be stored, saving nothing', async () => {
    const html =
      '<h2 onclick="x()">Hi</h2><script>alert(1)</script><a href="https://a.example" target="_blank">a</a>';
    const preview = await asStaff('POST', '/api/pages/preview', { content: html });
    expect(preview.statusCode).toBe(200);
    const saved = await createPage({ name: 'Previewed', content: html });
    expect(preview.json()).toEqual({ content: saved.content });
    expect(saved.content).not.toMatch(/script|onclick/);
    const before = (await t.app.inject({ method: 'GET', url: '/api/pages' })).json().count;
    await asStaff('POST', '/api/pages/preview', { content: '<p>x</p>' });
    expect((await t.app.inject({ method: 'GET', url: '/api/pages' })).json().count).toBe(before);
    await asStaff('DELETE', `/api/pages/${saved.id}`);
  });

  it.each([
    [{}, 'content'],
    [{ content: 1 }, 'content'],
    [{ content: 'c'.repeat(200_001) }, 'content'],
    [{ content: '', name: 'x' }, 'name'],
  ])('answers a bad preview %j with 400 naming %s', async (payload, field) => {
    const res = await asStaff('POST', '/api/pages/preview', payload);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual([field]);
  });

  it('sanitises HTML when saved, keeping formatting, links, images and tables', async () => {
    const page = await createPage({
      name: 'Mixed',
      content: [
        '<h2 onclick="steal()">Title</h2>',
        '<script>alert(1)</script>',
        '<p style="position:fixed">Text <strong>bold</strong> <em>it</em></p>',
        '<a href="javascript:alert(1)">bad</a>',
        '<a href="https://example.com" target="_blank">good</a>',
        '<img src="https://example.com/a.png" alt="a" onerror="alert(1)">',
        '<table><tbody><tr><td colspan="2">cell</td></tr></tbody></table>',
        '<iframe src="https://evil.example"></iframe>',
      ].join(''),
    });
    expect(page.content).not.toMatch(/script|onclick|onerror|javascript:|iframe|style=/);
    expect(page.content).toContain('<h2>Title</h2>');
    expect(page.content).toContain('<strong>bold</strong>');
    expect(page.content).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">good</a>',
    );
    expect(page.content).toContain('<img src="https://example.com/a.png" alt="a" />');
    expect(page.content).toContain('<td colspan="2">cell</td>');

    const edited = await asStaff('PATCH', `/api/pages/${page.id}`, {
      content: '<p>new<script>x</script></p>',
    });
    expect(edited.json()).toMatchObject({ name: 'Mixed', content: '<p>new</p>' });
  });

  it('lets staff edit (PATCH and PUT) and delete pages', async () => {
    const page = await createPage({ name: 'Draft' });
    const patched = await asStaff('PATCH', `/api/pages/${page.id}`, { menu_name: 'Drafts' });
    expect(patched.json()).toMatchObject({ name: 'Draft', menu_name: 'Drafts', content: '' });
    const put = await asStaff('PUT', `/api/pages/${page.id}`, {
      name: 'Final',
      menu_name: '',
      content: '<p>done</p>',
    });
    expect(put.json()).toMatchObject({ name: 'Final', menu_name: '', content: '<p>done</p>' });
    const del = await asStaff('DELETE', `/api/pages/${page.id}`);
    expect(del.statusCode).toBe(204);
    for (const url of [`/api/pages/${page.id}`, `/api/pages/${page.id}/content`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    const again = await asStaff('DELETE', `/api/pages/${page.id}`);
    expect(again.statusCode).toBe(404);
  });

  it('keeps writing to staff', async () => {
    const page = await createPage({ name: 'Locked' });
    const customer = await createUser(t);
    for (const headers of [undefined, bearer(customer.token)]) {
      const expected = headers ? 403 : 401;
      const requests = [
        { method: 'POST' as const, url: '/api/pages', payload: { name: 'Mine' } },
        { method: 'PATCH' as const, url: `/api/pages/${page.id}`, payload: { name: 'Mine' } },
        { method: 'PUT' as const, url: `/api/pages/${page.id}`, payload: { name: 'Mine' } },
        { method: 'DELETE' as const, url: `/api/pages/${page.id}` },
        { method: 'POST' as const, url: '/api/pages/preview', payload: { content: '' } },
      ];
      for (const r of requests) {
        const res = await t.app.inject({ ...r, headers });
        expect(res.statusCode).toBe(expected);
      }
    }
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'x'.repeat(10_000) }, 'name'],
    [{ name: 'ok', menu_name: 'm'.repeat(41) }, 'menu_name'],
    [{ name: 'ok', menu_order: 1.5 }, 'menu_order'],
    [{ name: 'ok', menu_order: 1000 }, 'menu_order'],
    [{ name: 'ok', menu_order: '1' }, 'menu_order'],
    [{ name: 'ok', content: 5 }, 'content'],
    [{ name: 'ok', content: 'c'.repeat(200_001) }, 'content'],
    [{ name: 'ok', script: 'x' }, 'script'],
  ])('answers a bad page body %j with 400 naming %s', async (payload, field) => {
    const res = await asStaff('POST', '/api/pages', payload);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
  });

  it('names bad ids, updates and queries', async () => {
    const page = await createPage({ name: 'Target' });
    const patch = await asStaff('PATCH', `/api/pages/${page.id}`, { name: '', bogus: true });
    expect(patch.statusCode).toBe(400);
    expect(Object.keys(patch.json()).sort()).toEqual(['bogus', 'name']);
    const badId = await t.app.inject({ method: 'GET', url: '/api/pages/abc/content' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toHaveProperty('id');
    const badQuery = await t.app.inject({ method: 'GET', url: '/api/pages?page_size=1000' });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json()).toHaveProperty('page_size');
    const missing = await asStaff('PATCH', '/api/pages/999999', { name: 'x' });
    expect(missing.statusCode).toBe(404);
  });
});

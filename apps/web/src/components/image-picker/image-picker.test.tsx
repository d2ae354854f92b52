import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_SETTINGS } from '@paddock/contract/venue';
import type { Image } from '@paddock/contract/images';
import { stubApi, type StubAnswer } from '../../test/api-stub';
import { renderApp, testUser } from '../../test/render-app';

const OWNER = testUser({ id: 1, email: 'owner@example.com', is_staff: true });
const image = (id: number): Image => ({
  id,
  url: `/api/images/files/${String(id).repeat(64).slice(0, 64)}.png`,
  owner: 1,
  content_type: 'image/png',
  size: 2048,
  created: '2026-11-23T10:00:00.000Z',
});
const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });

/** The picker where staff use it: the logo on Venue Settings. */
function open(upload: StubAnswer, permissions = ['venue.change_settings', 'images.add_image']) {
  const calls = stubApi({
    'GET /api/settings': { body: DEFAULT_SETTINGS },
    'GET /api/images': {
      body: { count: 2, page_count: 1, page_size: 12, results: [image(2), image(1)] },
    },
    'POST /api/images': upload,
  });
  renderApp('/admin/settings', { user: OWNER, permissions });
  return calls;
}

describe('ImagePicker', { timeout: 30_000 }, () => {
  it('uploads a file and takes its address, with a preview', async () => {
    const calls = open({ status: 201, body: image(3) });
    await userEvent.upload(await screen.findByLabelText('Upload a new logo'), png());
    await waitFor(() => expect(screen.getByLabelText('Logo address')).toHaveValue(image(3).url));
    expect(screen.getByAltText('Logo preview')).toHaveAttribute('src', image(3).url);
    const sent = calls.find((c) => c.method === 'POST')!.body as FormData;
    expect((sent.get('file') as File).name).toBe('logo.png');
  });

  it("shows the server's reason when an upload is refused", async () => {
    open({ status: 400, body: { file: ['The image may be at most 5 MB.'] } });
    const input = await screen.findByLabelText('Upload a new logo');
    await userEvent.upload(input, png());
    expect(await screen.findByText('The image may be at most 5 MB.')).toBeVisible();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Logo address')).toHaveValue('');
  });

  it('chooses an uploaded image, and removes it', async () => {
    open({ status: 500 });
    const [logoChoice] = await screen.findAllByRole('button', { name: 'Choose Existing' });
    await userEvent.click(logoChoice);
    await userEvent.click(await screen.findByRole('button', { name: 'Image 1 (png, 2 KB)' }));
    expect(screen.getByLabelText('Logo address')).toHaveValue(image(1).url);
    expect(screen.queryByRole('button', { name: 'Image 1 (png, 2 KB)' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Remove Logo' }));
    expect(screen.getByLabelText('Logo address')).toHaveValue('');
  });

  it('offers no upload without images.add_image', async () => {
    open({ status: 403 }, ['venue.change_settings']);
    expect(await screen.findByLabelText('Logo address')).toBeVisible();
    expect(screen.queryByLabelText('Upload a new logo')).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Choose Existing' })).toHaveLength(2);
  });
});

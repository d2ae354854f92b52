import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { VenueConfig } from '@paddock/contract/venue';
import { createQueryClient } from '../lib/query-client';
import { venueConfigQuery } from '../lib/venue-config';
import { TEST_CONFIG } from '../test/render-app';
import { VenueHeaderImage } from './venue-header-image';

function renderWith(config: Partial<VenueConfig>) {
  const client = createQueryClient();
  client.setQueryData(venueConfigQuery.queryKey, { ...TEST_CONFIG, ...config });
  return render(
    <QueryClientProvider client={client}>
      <VenueHeaderImage />
    </QueryClientProvider>,
  );
}

describe('VenueHeaderImage', () => {
  it('shows the header image at its height while header images are on', () => {
    const { container } = renderWith({
      header_image_url: '/api/images/files/header.png',
      header_image_height: 150,
    });
    const img = container.querySelector('img')!;
    expect(img).toHaveAttribute('src', '/api/images/files/header.png');
    expect(img).toHaveAttribute('alt', '');
    expect(img.style.height).toBe('150px');
  });

  it('shows nothing when switched off or not set', () => {
    const url = '/api/images/files/header.png';
    expect(
      renderWith({ header_image_url: url, header_images_enabled: false }).container,
    ).toBeEmptyDOMElement();
    expect(renderWith({ header_image_url: '' }).container).toBeEmptyDOMElement();
  });
});

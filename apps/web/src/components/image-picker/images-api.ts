import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Paginated } from '@paddock/contract/common';
import type { Image } from '@paddock/contract/images';
import { api } from '../../lib/api-client';

export const IMAGES_PAGE_SIZE = 12;

/** `GET /api/images`: uploaded images, newest first. */
export function imagesQuery(page: number) {
  return queryOptions({
    queryKey: ['images', page],
    queryFn: () =>
      api<Paginated<Image>>('/images', { query: { page, page_size: IMAGES_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
}

/** `POST /api/images` (multipart, field `file`); the server checks type and size. */
export function uploadImage(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api<Image>('/images', { method: 'POST', body: form });
}

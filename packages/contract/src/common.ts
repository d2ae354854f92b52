import { z } from 'zod';

/** DRF-style 400 body: each field maps to its messages; non_field_errors for the rest. */
export const validationErrorBody = z.record(z.string(), z.array(z.string()));
export type ValidationErrorBody = z.infer<typeof validationErrorBody>;

/** 401/403/404/429 body. */
export const detailBody = z.object({ detail: z.string(), code: z.string().optional() });
export type DetailBody = z.infer<typeof detailBody>;

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;

export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PaginationQuery = z.infer<typeof paginationQuery>;

export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    page_count: z.number().int(),
    page_size: z.number().int(),
    results: z.array(item),
  });
}
export type Paginated<T> = { count: number; page_count: number; page_size: number; results: T[] };

export const idParam = z.object({ id: z.coerce.number().int().positive() });

/** Query booleans arrive as text: accept true/false/1/0. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0', 'True', 'False'])
  .transform((v) => v === 'true' || v === '1' || v === 'True');

export const ok = z.object({ detail: z.string() });

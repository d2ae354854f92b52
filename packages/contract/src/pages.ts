import { z } from 'zod';
import { intText } from './common';

export const PAGE_NAME_MAX = 120;
export const PAGE_MENU_NAME_MAX = 40;
export const PAGE_CONTENT_MAX = 200_000;
/** Menu order: lower comes first in the top bar (ties by id). */
export const PAGE_MENU_ORDER_MIN = -999;
export const PAGE_MENU_ORDER_MAX = 999;

export const page = z.object({
  id: z.number().int(),
  name: z.string(),
  menu_name: z.string(),
  menu_order: z.number().int(),
});
export type Page = z.infer<typeof page>;

export const pageContent = z.object({
  id: z.number().int(),
  name: z.string(),
  content: z.string(),
});
export type PageContent = z.infer<typeof pageContent>;

/** Everything staff edit: the list item plus its HTML. */
export const pageDetail = page.extend({ content: z.string() });
export type PageDetail = z.infer<typeof pageDetail>;

const pageFields = {
  name: z.string().trim().min(1).max(PAGE_NAME_MAX),
  menu_name: z.string().trim().max(PAGE_MENU_NAME_MAX),
  menu_order: z.number().int().min(PAGE_MENU_ORDER_MIN).max(PAGE_MENU_ORDER_MAX),
  /** HTML; the server sanitises it when saved. */
  content: z.string().max(PAGE_CONTENT_MAX),
};

export const pageWrite = z
  .object({
    name: pageFields.name,
    menu_name: pageFields.menu_name.default(''),
    menu_order: pageFields.menu_order.default(0),
    content: pageFields.content.default(''),
  })
  .strict();
export type PageWrite = z.infer<typeof pageWrite>;

export const pageUpdate = z.object(pageFields).partial().strict();
export type PageUpdate = z.infer<typeof pageUpdate>;

/** POST /pages/preview: HTML in, the HTML the server would store and serve out. */
export const pagePreview = z.object({ content: pageFields.content }).strict();
export type PagePreview = z.infer<typeof pagePreview>;

/** Custom pages are few; one page of up to 100 answers the nav. */
export const pageListQuery = z.object({
  page: intText(1).default(1),
  page_size: intText(1, 100).default(100),
});

import { z } from 'zod';

export const page = z.object({
  id: z.number().int(),
  name: z.string(),
  menu_name: z.string(),
});
export type Page = z.infer<typeof page>;

export const pageContent = z.object({
  id: z.number().int(),
  name: z.string(),
  content: z.string(),
});
export type PageContent = z.infer<typeof pageContent>;

export const pageWrite = z
  .object({
    name: z.string().trim().min(1).max(120),
    menu_name: z.string().trim().max(40).default(''),
    content: z.string().max(200_000).default(''),
  })
  .strict();
export type PageWrite = z.infer<typeof pageWrite>;

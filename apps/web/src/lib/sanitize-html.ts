import DOMPurify from 'dompurify';

/** HTML written by staff (pages, board descriptions), cleaned again before it is shown. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html);
}

import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

// sanitize-html (with postcss and htmlparser2, some 15 MB resident) is loaded when staff first
// save a page or a board description, not at start-up (decision 0049).
const load = createRequire(import.meta.url);
let sanitizer: typeof sanitizeHtml | undefined;
let options: sanitizeHtml.IOptions | undefined;

// Staff write page HTML; visitors' browsers run whatever survives, so scripts, event handlers,
// styles and javascript: links are dropped here, once, when the page is saved.
const optionsOf = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions => ({
  allowedTags: [...sanitize.defaults.allowedTags, 'img'],
  allowedAttributes: {
    '*': ['class', 'id', 'title'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'alt', 'width', 'height', 'loading'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'type', 'reversed'],
    time: ['datetime'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  transformTags: {
    // A new tab must not get a handle on this page.
    a: (tagName, attribs) =>
      attribs.target === '_blank'
        ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }
        : { tagName, attribs },
  },
});

export function sanitizePageHtml(html: string): string {
  sanitizer ??= load('sanitize-html') as typeof sanitizeHtml;
  options ??= optionsOf(sanitizer);
  return sanitizer(html, options);
}

// mjml 5 ships no types (and @types/mjml describes the synchronous v4 API).
declare module 'mjml' {
  export type MjmlError = {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  };
  export default function mjml2html(
    input: string,
    options?: { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean },
  ): Promise<{ html: string; errors: MjmlError[] }>;
}

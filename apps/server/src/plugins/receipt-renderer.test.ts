import { afterAll, describe, expect, it } from 'vitest';
import { renderMjml, stopReceiptRenderer, warmReceiptRenderer } from './receipt-renderer';

// The thread that runs MJML and html-to-text for receipts (decision 0066); the renders' output
// against MJML itself is receipt-mail.test.ts's.

const source = (text: string) =>
  `<mjml><mj-body><mj-section><mj-column><mj-text>${text}</mj-text></mj-column></mj-section></mj-body></mjml>`;

afterAll(() => stopReceiptRenderer());

describe('receipt renderer thread', () => {
  it('renders MJML to HTML with its text part, wrapped and not', async () => {
    await warmReceiptRenderer();
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const rendered = await renderMjml(source(`<h1>Hello</h1><p>${long}</p>`));
    expect(rendered.html).toContain('<h1>Hello</h1>');
    expect(rendered.text.startsWith('Hello\n\nword0 word1')).toBe(true);
    expect(rendered.text).not.toBe(rendered.unwrapped);
    expect(rendered.unwrapped).toContain(long);
  }, 60_000);

  it("answers MJML's validation errors as a failed render, and keeps rendering", async () => {
    await expect(
      renderMjml('<mjml><mj-body><mj-nothing>x</mj-nothing></mj-body></mjml>'),
    ).rejects.toThrow(/mj-nothing/);
    expect((await renderMjml(source('after'))).html).toContain('after');
  }, 60_000);

  it('fails what it was rendering when stopped, and starts again with the next render', async () => {
    const cut = expect(renderMjml(source('cut short'))).rejects.toThrow('receipt renderer stopped');
    await stopReceiptRenderer();
    await cut;
    expect((await renderMjml(source('again'))).html).toContain('again');
  }, 60_000);
});

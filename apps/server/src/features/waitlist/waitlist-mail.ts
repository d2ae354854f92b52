import type { MailMessage } from '../../plugins/mail';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** "A seat freed up": held for the first in line, first come first served for the others. */
export function waitlistMail(m: {
  to: string;
  companyName: string;
  locationName: string;
  seatName: string;
  when: string;
  heldForYou: boolean;
  holdUntil: string;
  bookUrl: string;
}): MailMessage {
  const lead = m.heldForYou
    ? `${m.seatName} is held for you until ${m.holdUntil}. Book it before then: ${m.bookUrl}`
    : `It is held for the first person on the waitlist until ${m.holdUntil}; after that it is first come, first served: ${m.bookUrl}`;
  const text = [
    `A seat freed up at ${m.locationName} on ${m.when}.`,
    '',
    lead,
    '',
    m.companyName,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>A seat freed up at ${escape(m.locationName)} on <strong>${escape(m.when)}</strong>.</p>
<p>${escape(lead.split(m.bookUrl)[0])}<a href="${escape(m.bookUrl)}">${escape(m.bookUrl)}</a></p>
<p>${escape(m.companyName)}</p>
</body></html>`;
  return { to: m.to, subject: `A seat freed up at ${m.locationName}, ${m.when}`, text, html };
}

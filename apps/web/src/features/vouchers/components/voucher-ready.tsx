import { useEffect, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import type { Voucher } from '@paddock/contract/vouchers';
import { formatMoney } from '@paddock/contract/money-format';

export type Purchased = Voucher & { emailTo: string | null };

/** ABCDEFGHJKLM → ABCD-EFGH-JKLM, as the voucher e-mail writes it (dashes are ignored on entry). */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/** The bought voucher's code and where it was e-mailed; Done leaves. */
export function VoucherReady({ voucher, onDone }: { voucher: Purchased; onDone: () => void }) {
  // The form is gone: keyboard and screen-reader users continue from the news.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div>
      <h2 className="h4 card-title" tabIndex={-1} ref={heading}>
        Your gift voucher is ready
      </h2>
      <p>A {formatMoney(voucher.amount_cents, voucher.currency)} gift voucher. Its code is:</p>
      <p className="display-6 font-monospace text-center my-4 text-break">
        {groupedCode(voucher.code)}
      </p>
      <p>
        {voucher.emailTo
          ? `We've e-mailed the code to ${voucher.emailTo}.`
          : "We've e-mailed the code to you too."}
      </p>
      <Button size="lg" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

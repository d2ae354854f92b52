import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';

// Loaded when first opened: the modal's code is not needed for the first paint (decision 0064).
const TransactionsModal = lazy(() =>
  import('./transactions-modal').then((m) => ({ default: m.TransactionsModal })),
);

/**
 * The recent-transactions modal (customer §2 Dashboard) behind its button: every charge to
 * the saved card with its date, amount, notes and receipt; a failed charge shows its error.
 */
export function RecentTransactionsCard() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h4 card-title mb-2">Transactions</h2>
        <p className="text-body-secondary">
          Everything charged to your card and every refund, with receipts.
        </p>
        <Button
          variant="outline-primary"
          onClick={() => {
            setUsed(true);
            setOpen(true);
          }}
        >
          Recent Transactions
        </Button>
        {used && (
          <Suspense fallback={null}>
            <TransactionsModal show={open} onHide={() => setOpen(false)} />
          </Suspense>
        )}
      </Card.Body>
    </Card>
  );
}

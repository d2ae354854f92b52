import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useVenueConfig } from '../lib/venue-config';

type Which = 'terms' | 'privacy' | null;
type TermsModals = { openTerms: () => void; openPrivacy: () => void };

const TermsModalsContext = createContext<TermsModals | null>(null);

/** The terms and privacy modals (spec §2), openable from the footer, card forms and checkout. */
export function TermsModalsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Which>(null);
  const config = useVenueConfig();
  const openTerms = useCallback(() => setOpen('terms'), []);
  const openPrivacy = useCallback(() => setOpen('privacy'), []);
  const value = useMemo(() => ({ openTerms, openPrivacy }), [openTerms, openPrivacy]);
  const close = () => setOpen(null);
  return (
    <TermsModalsContext.Provider value={value}>
      {children}
      <Modal
        show={open === 'terms'}
        onHide={close}
        size="lg"
        scrollable
        aria-labelledby="terms-title"
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="terms-title">Terms of Service</Modal.Title>
        </Modal.Header>
        <Modal.Body style={{ whiteSpace: 'pre-line' }}>{config.terms_text}</Modal.Body>
        <Modal.Footer>
          <Button variant="link" onClick={openPrivacy}>
            Privacy Policy
          </Button>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
      <Modal
        show={open === 'privacy'}
        onHide={close}
        size="lg"
        scrollable
        aria-labelledby="privacy-title"
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="privacy-title">Privacy Policy</Modal.Title>
        </Modal.Header>
        <Modal.Body style={{ whiteSpace: 'pre-line' }}>{config.privacy_text}</Modal.Body>
        <Modal.Footer>
          <Button variant="link" onClick={openTerms}>
            Terms of Service
          </Button>
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </TermsModalsContext.Provider>
  );
}

export function useTermsModals(): TermsModals {
  const value = useContext(TermsModalsContext);
  if (!value) throw new Error('useTermsModals needs a TermsModalsProvider');
  return value;
}

/** An inline "Terms of Service" link that opens the terms modal. */
export function TermsLink({ children = 'Terms of Service' }: { children?: ReactNode }) {
  const { openTerms } = useTermsModals();
  return (
    <Button variant="link" className="p-0 align-baseline" onClick={openTerms}>
      {children}
    </Button>
  );
}

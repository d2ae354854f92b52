import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import Button from 'react-bootstrap/Button';
import { termsWithPolicy } from '@paddock/contract/terms-rules';
import { useVenueConfig } from '../lib/venue-config';
import type { Which } from './terms-dialogs';

const TermsDialogs = lazy(() => import('./terms-dialogs'));
type TermsModals = { openTerms: () => void; openPrivacy: () => void };

const TermsModalsContext = createContext<TermsModals | null>(null);

/** The terms and privacy modals (spec §2), openable from the footer, card forms and checkout. */
export function TermsModalsProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Which>(null);
  // Kept mounted once opened, so the closing animation plays.
  const [everOpened, setEverOpened] = useState(false);
  if (open !== null && !everOpened) setEverOpened(true);
  const config = useVenueConfig();
  const openTerms = useCallback(() => setOpen('terms'), []);
  const openPrivacy = useCallback(() => setOpen('privacy'), []);
  const value = useMemo(() => ({ openTerms, openPrivacy }), [openTerms, openPrivacy]);
  const close = () => setOpen(null);
  return (
    <TermsModalsContext.Provider value={value}>
      {children}
      {/* The dialogs' code (Bootstrap's Modal) loads when one is first opened, not with the app. */}
      {everOpened && (
        <Suspense fallback={null}>
          <TermsDialogs
            open={open}
            onClose={close}
            openTerms={openTerms}
            openPrivacy={openPrivacy}
            termsText={termsWithPolicy(config.terms_text, config)}
            privacyText={config.privacy_text}
          />
        </Suspense>
      )}
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

import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export type Which = 'terms' | 'privacy' | null;

/** The terms and privacy dialogs (spec §2); loaded on first use by TermsModalsProvider. */
export default function TermsDialogs(props: {
  open: Which;
  onClose: () => void;
  openTerms: () => void;
  openPrivacy: () => void;
  termsText: string;
  privacyText: string;
}) {
  const { open, onClose, openTerms, openPrivacy, termsText, privacyText } = props;
  return (
    <>
      <Modal
        show={open === 'terms'}
        onHide={onClose}
        size="lg"
        scrollable
        aria-labelledby="terms-title"
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="terms-title">Terms of Service</Modal.Title>
        </Modal.Header>
        <Modal.Body style={{ whiteSpace: 'pre-line' }}>{termsText}</Modal.Body>
        <Modal.Footer>
          <Button variant="link" onClick={openPrivacy}>
            Privacy Policy
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
      <Modal
        show={open === 'privacy'}
        onHide={onClose}
        size="lg"
        scrollable
        aria-labelledby="privacy-title"
      >
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="privacy-title">Privacy Policy</Modal.Title>
        </Modal.Header>
        <Modal.Body style={{ whiteSpace: 'pre-line' }}>{privacyText}</Modal.Body>
        <Modal.Footer>
          <Button variant="link" onClick={openTerms}>
            Terms of Service
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

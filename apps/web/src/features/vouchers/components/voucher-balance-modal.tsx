import Modal from 'react-bootstrap/Modal';
import { VoucherBalanceForm } from './voucher-balance-form';

export function VoucherBalanceModal({ show, onHide }: { show: boolean; onHide: () => void }) {
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="voucher-balance-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="voucher-balance-title">Voucher Balance</Modal.Title>
      </Modal.Header>
      <Modal.Body>{show && <VoucherBalanceForm autoFocus />}</Modal.Body>
    </Modal>
  );
}

import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTermsModals } from '../../../components/terms-modals';
import { showError } from '../../../lib/alerts';
import { fetchMyData, saveAsFile } from '../../../lib/api/my-data-file';
import { DeleteAccountDialog } from './delete-account-dialog';

/** The profile's "Your data" section: download it, or delete the account (decision 0124). */
export function MyDataCard() {
  const [downloading, setDownloading] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { openPrivacy } = useTermsModals();
  const download = async () => {
    setDownloading(true);
    try {
      saveAsFile(await fetchMyData('me'));
    } catch (error) {
      showError(error);
    } finally {
      setDownloading(false);
    }
  };
  return (
    <section className="mt-5" aria-labelledby="my-data-title">
      <h2 id="my-data-title" className="h4">
        Your data
      </h2>
      <p>
        Download everything we keep about you (a JSON file that starts with a summary in words), or
        delete your account. The{' '}
        <Button variant="link" className="p-0 align-baseline" onClick={openPrivacy}>
          Privacy Policy
        </Button>{' '}
        says what is kept, why and for how long.
      </p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-primary" onClick={() => void download()} disabled={downloading}>
          Download my data
        </Button>
        <Button variant="outline-danger" onClick={() => setDeleting(true)}>
          Delete my account
        </Button>
      </div>
      {deleting && <DeleteAccountDialog onHide={() => setDeleting(false)} />}
    </section>
  );
}

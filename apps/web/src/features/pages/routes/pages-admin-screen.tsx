import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import type { Page, PageWrite } from '@paddock/contract/pages';
import { PageTitle } from '../../../components/page-title';
import { preloadSafeHtml } from '../../../components/safe-html';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { showAlert, showError } from '../../../lib/alerts';
import { errorMessage } from '../../../lib/error-message';
import { pathTo } from '../../../lib/routes';
import { pagesListQuery } from '../api/list-pages';
import { createPage, deletePage, pageDetailQuery, savePage } from '../api/pages-admin-api';
import { PageEditor } from '../components/page-editor';

void preloadSafeHtml();

export const PAGE_SAVED = 'The page has been saved.';
export const PAGE_DELETED = 'The page has been deleted.';

function EditExisting({ id, onDone }: { id: number; onDone: () => void }) {
  const client = useQueryClient();
  const detail = useQuery(pageDetailQuery(id));
  const save = useMutation({
    mutationFn: (values: PageWrite) => savePage(id, values),
    onSuccess: async (saved) => {
      client.setQueryData(pageDetailQuery(id).queryKey, saved);
      await client.invalidateQueries({ queryKey: ['pages'] });
      showAlert(PAGE_SAVED, 'success', 5_000);
      onDone();
    },
  });
  if (detail.isPending) return <SpinnerScreen />;
  if (detail.isError) return <Alert variant="danger">{errorMessage(detail.error)}</Alert>;
  return (
    <PageEditor
      page={detail.data}
      saving={save.isPending}
      onSave={(values) => save.mutateAsync(values)}
      onCancel={onDone}
    />
  );
}

function CreateNew({ onDone }: { onDone: () => void }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: createPage,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['pages'] });
      showAlert(PAGE_SAVED, 'success', 5_000);
      onDone();
    },
  });
  return (
    <PageEditor
      page={null}
      saving={create.isPending}
      onSave={(values) => create.mutateAsync(values)}
      onCancel={onDone}
    />
  );
}

function DeleteDialog({ page, onClose }: { page: Page; onClose: () => void }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deletePage(page.id),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['pages'] });
      showAlert(PAGE_DELETED, 'success', 5_000);
      onClose();
    },
    onError: (error) => showError(error),
  });
  return (
    <Modal show onHide={onClose} aria-labelledby="page-delete-title">
      <Modal.Header closeButton>
        <Modal.Title id="page-delete-title" as="h2" className="h5">
          Delete “{page.name}”?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>The page and its top bar link go away for everyone.</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Delete Page
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** Staff with pages.change_page: the custom pages, their top bar entries and HTML (issue 16). */
export default function PagesAdminScreen() {
  const list = useQuery(pagesListQuery);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Page | null>(null);
  const close = () => setEditing(null);

  return (
    <>
      <PageTitle>Custom Pages</PageTitle>
      {editing === 'new' && <CreateNew onDone={close} />}
      {typeof editing === 'number' && <EditExisting key={editing} id={editing} onDone={close} />}
      {editing === null && (
        <Button className="mb-3" onClick={() => setEditing('new')}>
          New Page
        </Button>
      )}
      {list.isPending && <SpinnerScreen />}
      {list.isError && <Alert variant="danger">{errorMessage(list.error)}</Alert>}
      {list.isSuccess && list.data.length === 0 && <p>No custom pages yet.</p>}
      {list.isSuccess && list.data.length > 0 && (
        <Table responsive hover className="align-middle">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Menu name</th>
              <th scope="col">Menu order</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link to={pathTo('customPageView', { id: p.id })}>{p.name}</Link>
                </td>
                <td>{p.menu_name || <span className="text-body-secondary">Not in menu</span>}</td>
                <td>{p.menu_order}</td>
                <td className="text-end text-nowrap">
                  <Button
                    size="sm"
                    variant="outline-primary"
                    className="me-2"
                    aria-label={`Edit ${p.name}`}
                    onClick={() => setEditing(p.id)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="outline-danger"
                    aria-label={`Delete ${p.name}`}
                    onClick={() => setDeleting(p)}
                  >
                    Delete
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {deleting && <DeleteDialog page={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

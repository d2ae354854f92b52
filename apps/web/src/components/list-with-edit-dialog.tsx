import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';

/*
 * The admin lists' one shape (decision 0105): a section with its heading and Add button, a table
 * whose last column holds each row's buttons, and a dialog that adds or edits one row. Seat types,
 * seats, staff and rig keys use it; the rows and the dialog's fields stay with each screen.
 */

/** Which row the dialog edits: null while it is closed, 'new' while it adds one. */
export function useEditing<T>() {
  return useState<T | 'new' | null>(null);
}

/** A list's section: its heading (an h2 shown as h4) and its Add button, then the list. */
export function ListSection({
  titleId,
  title,
  add,
  children,
}: {
  titleId: string;
  title: ReactNode;
  /** The Add button: its words, what it does, and how it looks. */
  add: { label: string; onClick: () => void; disabled?: boolean; variant?: string };
  children: ReactNode;
}) {
  return (
    <section className="mb-4" aria-labelledby={titleId}>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <h2 id={titleId} className="h4 mb-0">
          {title}
        </h2>
        <Button variant={add.variant} onClick={add.onClick} disabled={add.disabled}>
          {add.label}
        </Button>
      </div>
      {children}
    </section>
  );
}

/** A column heading; a class hides it on small screens. */
export type ListColumn = string | { label: string; className: string };

/**
 * The list's table: the column headings, then a last column, unnamed on screen, for the rows'
 * buttons. Scrolls sideways on a phone; with `region` it scrolls in a focusable region of that
 * name, so a keyboard can scroll it too.
 */
export function ListTable({
  columns,
  region,
  children,
}: {
  columns: ListColumn[];
  region?: string;
  /** The rows (`<tr>`s). */
  children: ReactNode;
}) {
  const table = (
    <Table responsive={!region} size="sm" className="align-middle">
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === 'string' ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ),
          )}
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </Table>
  );
  if (!region) return table;
  return (
    <div className="overflow-auto position-relative" tabIndex={0} role="region" aria-label={region}>
      {table}
    </div>
  );
}

/** A row's Edit button, named for the row for screen readers. */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button size="sm" variant="outline-primary" aria-label={name} onClick={onClick}>
      Edit
    </Button>
  );
}

/**
 * The dialog that adds or edits one row: a form with the screen's fields, Cancel, and Save,
 * which shows a spinner while the save runs.
 */
export function EditDialog({
  titleId,
  title,
  titleProps,
  cancelVariant = 'outline-secondary',
  saveLabel,
  saving,
  onSave,
  onClose,
  children,
}: {
  titleId: string;
  title: ReactNode;
  /** How the title renders (`as="h2"` where the page's headings need it). */
  titleProps?: Omit<ComponentProps<typeof Modal.Title>, 'id' | 'children'>;
  cancelVariant?: string;
  /** The Save button's words ("Save Seat"). */
  saveLabel: string;
  saving: boolean;
  onSave: () => void;
  onClose: () => void;
  /** The fields. */
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  return (
    <Modal show onHide={onClose} aria-labelledby={titleId}>
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id={titleId} {...titleProps}>
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
        <Modal.Footer>
          <Button variant={cancelVariant} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving && <Spinner size="sm" className="me-2" aria-hidden />}
            {saveLabel}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import {
  PAGE_MENU_ORDER_MAX,
  PAGE_MENU_ORDER_MIN,
  pageWrite,
  type PageDetail,
  type PageWrite,
} from '@paddock/contract/pages';
import { SafeHtml } from '../../../components/safe-html';
import { TextField } from '../../../components/text-field';
import { errorMessage } from '../../../lib/error-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { issuesToErrors, serverFieldErrors, type FieldErrors } from '../../../lib/field-errors';
import { previewPageQuery } from '../api/pages-admin-api';

export const PREVIEW_CHANGED =
  'Some markup was removed: this is what visitors will see (scripts, styles and event handlers are never kept).';

type Props = {
  page: PageDetail | null;
  saving: boolean;
  /** Rejects with the server's error; a 400 lands on its fields. */
  onSave: (values: PageWrite) => Promise<unknown>;
  onCancel: () => void;
};

/**
 * Name, menu name and order, and the HTML with a live preview. The preview is the server's own
 * sanitiser (`POST /api/pages/preview`), so it shows exactly what will be stored and served.
 */
export function PageEditor({ page, saving, onSave, onCancel }: Props) {
  const previewId = useId();
  const [name, setName] = useState(page?.name ?? '');
  const [menuName, setMenuName] = useState(page?.menu_name ?? '');
  const [menuOrder, setMenuOrder] = useState(String(page?.menu_order ?? 0));
  const [content, setContent] = useState(page?.content ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const settled = useDebouncedValue(content, 400);
  const preview = useQuery({ ...previewPageQuery(settled), placeholderData: keepPreviousData });
  const changed = preview.data !== undefined && preview.data.content !== settled;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = pageWrite.safeParse({
      name,
      menu_name: menuName,
      menu_order: menuOrder.trim() === '' ? 0 : Number(menuOrder),
      content,
    });
    if (!parsed.success) return setErrors(issuesToErrors(parsed.error));
    setErrors({});
    onSave(parsed.data).catch((error: unknown) => setErrors(serverFieldErrors(error) ?? {}));
  };

  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h5">{page ? `Edit “${page.name}”` : 'New Page'}</h2>
        <Form onSubmit={submit} noValidate>
          <div className="row g-2">
            <TextField
              groupClassName="col-12 col-md-5 mb-3"
              label="Name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={errors.name}
              required
            />
            <TextField
              groupClassName="col-8 col-md-4 mb-3"
              label="Menu name"
              value={menuName}
              onChange={(e) => setMenuName(e.target.value)}
              error={errors.menu_name}
              hint="Shown in the top bar; leave empty to keep the page out of it."
            />
            <TextField
              groupClassName="col-4 col-md-3 mb-3"
              label="Menu order"
              type="number"
              inputMode="numeric"
              min={PAGE_MENU_ORDER_MIN}
              max={PAGE_MENU_ORDER_MAX}
              step={1}
              value={menuOrder}
              onChange={(e) => setMenuOrder(e.target.value)}
              error={errors.menu_order}
              hint="Lower first."
            />
          </div>
          <div className="row g-3">
            <TextField
              groupClassName="col-12 col-lg-6"
              label="HTML"
              rows={16}
              className="font-monospace small"
              spellCheck={false}
              value={content}
              onChange={(e) => setContent(e.target.value)}
              error={errors.content}
            />
            <section className="col-12 col-lg-6" aria-labelledby={previewId}>
              <h3 className="form-label fs-6 fw-normal mb-2" id={previewId}>
                Preview
              </h3>
              {preview.isError ? (
                <Alert variant="warning">{errorMessage(preview.error)}</Alert>
              ) : (
                changed && (
                  <Alert variant="info" className="py-2 small">
                    {PREVIEW_CHANGED}
                  </Alert>
                )
              )}
              <div
                className="border rounded p-3 bg-body overflow-auto"
                style={{ maxHeight: '26rem' }}
                data-testid="page-preview"
                aria-busy={preview.isFetching}
              >
                <SafeHtml html={preview.data?.content ?? ''} />
              </div>
            </section>
          </div>
          {errors.non_field_errors && (
            <Alert variant="danger" className="mt-3">
              {errors.non_field_errors}
            </Alert>
          )}
          <div className="d-flex gap-2 mt-3">
            <Button type="submit" disabled={saving}>
              {page ? 'Save Page' : 'Create Page'}
            </Button>
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}

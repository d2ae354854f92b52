import { useMemo } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import Alert from 'react-bootstrap/Alert';
import { PageTitle } from '../../../components/page-title';
import { errorMessage } from '../../../lib/error-message';
import { pagesListQuery } from '../api/list-pages';
import { pageContentQuery } from '../api/get-page-content';

/** /pages/:id — 'Loading...' then the page's HTML, titled from the page list (spec §2). */
export default function CustomPageScreen() {
  const { id = '' } = useParams();
  const list = useQuery(pagesListQuery);
  const content = useQuery(pageContentQuery(id));
  const title = list.data?.find((p) => String(p.id) === id)?.name ?? content.data?.name ?? 'Page';
  // The server sanitises when staff save; sanitising again here keeps a bad row harmless.
  const html = useMemo(
    () => (content.data ? DOMPurify.sanitize(content.data.content) : ''),
    [content.data],
  );

  return (
    <article>
      <PageTitle>{title}</PageTitle>
      {content.isPending && <p>Loading...</p>}
      {content.isError && (
        <Alert variant="danger">
          {errorMessage(content.error, { 404: 'This page could not be found.' })}
        </Alert>
      )}
      {content.data && <div dangerouslySetInnerHTML={{ __html: html }} />}
    </article>
  );
}

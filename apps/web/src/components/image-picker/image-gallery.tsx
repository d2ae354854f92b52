import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { errorMessage } from '../../lib/error-message';
import { Pager } from '../pager';
import { imagesQuery } from './images-api';

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The uploaded images, newest first, as buttons that choose one. */
export function ImageGallery({
  label,
  selected,
  onChoose,
}: {
  label: string;
  selected: string;
  onChoose: (url: string) => void;
}) {
  const [page, setPage] = useState(1);
  const images = useQuery(imagesQuery(page));
  if (images.isPending)
    return (
      <p role="status" className="small my-2">
        <Spinner as="span" size="sm" className="me-1" aria-hidden />
        Loading images…
      </p>
    );
  if (images.isError)
    return (
      <Alert variant="danger" className="my-2">
        {errorMessage(images.error)}
      </Alert>
    );
  if (images.data.count === 0) return <p className="small my-2">No images uploaded yet.</p>;
  return (
    <>
      <ul className="list-unstyled d-flex flex-wrap gap-2 my-2" aria-label={`Images for ${label}`}>
        {images.data.results.map((image) => (
          <li key={image.id}>
            <Button
              variant={image.url === selected ? 'primary' : 'outline-secondary'}
              className="p-1"
              aria-pressed={image.url === selected}
              aria-label={`Image ${image.id} (${image.content_type.replace('image/', '')}, ${kilobytes(image.size)})`}
              onClick={() => onChoose(image.url)}
            >
              <img
                src={image.url}
                alt=""
                width={64}
                height={64}
                loading="lazy"
                style={{ objectFit: 'contain', display: 'block' }}
              />
            </Button>
          </li>
        ))}
      </ul>
      <Pager page={page} pageCount={images.data.page_count} onPage={setPage} label="images" />
    </>
  );
}

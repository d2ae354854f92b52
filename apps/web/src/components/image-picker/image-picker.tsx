import { useId, useState, type ChangeEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { IMAGE_TYPES } from '@paddock/contract/images';
import { hasPermission, isStaff, useSession } from '../../lib/auth-store';
import { ApiError } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../text-field';
import { ImageGallery } from './image-gallery';
import { uploadImage } from './images-api';

type Props = {
  /** What the image is, in the sentence case of a field label: "Logo", "Seat image". */
  label: string;
  /** The image's address ('' for none). */
  value: string;
  onChange: (url: string) => void;
  /** The server's or the form's message for the address. */
  error?: string;
  hint?: string;
};

const ACCEPT = Object.keys(IMAGE_TYPES).join(',');

/** The server's words for a refused upload (`{file: [..]}`), else the usual message. */
function uploadError(error: unknown): string {
  const file = error instanceof ApiError ? (error.body as { file?: unknown } | null)?.file : null;
  return Array.isArray(file) ? file.join(' ') : errorMessage(error);
}

/**
 * An image field: a preview, the address (any https:// image still works), an upload for staff
 * holding images.add_image, a choice among the images already uploaded, and Remove.
 */
export function ImagePicker({ label, value, onChange, error, hint }: Props) {
  const id = useId();
  const session = useSession();
  const client = useQueryClient();
  const [choosing, setChoosing] = useState(false);
  const canUpload = isStaff(session) && hasPermission(session, 'images.add_image');
  const upload = useMutation({
    mutationFn: uploadImage,
    onSuccess: async (image) => {
      onChange(image.url);
      await client.invalidateQueries({ queryKey: ['images'] });
    },
  });
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be picked again after an error: the input forgets it.
    event.target.value = '';
    if (file) upload.mutate(file);
  };
  const uploadErrorId = `${id}-upload-error`;

  return (
    <fieldset className="mb-3 border rounded p-2">
      <legend className="form-label fs-6 float-none w-auto px-1 mb-1">{label}</legend>
      <div className="d-flex flex-wrap align-items-start gap-3">
        <div
          className="border rounded bg-body-tertiary d-flex align-items-center justify-content-center overflow-hidden"
          style={{ width: 96, height: 96 }}
        >
          {value ? (
            <img
              src={value}
              alt={`${label} preview`}
              style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            />
          ) : (
            <span className="small text-body-secondary">No image</span>
          )}
        </div>
        <div className="flex-grow-1" style={{ minWidth: 0 }}>
          <TextField
            label={`${label} address`}
            hint={hint ?? 'An uploaded image, or an https:// address.'}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            error={error}
          />
        </div>
      </div>
      {canUpload && (
        <Form.Group controlId={`${id}-upload`} className="mb-2">
          <Form.Label className="small mb-1">Upload a new {label.toLowerCase()}</Form.Label>
          <Form.Control
            type="file"
            size="sm"
            accept={ACCEPT}
            onChange={pick}
            disabled={upload.isPending}
            isInvalid={upload.isError}
            aria-invalid={upload.isError || undefined}
            aria-describedby={upload.isError ? uploadErrorId : undefined}
          />
          <Form.Text className="d-block">PNG, JPEG, WebP or GIF.</Form.Text>
          {upload.isError && (
            <Form.Control.Feedback type="invalid" id={uploadErrorId}>
              {uploadError(upload.error)}
            </Form.Control.Feedback>
          )}
        </Form.Group>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-center">
        {upload.isPending && (
          <span role="status" className="small">
            <Spinner as="span" size="sm" className="me-1" aria-hidden />
            Uploading…
          </span>
        )}
        <Button
          size="sm"
          variant="outline-secondary"
          aria-expanded={choosing}
          aria-controls={`${id}-gallery`}
          onClick={() => setChoosing((open) => !open)}
        >
          {choosing ? 'Close Images' : 'Choose Existing'}
        </Button>
        {value && (
          <Button size="sm" variant="outline-danger" onClick={() => onChange('')}>
            Remove {label}
          </Button>
        )}
      </div>
      <div id={`${id}-gallery`}>
        {choosing && (
          <ImageGallery
            label={label}
            selected={value}
            onChoose={(url) => {
              onChange(url);
              setChoosing(false);
            }}
          />
        )}
      </div>
    </fieldset>
  );
}

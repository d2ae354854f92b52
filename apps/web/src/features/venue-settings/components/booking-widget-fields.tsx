import { useId, useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { VenueSettings } from '@paddock/contract/venue';
import { locationsQuery } from '../../../lib/locations-query';

/** The snippet a venue pastes into its own website for one location's widget. */
export function widgetSnippet(origin: string, location: number): string {
  return `<script src="${origin}/widget.js" data-location="${location}" async></script>`;
}

/**
 * Availability before signing up and the booking widget (issue 45, decision 0123): the switch,
 * the venue's colour, the websites that may show the widget, and the snippet to copy.
 */
export function BookingWidgetFields({ form }: { form: UseFormReturn<VenueSettings> }) {
  const originsId = useId();
  const colourId = useId();
  const snippetId = useId();
  const locations = useQuery(locationsQuery);
  const [chosen, setChosen] = useState<number | null>(null);
  const location = chosen ?? locations.data?.[0]?.id ?? null;
  const snippet = location === null ? '' : widgetSnippet(window.location.origin, location);
  const originsError = form.formState.errors.widget_origins;
  const originsMessage =
    originsError?.message ??
    (Array.isArray(originsError) ? originsError.find((e) => e?.message)?.message : undefined);

  return (
    <fieldset className="mb-4">
      <legend className="h5">Free seats and the booking widget</legend>
      <Form.Check
        type="switch"
        id="public-availability"
        label="Visitors see free seats before signing up (and the widget works)"
        className="mb-3"
        {...form.register('public_availability')}
      />
      <Form.Group className="mb-3" controlId={colourId}>
        <Form.Label>Venue colour</Form.Label>
        <Form.Control
          type="color"
          style={{ width: '4rem', height: '44px' }}
          {...form.register('brand_colour')}
        />
      </Form.Group>
      <Form.Group className="mb-3">
        <Form.Label htmlFor={originsId}>Websites that may show the widget</Form.Label>
        <Controller
          control={form.control}
          name="widget_origins"
          render={({ field }) => (
            <Form.Control
              as="textarea"
              id={originsId}
              rows={3}
              value={field.value.join('\n')}
              isInvalid={!!originsMessage}
              aria-describedby={`${originsId}-hint`}
              onChange={(e) => field.onChange(e.target.value.split('\n').map((s) => s.trim()))}
              onBlur={() => {
                field.onChange(field.value.filter(Boolean));
                field.onBlur();
              }}
            />
          )}
        />
        <Form.Text id={`${originsId}-hint`}>
          One per line, e.g. https://www.example.com. Only these sites can frame the widget.
        </Form.Text>
        {originsMessage && (
          <Form.Control.Feedback type="invalid" className="d-block">
            {originsMessage}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      {(locations.data?.length ?? 0) > 0 && (
        <Form.Group className="mb-3">
          <Form.Label htmlFor={snippetId}>Snippet for your website</Form.Label>
          {(locations.data?.length ?? 0) > 1 && (
            <Form.Select
              aria-label="Location the widget shows"
              className="mb-2"
              value={location ?? ''}
              onChange={(e) => setChosen(Number(e.target.value))}
            >
              {locations.data!.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </Form.Select>
          )}
          <Form.Control as="textarea" id={snippetId} rows={2} readOnly value={snippet} />
          <Button
            variant="outline-secondary"
            className="mt-2"
            onClick={() => void navigator.clipboard?.writeText(snippet)}
          >
            Copy snippet
          </Button>
        </Form.Group>
      )}
    </fieldset>
  );
}

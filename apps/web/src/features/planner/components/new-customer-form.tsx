import { useId } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import type { z } from 'zod';
import type { User } from '@paddock/contract/accounts';
import { EMAIL_PATTERN } from '@paddock/contract/accounts';
import { deskCustomerRequest, type DeskCustomerRequest } from '@paddock/contract/desk-customers';
import { TextField } from '../../../components/text-field';
import { ApiError } from '../../../lib/api-client';
import { showAlert, showError } from '../../../lib/alerts';
import { createDeskCustomer } from '../api/create-desk-customer';

type Output = z.output<typeof deskCustomerRequest>;
type Fields = DeskCustomerRequest;

/** What was typed in the search, put where it belongs: an address, a phone, or a name. */
export function prefill(search: string): Required<Fields> {
  const text = search.trim();
  const empty = { first_name: '', last_name: '', email: '', contact_phone: '' };
  const fields = { ...empty, send_login_link: false };
  if (EMAIL_PATTERN.test(text)) return { ...fields, email: text, send_login_link: true };
  if (/^[+\d][\d\s().-]{5,}$/.test(text)) return { ...fields, contact_phone: text };
  const [first, ...rest] = text.split(/\s+/);
  return { ...fields, first_name: first ?? '', last_name: rest.join(' ') };
}

/**
 * A walk-in's account in four fields (issue 30): a name, and an e-mail or a phone. Not a
 * `<form>` of its own: it sits inside the booking dialog's form, and forms do not nest.
 */
export function NewCustomerForm({
  search,
  onCreated,
  onCancel,
}: {
  search: string;
  onCreated: (user: User) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const form = useForm<Fields, unknown, Output>({
    resolver: zodResolver(deskCustomerRequest),
    defaultValues: prefill(search),
  });
  const { errors } = form.formState;
  const email = useWatch({ control: form.control, name: 'email' });
  const create = useMutation({
    mutationFn: createDeskCustomer,
    onSuccess: async ({ user, detail }) => {
      showAlert(detail, 'success', 8_000);
      await client.invalidateQueries({ queryKey: ['users'] });
      onCreated(user);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.body) {
        const body = error.body as Record<string, string[]>;
        const fields = Object.keys(body).filter((f) => f in deskCustomerRequest.shape);
        for (const f of fields) form.setError(f as Path<Fields>, { message: body[f].join(' ') });
        if (fields.length === Object.keys(body).length) return;
      }
      showError(error);
    },
  });
  const submit = form.handleSubmit((values) => create.mutate(values));
  return (
    <fieldset className="border rounded p-3 mb-3" aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`} className="h6 float-none w-auto px-1 mb-2">
        New customer
      </legend>
      <p className="small text-body-secondary">
        A name, and an e-mail or a phone number. The rest they can fill in later.
      </p>
      <div className="row g-2">
        <div className="col-sm-6">
          <TextField
            label="First name"
            autoComplete="off"
            {...form.register('first_name')}
            error={errors.first_name?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            label="Last name"
            autoComplete="off"
            {...form.register('last_name')}
            error={errors.last_name?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            label="E-mail"
            type="email"
            autoComplete="off"
            {...form.register('email')}
            error={errors.email?.message}
          />
        </div>
        <div className="col-sm-6">
          <TextField
            label="Phone"
            type="tel"
            autoComplete="off"
            {...form.register('contact_phone')}
            error={errors.contact_phone?.message}
          />
        </div>
      </div>
      <Form.Check
        id={`${id}-link`}
        className="mb-3"
        label="E-mail them a link to set a password"
        disabled={!email}
        {...form.register('send_login_link')}
        isInvalid={!!errors.send_login_link}
        feedback={errors.send_login_link?.message}
        feedbackType="invalid"
      />
      <div className="d-flex gap-2">
        <Button type="button" onClick={() => void submit()} disabled={create.isPending}>
          {create.isPending && <Spinner size="sm" className="me-2" aria-hidden />}
          Create Customer
        </Button>
        <Button type="button" variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}

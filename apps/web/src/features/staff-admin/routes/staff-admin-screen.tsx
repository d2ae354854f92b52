import { useId, useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { Permission } from '@paddock/contract/accounts';
import { changesNotHeld, type Grantor, type StaffMember } from '@paddock/contract/staff';
import { EditDialog, ListTable } from '../../../components/list-with-edit-dialog';
import { PageTitle } from '../../../components/page-title';
import { showAlert, showError } from '../../../lib/alerts';
import { useSession } from '../../../lib/auth-store';
import { ApiError } from '../../../lib/api-client';
import { useInviteStaff, useSetPermissions, useSetSuperuser, useStaffList } from '../api/staff-api';
import { permissionLabel } from '@paddock/contract/permission-labels';
import { PermissionChecks } from '../components/permission-checks';

const nameOf = (m: StaffMember) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;

/** The 400 body's message for one field, if the error is one. */
function fieldError(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const body = error.body as Record<string, string[]> | null;
  return body?.[field]?.[0] ?? null;
}

function InviteForm({ grantor }: { grantor: Grantor }) {
  const invite = useInviteStaff();
  const [email, setEmail] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const ids = { email: useId(), first: useId(), last: useId() };
  const emailError = fieldError(invite.error, 'email');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate(
      {
        email,
        permissions,
        ...(first ? { first_name: first } : {}),
        ...(last ? { last_name: last } : {}),
      },
      {
        onSuccess: ({ detail }) => {
          showAlert(detail, 'success', 8_000);
          setEmail('');
          setFirst('');
          setLast('');
          setPermissions([]);
        },
        onError: (error) => {
          if (!fieldError(error, 'email')) showError(error);
        },
      },
    );
  };

  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h5">Invite a Staff Member</h2>
        <Form onSubmit={submit} noValidate>
          <div className="row g-2 mb-3">
            <Form.Group className="col-12 col-md-4">
              <Form.Label htmlFor={ids.email}>Email</Form.Label>
              <Form.Control
                id={ids.email}
                type="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                isInvalid={!!emailError}
                aria-invalid={!!emailError}
                aria-describedby={emailError ? `${ids.email}-error` : undefined}
              />
              <Form.Control.Feedback type="invalid" id={`${ids.email}-error`}>
                {emailError}
              </Form.Control.Feedback>
            </Form.Group>
            <Form.Group className="col-6 col-md-4">
              <Form.Label htmlFor={ids.first}>First name</Form.Label>
              <Form.Control
                id={ids.first}
                value={first}
                onChange={(e) => setFirst(e.target.value)}
              />
            </Form.Group>
            <Form.Group className="col-6 col-md-4">
              <Form.Label htmlFor={ids.last}>Last name</Form.Label>
              <Form.Control id={ids.last} value={last} onChange={(e) => setLast(e.target.value)} />
            </Form.Group>
          </div>
          <PermissionChecks
            legend="Permissions"
            value={permissions}
            onChange={setPermissions}
            grantor={grantor}
          />
          <Button type="submit" disabled={invite.isPending || !email.trim()}>
            Send Invitation
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

function EditModal({
  member,
  grantor,
  onClose,
}: {
  member: StaffMember;
  grantor: Grantor;
  onClose: () => void;
}) {
  const save = useSetPermissions();
  const [permissions, setPermissions] = useState(member.permissions as Permission[]);
  return (
    <EditDialog
      titleId="staff-edit-title"
      title={`Permissions of ${nameOf(member)}`}
      titleProps={{ as: 'h2', className: 'h5' }}
      cancelVariant="secondary"
      saveLabel="Save Permissions"
      saving={save.isPending}
      onSave={() =>
        save.mutate(
          { id: member.id, is_staff: true, permissions },
          {
            onSuccess: () => {
              showAlert(`Saved the permissions of ${nameOf(member)}.`, 'success', 5_000);
              onClose();
            },
            onError: (error) => showError(error),
          },
        )
      }
      onClose={onClose}
    >
      <PermissionChecks
        legend="Permissions"
        value={permissions}
        onChange={setPermissions}
        grantor={grantor}
      />
    </EditDialog>
  );
}

/** Holders of user.change_staff: who is on the staff with which permissions; invite, change. */
export default function StaffAdminScreen() {
  const session = useSession();
  const list = useStaffList();
  const setPermissions = useSetPermissions();
  const setSuperuser = useSetSuperuser();
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const iAmSuperuser = !!session?.permissions?.is_superuser;
  const grantor: Grantor = {
    is_superuser: iAmSuperuser,
    permissions: session?.permissions?.permissions ?? [],
  };
  const staff = list.data?.results ?? [];

  return (
    <>
      <PageTitle>Staff</PageTitle>
      <InviteForm grantor={grantor} />
      <h2 className="h5">Who Has Which Permissions</h2>
      <ListTable columns={['Name', 'Email', 'Permissions']} region="Staff table">
        {staff.map((m) => {
          const self = m.id === session?.userId;
          // Taking someone off the staff revokes all they hold: only if the caller holds it.
          const notMine = changesNotHeld(grantor, m.permissions, []);
          return (
            <tr key={m.id}>
              <th scope="row">{nameOf(m)}</th>
              <td>{m.email}</td>
              <td>
                {m.is_superuser ? (
                  <Badge bg="dark">Superuser: every permission</Badge>
                ) : m.permissions.length ? (
                  <ul className="list-unstyled mb-0 small">
                    {m.permissions.map((p) => (
                      <li key={p}>{permissionLabel(p)}</li>
                    ))}
                  </ul>
                ) : (
                  <span className="text-body-secondary">None</span>
                )}
              </td>
              <td>
                <div className="d-flex flex-wrap gap-1 justify-content-end">
                  {!m.is_superuser && !self && (
                    <>
                      <Button
                        size="sm"
                        variant="outline-primary"
                        onClick={() => setEditing(m)}
                        aria-label={`Edit Permissions: ${nameOf(m)}`}
                      >
                        Edit Permissions
                      </Button>
                      <Button
                        size="sm"
                        variant="outline-danger"
                        aria-label={`Remove from Staff: ${nameOf(m)}`}
                        aria-describedby={notMine.length ? `not-mine-${m.id}` : undefined}
                        disabled={setPermissions.isPending || notMine.length > 0}
                        onClick={() =>
                          setPermissions.mutate(
                            { id: m.id, is_staff: false, permissions: [] },
                            {
                              onSuccess: () =>
                                showAlert(
                                  `${nameOf(m)} is no longer on the staff.`,
                                  'success',
                                  5_000,
                                ),
                              onError: (error) => showError(error),
                            },
                          )
                        }
                      >
                        Remove from Staff
                      </Button>
                    </>
                  )}
                  {iAmSuperuser && (
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      disabled={setSuperuser.isPending}
                      aria-label={
                        m.is_superuser
                          ? `Demote Superuser: ${nameOf(m)}`
                          : `Make Superuser: ${nameOf(m)}`
                      }
                      onClick={() =>
                        setSuperuser.mutate(
                          { id: m.id, is_superuser: !m.is_superuser },
                          { onError: (error) => showError(error) },
                        )
                      }
                    >
                      {m.is_superuser ? 'Demote Superuser' : 'Make Superuser'}
                    </Button>
                  )}
                </div>
                {!m.is_superuser && !self && notMine.length > 0 && (
                  <p className="small text-body-secondary text-end mb-0" id={`not-mine-${m.id}`}>
                    Holds permissions you do not ({notMine.map(permissionLabel).join('; ')}): only
                    someone who holds them can take them off the staff.
                  </p>
                )}
              </td>
            </tr>
          );
        })}
      </ListTable>
      {editing && <EditModal member={editing} grantor={grantor} onClose={() => setEditing(null)} />}
    </>
  );
}

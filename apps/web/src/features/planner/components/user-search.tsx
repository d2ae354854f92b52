import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import type { User } from '@paddock/contract/accounts';
import { pathTo } from '../../../lib/routes';
import { userSearchQuery } from '../api/planner-api';
import { NewCustomerForm } from './new-customer-form';

/** Staff, Subscriber and Delinquent (a club member whose payment failed). */
export function UserBadges({ user }: { user: User }) {
  return (
    <>
      {user.is_staff && <Badge bg="dark">Staff</Badge>}{' '}
      {user.credits_subscription_in_good_standing && <Badge bg="success">Subscriber</Badge>}{' '}
      {user.credits_subscription_exists && !user.credits_subscription_in_good_standing && (
        <Badge bg="danger">Delinquent</Badge>
      )}
    </>
  );
}

/** A user's name as the results list shows it: the e-mail in brackets once onboarded. */
export function userLabel(user: User): string {
  return user.is_onboarded ? `${user.display_name} (${user.email})` : user.display_name;
}

/** User search (spec staff §2): the results modal links each user to the admin user page. */
export function UserSearch() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const results = useQuery(userSearchQuery(search));
  // A walk-in without an account gets one from here (issue 30).
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<User | null>(null);
  return (
    <>
      <Form
        role="search"
        className="mb-3"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(text.trim());
          setCreating(false);
          setCreated(null);
        }}
      >
        <InputGroup size="sm" style={{ maxWidth: '28rem' }}>
          <Form.Control
            type="search"
            aria-label="Search users"
            placeholder="Find a customer by name, e-mail or phone"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <Button type="submit" variant="outline-primary" disabled={!text.trim()}>
            Search
          </Button>
        </InputGroup>
      </Form>
      <Modal
        aria-labelledby="planner-modal-1"
        show={search !== ''}
        onHide={() => setSearch('')}
        scrollable
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" id="planner-modal-1" className="h5">
            Users matching &ldquo;{search}&rdquo;
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {results.isSuccess && results.data.results.length === 0 && <p>No users found.</p>}
          {created ? (
            // Once the list has fetched again it holds the new customer; until then, here they are.
            !results.data?.results.some((u) => u.id === created.id) && (
              <p>
                New customer:{' '}
                <Link to={pathTo('adminUser', { userId: created.id })}>{userLabel(created)}</Link>
              </p>
            )
          ) : creating ? (
            <NewCustomerForm
              search={search}
              onCancel={() => setCreating(false)}
              onCreated={setCreated}
            />
          ) : (
            <Button
              variant="outline-primary"
              size="sm"
              className="mb-2"
              onClick={() => setCreating(true)}
            >
              New Customer
            </Button>
          )}
          <ListGroup variant="flush">
            {results.data?.results.map((user) => (
              <ListGroup.Item key={user.id}>
                <Link to={pathTo('adminUser', { userId: user.id })}>{userLabel(user)}</Link>{' '}
                <UserBadges user={user} />
              </ListGroup.Item>
            ))}
          </ListGroup>
        </Modal.Body>
      </Modal>
    </>
  );
}

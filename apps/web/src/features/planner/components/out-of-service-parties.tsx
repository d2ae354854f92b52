import Alert from 'react-bootstrap/Alert';
import type { OutOfServiceParty } from '@paddock/contract/planner';

/**
 * The parties the broken seat races in (issue 41, decision 0117): where its place goes, or that
 * the party keeps listing it, flagged, until staff swap the seat on the Parties screen.
 */
export function OutOfServiceParties({
  seat,
  parties,
}: {
  seat: string;
  parties: OutOfServiceParty[];
}) {
  if (parties.length === 0) return null;
  return (
    <Alert variant="warning" className="py-2">
      <p className="mb-1 fw-semibold">
        {seat} is in {parties.length === 1 ? 'a party' : `${parties.length} parties`}:
      </p>
      <ul className="mb-0 ps-3">
        {parties.map((p) => (
          <li key={p.party}>
            {p.to_calendar_name
              ? `${p.party_name}: its place moves to ${p.to_calendar_name}.`
              : `${p.party_name}: ${p.is_host ? 'it hosts the party, so it' : 'it'} stays listed, marked out of service. Swap the seat on the Parties screen.`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

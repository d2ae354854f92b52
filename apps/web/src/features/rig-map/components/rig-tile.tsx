import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { RIG_STATE_LABELS, type RigState, type RigTile as Tile } from '@paddock/contract/rig-map';
import { TileActions, type TileActionProps } from './tile-actions';
import { diskWords, minutesLeft, offlineFor, timeLeftWords, venueTime, whoOf } from './rig-words';

/** Each state's colour: a badge the eye finds across the room, with dark text where light. */
const STATE_STYLE: Record<RigState, { bg: string; text?: 'dark' }> = {
  out_of_service: { bg: 'secondary' },
  offline: { bg: 'danger' },
  starting: { bg: 'info', text: 'dark' },
  in_session: { bg: 'success' },
  sim_not_running: { bg: 'warning', text: 'dark' },
  idle: { bg: 'light', text: 'dark' },
};

const inService = (tile: Tile) => tile.state !== 'out_of_service' && tile.rig_connected;

type Props = Omit<TileActionProps, 'tile'> & { tile: Tile; zone: string; nowMs: number };

/**
 * One seat on the rig map (decision 0127): its state, who sits there and for how long, who is
 * next, the agent's health when it told, an alert for a rig gone during opening hours, and the
 * actions that fit.
 */
export function RigTile({ tile, zone, nowMs, ...actions }: Props) {
  const titleId = `rig-tile-${tile.calendar}`;
  const style = STATE_STYLE[tile.state];
  const { current, next, health } = tile;
  return (
    <Card
      as="article"
      aria-labelledby={titleId}
      className="h-100"
      border={tile.offline_alert ? 'danger' : undefined}
      data-state={tile.state}
    >
      <Card.Header className="d-flex flex-wrap gap-2 align-items-center">
        <h2 id={titleId} className="h5 mb-0 me-auto">
          {tile.calendar_name}
        </h2>
        <Badge bg={style.bg} text={style.text} className={style.bg === 'light' ? 'border' : ''}>
          {RIG_STATE_LABELS[tile.state]}
        </Badge>
      </Card.Header>
      <Card.Body className="d-flex flex-column gap-2">
        {tile.offline_alert && (
          <Alert variant="danger" className="py-1 px-2 mb-0 small" role="status">
            {offlineFor(tile, nowMs)}
          </Alert>
        )}
        {current ? (
          <p className="mb-0">
            <strong>{whoOf(current)}</strong>{' '}
            <Badge
              bg={current.paid ? 'success' : 'warning'}
              text={current.paid ? undefined : 'dark'}
            >
              {current.paid ? 'Paid' : 'Unpaid'}
            </Badge>
            {current.club && (
              <Badge bg="primary" className="ms-1">
                Club
              </Badge>
            )}
            <br />
            <span className="fs-5">{timeLeftWords(minutesLeft(current, nowMs))}</span>{' '}
            <span className="text-body-secondary small">
              (until {venueTime(current.ends, zone)})
            </span>
          </p>
        ) : (
          <p className="mb-0 text-body-secondary">
            Nobody booked now.
            {tile.sim_launched && inService(tile) && (
              <strong className="d-block text-body">The sim is running with nobody booked.</strong>
            )}
          </p>
        )}
        <p className="mb-0 small">
          {next
            ? `Next: ${whoOf(next)} at ${venueTime(next.starts, zone)}`
            : 'Nothing booked next.'}
        </p>
        {tile.party_name && <p className="mb-0 small">Runs the party {tile.party_name}.</p>}
        {(health.agent_version || health.last_seen) && (
          <p className="mb-0 small text-body-secondary">
            {health.agent_version && <>Agent {health.agent_version}</>}
            {health.agent_version && health.last_seen && ' · '}
            {health.last_seen && <>Last seen {venueTime(health.last_seen, zone)}</>}
            {health.disk_free_bytes !== null && <> · {diskWords(health.disk_free_bytes)}</>}
          </p>
        )}
        <TileActions tile={tile} {...actions} />
      </Card.Body>
    </Card>
  );
}

import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { PageTitle } from '../../../components/page-title';
import { hasPermission, useSession } from '../../../lib/auth-store';
import { BoardsPanel } from '../components/boards-panel';
import { ImportResultsPanel } from '../components/import-results-panel';
import { LapReviewPanel } from '../components/lap-review-panel';
import { RigKeysPanel } from '../components/rig-keys-panel';

/** Staff: boards, results import, lap review and rig keys, each behind its permission. */
export default function LapsAdminScreen() {
  const session = useSession();
  const can = (p: string) => hasPermission(session, p);
  return (
    <>
      <PageTitle>Laps & Leaderboards</PageTitle>
      <Tabs defaultActiveKey="boards" className="mb-3" mountOnEnter>
        <Tab eventKey="boards" title="Boards">
          <BoardsPanel />
        </Tab>
        {can('laps.change_lap') && (
          <Tab eventKey="import" title="Import Results">
            <ImportResultsPanel />
          </Tab>
        )}
        {can('laps.change_lap') && (
          <Tab eventKey="review" title="Lap Review">
            <LapReviewPanel />
          </Tab>
        )}
        {can('rigs.change_rig') && (
          <Tab eventKey="rigs" title="Rig Keys">
            <RigKeysPanel />
          </Tab>
        )}
      </Tabs>
    </>
  );
}

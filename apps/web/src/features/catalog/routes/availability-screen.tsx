import Nav from 'react-bootstrap/Nav';
import { NavLink, Outlet } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { pathTo } from '../../../lib/routes';

/** Cars & Tracks — spec customer §2 /availability: tabbed lists of cars and tracks. */
export default function AvailabilityScreen() {
  return (
    <>
      <PageTitle>Cars & Tracks</PageTitle>
      <Nav variant="tabs" className="mb-3" as="ul">
        <Nav.Item as="li">
          <Nav.Link as={NavLink} to={pathTo('availabilityCars')}>
            Cars
          </Nav.Link>
        </Nav.Item>
        <Nav.Item as="li">
          <Nav.Link as={NavLink} to={pathTo('availabilityTracks')}>
            Tracks
          </Nav.Link>
        </Nav.Item>
      </Nav>
      <Outlet />
    </>
  );
}

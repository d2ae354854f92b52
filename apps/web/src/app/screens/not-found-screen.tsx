import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import { PageTitle } from '../../components/page-title';
import { pathTo } from '../../lib/routes';

/** Unknown paths (spec §2). */
export function NotFoundScreen() {
  const navigate = useNavigate();
  return (
    <section className="text-center py-5">
      <PageTitle className="display-5 mb-4">Page Not Found</PageTitle>
      <Button size="lg" onClick={() => navigate(pathTo('home'))}>
        Go Back Home
      </Button>
    </section>
  );
}

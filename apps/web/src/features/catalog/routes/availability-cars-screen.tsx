import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { SIM_NAMES, type Car } from '@paddock/contract/laps';
import { Pager } from '../../../components/pager';
import { SpinnerScreen } from '../../../components/spinner-screen';
import { errorMessage } from '../../../lib/error-message';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { carsQuery, groupsQuery } from '../../../lib/api/catalog-queries';
import { CarModal } from '../components/car-modal';
import { formatDrivingTime } from '../components/format';
import { SearchBox } from '../../../components/search-box';

export const NO_CARS = 'No cars matched your search query';

/** The Cars tab of /availability (spec customer §2): keywords and group filter. */
export default function AvailabilityCarsScreen() {
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<Car | null>(null);
  const keywords = useDebouncedValue(search.trim(), 300);
  const groups = useQuery(groupsQuery());
  const cars = useQuery(carsQuery(keywords, group, page));

  const chooseGroup = (id: number | null) => {
    setGroup(id);
    setPage(1);
  };

  return (
    <section aria-label="Cars">
      <div className="d-flex flex-wrap gap-3 align-items-end mb-3">
        <SearchBox
          id="cars-search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <Form.Group controlId="cars-group">
          <Form.Label className="small mb-1">Racing Group</Form.Label>
          <Form.Select
            value={group ?? ''}
            onChange={(e) => chooseGroup(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">All groups</option>
            {groups.data?.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      </div>
      {cars.isPending ? (
        <SpinnerScreen label="Loading cars…" />
      ) : cars.isError ? (
        <p className="text-danger">{errorMessage(cars.error)}</p>
      ) : cars.data.results.length === 0 ? (
        <p>{NO_CARS}</p>
      ) : (
        <>
          <Table responsive hover className="align-middle" aria-busy={cars.isFetching}>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">View Car</span>
                </th>
                <th scope="col">Car Name</th>
                <th scope="col">Racing Groups</th>
                <th scope="col" className="text-end">
                  Total Time
                </th>
              </tr>
            </thead>
            <tbody>
              {cars.data.results.map((car) => (
                <tr key={car.id}>
                  <td>
                    <Button size="sm" variant="outline-primary" onClick={() => setViewing(car)}>
                      View Car<span className="visually-hidden">: {car.name}</span>
                    </Button>
                  </td>
                  <td>
                    {car.name}
                    {/* Beside the name, not a column of its own: the table fits a phone. */}
                    <div className="small text-body-secondary">{SIM_NAMES[car.sim]}</div>
                  </td>
                  <td>
                    {car.groups.map((g) => (
                      <Badge
                        key={g.id}
                        as="button"
                        type="button"
                        bg={g.id === group ? 'primary' : 'secondary'}
                        className="me-1 border-0"
                        onClick={() => chooseGroup(g.id)}
                        aria-label={`Show ${g.name} cars`}
                      >
                        {g.name}
                      </Badge>
                    ))}
                  </td>
                  <td className="text-end text-nowrap">
                    {formatDrivingTime(car.total_time_seconds)}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pager page={page} pageCount={cars.data.page_count} onPage={setPage} label="cars" />
        </>
      )}
      <CarModal car={viewing} onHide={() => setViewing(null)} />
    </section>
  );
}

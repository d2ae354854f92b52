import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { carDetailsUrl } from '@paddock/contract/venue';
import { stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const CAR = {
  id: 12,
  sim: 'ac',
  key: 'ks_audi_r8_lms',
  name: 'Audi R8 LMS',
  brand: 'Audi',
  car_class: 'GT3',
  needs_review: false,
  groups: [{ id: 1, name: 'GT3' }],
  total_time_seconds: 3600,
};

function openCars(config = {}) {
  stubApi({
    'GET /api/cars': { body: { count: 1, next: null, previous: null, results: [CAR] } },
    'GET /api/groups': { body: [{ id: 1, name: 'GT3' }] },
  });
  renderApp('/availability/cars', { config });
}

describe("'View Car'", () => {
  it('fills the venue template with the car id and content key', () => {
    expect(carDetailsUrl('', CAR)).toBeNull();
    expect(carDetailsUrl('https://cars.example.com/{key}?ref={id}', CAR)).toBe(
      'https://cars.example.com/ks_audi_r8_lms?ref=12',
    );
  });

  it("embeds the venue's car page when one is set up", async () => {
    openCars({ car_details_url: 'https://cars.example.com/{id}' });
    await userEvent.click(await screen.findByRole('button', { name: /View Car: Audi R8 LMS/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTitle('Audi R8 LMS: car details')).toHaveAttribute(
      'src',
      'https://cars.example.com/12',
    );
  });

  it("shows Paddock's own car page without one", async () => {
    openCars();
    await userEvent.click(await screen.findByRole('button', { name: /View Car: Audi R8 LMS/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Audi')).toBeVisible();
    expect(within(dialog).queryByTitle(/car details/)).toBeNull();
  });
});

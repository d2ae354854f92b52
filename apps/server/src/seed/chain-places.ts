/**
 * The chain's fifty locations (issue 33): cities in eight time zones and five currencies, each
 * with its sales tax. Sizes vary (15 to 45 seats at full scale) so one location is the busiest.
 */
export type ChainPlace = {
  city: string;
  timezone: string;
  currency: 'USD' | 'CAD' | 'GBP' | 'EUR' | 'AUD';
  taxPercent: string;
  /** Price of a half-hour in a cockpit, in the location's currency's cents. */
  costCents: number;
};

const US = (city: string, timezone: string, taxPercent: string): ChainPlace => ({
  city,
  timezone,
  currency: 'USD',
  taxPercent,
  costCents: 2500,
});
const EU = (city: string, timezone: string, taxPercent: string): ChainPlace => ({
  city,
  timezone,
  currency: 'EUR',
  taxPercent,
  costCents: 2200,
});

export const CHAIN_PLACES: ChainPlace[] = [
  US('Los Angeles', 'America/Los_Angeles', '9.5'),
  US('San Diego', 'America/Los_Angeles', '7.75'),
  US('San Francisco', 'America/Los_Angeles', '8.625'),
  US('Seattle', 'America/Los_Angeles', '10.25'),
  US('Portland', 'America/Los_Angeles', '0'),
  US('Las Vegas', 'America/Los_Angeles', '8.375'),
  US('Phoenix', 'America/Phoenix', '8.6'),
  US('Denver', 'America/Denver', '8.81'),
  US('Salt Lake City', 'America/Denver', '7.75'),
  US('Dallas', 'America/Chicago', '8.25'),
  US('Houston', 'America/Chicago', '8.25'),
  US('Austin', 'America/Chicago', '8.25'),
  US('Chicago', 'America/Chicago', '10.25'),
  US('Minneapolis', 'America/Chicago', '8.025'),
  US('Nashville', 'America/Chicago', '9.25'),
  US('Atlanta', 'America/New_York', '8.9'),
  US('Miami', 'America/New_York', '7'),
  US('Charlotte', 'America/New_York', '7.25'),
  US('Washington', 'America/New_York', '6'),
  US('Philadelphia', 'America/New_York', '8'),
  US('New York', 'America/New_York', '8.875'),
  US('Boston', 'America/New_York', '6.25'),
  US('Detroit', 'America/Detroit', '6'),
  {
    city: 'Toronto',
    timezone: 'America/Toronto',
    currency: 'CAD',
    taxPercent: '13',
    costCents: 3000,
  },
  {
    city: 'Montreal',
    timezone: 'America/Toronto',
    currency: 'CAD',
    taxPercent: '14.975',
    costCents: 3000,
  },
  {
    city: 'Vancouver',
    timezone: 'America/Vancouver',
    currency: 'CAD',
    taxPercent: '12',
    costCents: 3200,
  },
  {
    city: 'Calgary',
    timezone: 'America/Edmonton',
    currency: 'CAD',
    taxPercent: '5',
    costCents: 2800,
  },
  { city: 'London', timezone: 'Europe/London', currency: 'GBP', taxPercent: '20', costCents: 2200 },
  {
    city: 'Manchester',
    timezone: 'Europe/London',
    currency: 'GBP',
    taxPercent: '20',
    costCents: 1800,
  },
  {
    city: 'Birmingham',
    timezone: 'Europe/London',
    currency: 'GBP',
    taxPercent: '20',
    costCents: 1800,
  },
  {
    city: 'Brighton',
    timezone: 'Europe/London',
    currency: 'GBP',
    taxPercent: '20',
    costCents: 2000,
  },
  {
    city: 'Edinburgh',
    timezone: 'Europe/London',
    currency: 'GBP',
    taxPercent: '20',
    costCents: 1900,
  },
  { city: 'Dublin', timezone: 'Europe/Dublin', currency: 'EUR', taxPercent: '23', costCents: 2400 },
  EU('Paris', 'Europe/Paris', '20'),
  EU('Lyon', 'Europe/Paris', '20'),
  EU('Berlin', 'Europe/Berlin', '19'),
  EU('Munich', 'Europe/Berlin', '19'),
  EU('Hamburg', 'Europe/Berlin', '19'),
  EU('Cologne', 'Europe/Berlin', '19'),
  EU('Amsterdam', 'Europe/Amsterdam', '21'),
  EU('Brussels', 'Europe/Brussels', '21'),
  EU('Milan', 'Europe/Rome', '22'),
  EU('Madrid', 'Europe/Madrid', '21'),
  EU('Barcelona', 'Europe/Madrid', '21'),
  EU('Vienna', 'Europe/Vienna', '20'),
  {
    city: 'Sydney',
    timezone: 'Australia/Sydney',
    currency: 'AUD',
    taxPercent: '10',
    costCents: 3500,
  },
  {
    city: 'Melbourne',
    timezone: 'Australia/Melbourne',
    currency: 'AUD',
    taxPercent: '10',
    costCents: 3500,
  },
  {
    city: 'Brisbane',
    timezone: 'Australia/Brisbane',
    currency: 'AUD',
    taxPercent: '10',
    costCents: 3200,
  },
  {
    city: 'Perth',
    timezone: 'Australia/Perth',
    currency: 'AUD',
    taxPercent: '10',
    costCents: 3200,
  },
  {
    city: 'Adelaide',
    timezone: 'Australia/Adelaide',
    currency: 'AUD',
    taxPercent: '10',
    costCents: 3000,
  },
];

/** Seats of place `i` at full scale: 15 … 45, 1 500 in all; the largest are Dallas and New York (45). */
export function fullSeats(i: number): number {
  return 15 + ((i * 17) % 31) + (i < 13 ? 1 : 0);
}

export const FIRST_NAMES = (
  'James,Mary,John,Patricia,Robert,Jennifer,Michael,Linda,William,Elizabeth,David,Barbara,' +
  'Richard,Susan,Joseph,Jessica,Thomas,Sarah,Charles,Karen,Daniel,Nancy,Matthew,Lisa,' +
  'Anthony,Betty,Mark,Sandra,Oliver,Amelia,George,Isla,Harry,Ava,Noah,Mia,Leo,Emma,Lukas,' +
  'Hannah,Luca,Giulia,Hugo,Chloé,Mateo,Lucía,Liam,Olivia,Jack,Charlotte,Finn,Sofia,Max,' +
  'Lena,Kenji,Yuki,Arjun,Priya,Wei,Mei'
).split(',');

export const LAST_NAMES = (
  'Smith,Johnson,Williams,Brown,Jones,Garcia,Miller,Davis,Rodriguez,Martinez,Hernandez,' +
  'Lopez,Wilson,Anderson,Thomas,Taylor,Moore,Jackson,Martin,Lee,Thompson,White,Harris,' +
  'Clark,Lewis,Robinson,Walker,Young,Allen,King,Wright,Scott,Green,Baker,Adams,Nelson,Hill,' +
  "Campbell,Mitchell,Roberts,Evans,Turner,Murphy,O'Brien,Kelly,Byrne,Müller,Schmidt," +
  'Schneider,Fischer,Weber,Meyer,Wagner,Becker,Dubois,Moreau,Laurent,Rossi,Russo,Ferrari,' +
  'Esposito,Bianchi,Fernández,González,Sánchez,Pérez,de Vries,Jansen,Peeters,Nguyen,Tanaka,' +
  'Sato,Patel,Singh,Chen,Wang,Kim,Park,Novak,Kowalski'
).split(',');

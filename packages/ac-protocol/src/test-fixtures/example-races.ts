// The three races the golden files and the fake-server tests share.
import type { AcClientAssists, AcRaceIniInput } from '../race-ini';
import type { AcServerRace } from '../server-config';

const common = {
  adminPassword: 'staff-only',
  ports: { tcp: 9600, udp: 9600, http: 8081 },
  plugin: { address: '127.0.0.1:12000', localPort: 11000 },
  assists: {
    abs: 'factory',
    tractionControl: 'factory',
    stabilityControl: false,
    autoClutch: true,
    tyreBlankets: true,
  },
  penalties: { cutPenalties: true, allowedTyresOut: 2, startRule: 'drive-through' },
} satisfies Partial<AcServerRace>;

/** One seat, practice only: what a hotlap booking runs when it goes through a server. */
export const hotlapRace: AcServerRace = {
  ...common,
  serverName: 'Paddock Bay 1 hotlap',
  password: '',
  track: 'ks_vallelunga',
  trackLayout: 'club_circuit',
  sessions: { practice: { name: 'Hotlap', minutes: 30 } },
  entries: [
    {
      model: 'ks_mazda_mx5_cup',
      skin: '00_official',
      guid: '76561198000000001',
      driverName: 'Ana Lima',
    },
  ],
};

/** A 3-seat party, a 10-lap race, two car models, fixed setup. */
export const partyRaceByLaps: AcServerRace = {
  ...common,
  serverName: 'Paddock Party #12; Bay 1-3',
  password: 'k3Yp4rty',
  track: 'monza',
  sessions: { race: { laps: 10, waitSeconds: 60 } },
  fixedSetup: 'paddock_default.ini',
  entries: [
    { model: 'lotus_exos_125', skin: 'carbon', guid: '76561198000000001', driverName: 'Ana Lima' },
    { model: 'lotus_exos_125', skin: '0_Lotus', guid: '76561198000000002', driverName: 'Ben Okafor' },
    {
      model: 'ks_mazda_mx5_cup',
      skin: '00_official',
      guid: '76561198000000003',
      driverName: 'Chloé Martin',
      team: 'Paddock',
      ballastKg: 15,
    },
  ],
};

/** Practice, qualifying and a 20-minute race with an extra lap. */
export const timedRaceWeekend: AcServerRace = {
  ...common,
  serverName: 'Paddock league night',
  password: 'league',
  track: 'ks_silverstone',
  trackLayout: 'gp',
  cars: ['ks_mazda_mx5_cup', 'tatuusfa1'],
  sessions: {
    practice: { minutes: 25 },
    qualify: { minutes: 10 },
    race: { minutes: 20, extraLap: true, waitSeconds: 90 },
  },
  assists: { ...common.assists, abs: 'any', tractionControl: 'off', autoClutch: false },
  penalties: { cutPenalties: false, allowedTyresOut: 3, startRule: 'teleport', maxContactsPerKm: 5 },
  conditions: {
    damagePercent: 50,
    fuelRatePercent: 100,
    tyreWearPercent: 100,
    sunAngle: 16,
    weather: { graphics: '4_mid_clear', ambientC: 18, roadOffsetC: 5 },
  },
  entries: [
    { model: 'tatuusfa1', skin: '', guid: '76561198000000001', driverName: 'Ana Lima' },
    { model: 'tatuusfa1', skin: '', guid: '76561198000000002', driverName: 'Ben Okafor' },
  ],
};

export const hotlapClient: AcRaceIniInput = {
  track: 'ks_vallelunga',
  trackLayout: 'club_circuit',
  car: { model: 'ks_mazda_mx5_cup', skin: '00_official' },
  driver: { name: 'Ana Lima', nationCode: 'BRA' },
  sessions: [{ type: 'HOTLAP', spawn: 'HOTLAP_START', minutes: 30 }],
  penalties: true,
  fixedSetup: false,
};

export const partySeatClient: AcRaceIniInput = {
  track: 'monza',
  car: { model: 'lotus_exos_125', skin: 'carbon', setup: 'paddock_default.ini' },
  driver: { name: 'Ana Lima', team: '', nationCode: 'BRA' },
  sessions: [{ type: 'RACE', spawn: 'START', laps: 10 }],
  penalties: true,
  fixedSetup: true,
  jumpStartPenalty: 2,
  remote: { serverIp: '192.168.1.20', serverPort: 9600, password: 'k3Yp4rty', guid: '76561198000000001' },
};

export const beginnerAssists: AcClientAssists = {
  idealLine: true,
  autoBlip: true,
  stabilityControl: 50,
  autoBrake: false,
  autoShifter: true,
  abs: 'factory',
  tractionControl: 'factory',
  autoClutch: true,
  visualDamage: true,
  damagePercent: 0,
  fuelRate: true,
  tyreWear: true,
  tyreBlankets: true,
  slipstream: true,
};

// The one place drizzle sees every table; features import tables from db/schema/<file>.
import * as accounts from './schema/accounts';
import * as venue from './schema/venue';
import * as payments from './schema/payments';
import * as content from './schema/content';
import * as booking from './schema/booking';
import * as club from './schema/club';
import * as security from './schema/security';
import * as laps from './schema/laps';
import * as screens from './schema/screens';
import * as audit from './schema/audit';
import * as races from './schema/races';
import * as refunds from './schema/refunds';
import * as images from './schema/images';
import * as reports from './schema/reports';
import * as rigs from './schema/rigs';

export const schema = {
  ...accounts,
  ...venue,
  ...payments,
  ...content,
  ...booking,
  ...club,
  ...security,
  ...laps,
  ...screens,
  ...audit,
  ...races,
  ...refunds,
  ...images,
  ...rigs,
  ...reports,
};

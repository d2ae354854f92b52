import { z } from 'zod';
import { idText, paginationQuery } from './common';

/** One staff action as the audit trail keeps it. */
export const auditEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.number().int().nullable(),
  actor_name: z.string().nullable(),
  /** e.g. `planner.blackout`, `user.update`, `settings.update`. */
  action: z.string(),
  target_type: z.string(),
  target_id: z.number().int().nullable(),
  /** The customer the action concerns. */
  subject_user: z.number().int().nullable(),
  subject_name: z.string().nullable(),
  /** The customer's account was deleted since: no page to link to, no name kept. */
  subject_deleted: z.boolean(),
  /** The target's name now (null: deleted, or a kind without names). */
  target_name: z.string().nullable(),
  /**
   * Names of the objects `before` and `after` refer to by id, keyed `kind:id`
   * (`calendar:3`, `location:1`, `user:5`), so the trail reads in names, not numbers.
   */
  names: z.record(z.string(), z.string()),
  /** Any JSON (null when the object was created). */
  before: z.unknown(),
  /** Any JSON (null when the object was deleted). */
  after: z.unknown(),
});
export type AuditEvent = z.infer<typeof auditEvent>;

export const auditQuery = paginationQuery.extend({
  /** The customer concerned. */
  user: idText.optional(),
  /** The staff member who acted. */
  actor: idText.optional(),
  /** An action, or its area before the dot (`planner`). */
  action: z
    .string()
    .regex(
      /^[a-z_]{1,40}(\.[a-z_]{1,40})?$/,
      'Enter an action such as planner or planner.blackout.',
    )
    .optional(),
});
export type AuditQuery = z.input<typeof auditQuery>;

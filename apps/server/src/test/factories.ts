import crypto from 'node:crypto';
import type { Permission } from '@paddock/contract/accounts';
import type { Db } from '../db/client';
import { userPermissions, users } from '../db/schema/accounts';
import { hashPassword } from '../lib/passwords';
import type { Tokens } from '../plugins/auth';

export type CreatedUser = {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
};

let counter = 0;

/** Inserts a user straight into the database and signs a token for it. */
export async function createUser(
  ctx: { db: Db; deps: { tokens: Tokens } },
  opts: {
    email?: string;
    password?: string;
    isStaff?: boolean;
    isSuperuser?: boolean;
    permissions?: Permission[];
    firstName?: string;
    lastName?: string;
    isOnboarded?: boolean;
  } = {},
): Promise<CreatedUser> {
  counter += 1;
  const email = opts.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const password = opts.password ?? 'correct-horse-battery';
  const [row] = await ctx.db
    .insert(users)
    .values({
      username: email,
      email,
      passwordHash: await hashPassword(password),
      isStaff: opts.isStaff ?? false,
      isSuperuser: opts.isSuperuser ?? false,
      isOnboarded: opts.isOnboarded ?? true,
      firstName: opts.firstName ?? 'Test',
      lastName: opts.lastName ?? `User${counter}`,
    })
    .returning({ id: users.id });
  if (opts.permissions?.length) {
    await ctx.db
      .insert(userPermissions)
      .values(opts.permissions.map((permission) => ({ userId: row.id, permission })));
  }
  return {
    id: row.id,
    username: email,
    email,
    password,
    token: await ctx.deps.tokens.sign(row.id, 0),
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

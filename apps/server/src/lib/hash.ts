import crypto from 'node:crypto';

/** Hex SHA-256: how tokens and keys are kept (never the secret itself) and files are told apart. */
export const sha256Hex = (data: string | Buffer) =>
  crypto.createHash('sha256').update(data).digest('hex');

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** JWT_SECRET, or one generated on first start and kept in the data folder. */
export async function loadOrCreateSecret(
  dataDir: string,
  given: string | undefined,
): Promise<string> {
  if (given) return given;
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = crypto.randomBytes(48).toString('base64url');
    await fs.mkdir(dataDir, { recursive: true });
    await fs.writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

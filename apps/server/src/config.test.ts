import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const DB = { DATABASE_URL: 'postgres://paddock@db.example.com/paddock' };

describe('production defaults', () => {
  it('keeps the embedded default on this machine, a real deployment on every interface', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig(DB).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('points links at the port the server listens on', () => {
    expect(loadConfig({ PORT: '4123' }).publicUrl).toBe('http://localhost:4123');
    expect(loadConfig({ PUBLIC_URL: 'https://book.example.com/' }).publicUrl).toBe(
      'https://book.example.com',
    );
  });

  it('seeds the demo only on the embedded default, or when asked, then with random passwords', () => {
    expect(loadConfig({})).toMatchObject({ seedDemo: true, demoRandomPasswords: false });
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig(DB).seedDemo).toBe(false);
    expect(loadConfig({ ...DB, SEED_DEMO: 'true' })).toMatchObject({
      seedDemo: true,
      demoRandomPasswords: true,
    });
  });

  it('bounds connections, requests and bodies', () => {
    expect(loadConfig({})).toMatchObject({
      connectionTimeoutMs: 60_000,
      requestTimeoutMs: 30_000,
      bodyLimitBytes: 1024 * 1024,
    });
  });

  it('runs no AC dedicated server unless AC_SERVER_PATH says where it is', () => {
    expect(loadConfig({}).acServer).toBeUndefined();
    expect(loadConfig({ AC_SERVER_PATH: '/opt/ac/acServer' }).acServer).toEqual({
      path: '/opt/ac/acServer',
      pluginHost: '127.0.0.1',
      serverHost: '127.0.0.1',
      ports: { game: 9600, http: 8081, serverPlugin: 11000, plugin: 12000 },
    });
    expect(() => loadConfig({ AC_SERVER_PATH: '/x', AC_SERVER_PORT: '70000' })).toThrow(
      /AC_SERVER_PORT/,
    );
  });

  it('keeps images on disk, at most 5 MB, unless S3_BUCKET names a bucket', () => {
    expect(loadConfig({}).images).toEqual({ maxBytes: 5 * 1024 * 1024, s3: undefined });
    expect(loadConfig({ IMAGE_MAX_KB: '200' }).images.maxBytes).toBe(200 * 1024);
    expect(
      loadConfig({
        S3_BUCKET: 'paddock',
        S3_ENDPOINT: 'https://minio.example.com',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).images.s3,
    ).toEqual({
      bucket: 'paddock',
      endpoint: 'https://minio.example.com',
      region: 'us-east-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      prefix: 'images/',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ S3_BUCKET: 'paddock', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ IMAGE_MAX_KB: '0' })).toThrow(/IMAGE_MAX_KB/);
  });

  it("takes Stripe's webhook secret only beside Stripe's key, and only a whsec_ (0084)", () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1' };
    expect(loadConfig(stripe).stripe?.webhookSecret).toBeUndefined();
    expect(
      loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).stripe?.webhookSecret,
    ).toBe('whsec_abc');
    expect(() => loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'sk_test_1' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: must start with whsec_/,
    );
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: set STRIPE_SECRET_KEY too/,
    );
  });
});

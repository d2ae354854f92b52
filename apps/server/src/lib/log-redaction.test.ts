import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { redactUrl, requestLogSerializer } from './log-redaction';

describe('redactUrl', () => {
  it('hides credential values in the query and keeps the rest', () => {
    expect(redactUrl('/api/feed.ics?token=feed_abc&location=2')).toBe(
      '/api/feed.ics?token=[REDACTED]&location=2',
    );
    expect(redactUrl('/login?redirect=%2Fx&TOKEN=eyJ.a.b')).toBe(
      '/login?redirect=%2Fx&TOKEN=[REDACTED]',
    );
    expect(redactUrl('/api/tracks?search=token')).toBe('/api/tracks?search=token');
  });

  it('keeps tokens out of a real request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({
      logger: { level: 'info', stream, serializers: { req: requestLogSerializer } },
    });
    app.get('/feed.ics', async () => 'ok');
    await app.inject({ url: '/feed.ics?token=feed_secret_value' });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/feed.ics?token=[REDACTED]');
    expect(log).not.toContain('feed_secret_value');
  });
});

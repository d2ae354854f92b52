import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs one pass of a scheduled job with its own id on every log line it writes (as a request
 * has its request id), and logs its failure instead of throwing into the scheduler.
 */
export async function runJob(
  log: FastifyBaseLogger,
  job: string,
  work: (log: FastifyBaseLogger) => Promise<unknown>,
): Promise<void> {
  const runLog = log.child({ job, jobId: crypto.randomUUID() });
  try {
    await work(runLog);
  } catch (err) {
    runLog.error({ err }, `${job} failed`);
  }
}

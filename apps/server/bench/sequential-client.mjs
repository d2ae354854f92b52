// The chain bench's client (bench/chain.ts, decision 0111): a small process of its own that
// only sends calls, one after another over one kept-alive connection, and times each until its
// last byte. The bench process itself holds the seeder, a pool and luxon; a collection of that
// heap in the middle of a call was counted as the server's time (up to 25 ms on 2 busy cores).
//
// Reads one job per line on stdin: {"urls": [...], "headers": {...}, "warmup": n, "pause": bool}
// (the first `warmup` urls are sent untimed); answers one line on stdout per job: {"times":
// [ms...], "failed"}. With `pause`, it writes {"before": i} ahead of each timed call and
// waits for any line on stdin (the bench's untimed step, a NOTIFY say) before sending it. It asks
// for brotli or gzip as a browser does.
import http from 'node:http';
import readline from 'node:readline';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, resolved with its status once the last byte has arrived. */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const nextLine = async () => {
  const { value, done } = await lines.next();
  if (done) process.exit(0);
  return value;
};

for (;;) {
  const { urls, warmup, pause, ...job } = JSON.parse(await nextLine());
  const headers = { ...job.headers, 'accept-encoding': 'br, gzip' };
  const times = [];
  let failed = 0;
  for (let i = 0; i < urls.length; i++) {
    if (pause && i >= warmup) {
      process.stdout.write(`${JSON.stringify({ before: i - warmup })}\n`);
      await nextLine();
    }
    const started = performance.now();
    const status = await get(urls[i], headers);
    if (i < warmup) continue;
    times.push(performance.now() - started);
    if (status !== 200) failed++;
  }
  process.stdout.write(`${JSON.stringify({ times, failed })}\n`);
}

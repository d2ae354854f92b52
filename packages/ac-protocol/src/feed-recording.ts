// A dedicated server's raw live feed, recorded and played back (decision 0122): the datagrams
// as they arrived, each with its time since the first, one JSON line each after a header line.
// Tests and demos play a recording into the server at any speed, never a live game.
import dgram from 'node:dgram';
import fs from 'node:fs';

export const FEED_FORMAT = 'paddock-feed/1';

export interface FeedHeader {
  format: typeof FEED_FORMAT;
  sim: 'ac' | 'acc';
  recorded_at: string;
  /** What was recorded (free text: the party, the track). */
  note?: string;
}

export interface FeedDatagram {
  /** Milliseconds since the recording began. */
  t: number;
  datagram: Buffer;
}

export interface FeedRecording {
  header: FeedHeader;
  datagrams: FeedDatagram[];
}

/** Appends datagrams to a recording file as they arrive (one write per datagram, in order). */
export class FeedRecorder {
  private readonly out: fs.WriteStream;
  private readonly started = performance.now();

  constructor(file: string, header: Omit<FeedHeader, 'format' | 'recorded_at'>) {
    this.out = fs.createWriteStream(file, { flags: 'w' });
    const full: FeedHeader = {
      format: FEED_FORMAT,
      recorded_at: new Date().toISOString(),
      ...header,
    };
    this.out.write(`${JSON.stringify(full)}\n`);
  }

  record(datagram: Uint8Array) {
    const t = Math.round(performance.now() - this.started);
    this.out.write(`${JSON.stringify({ t, d: Buffer.from(datagram).toString('base64') })}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(() => resolve()));
  }
}

/** Reads a recording; a line that is not one of ours is refused with its number. */
export function parseFeed(text: string): FeedRecording {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = JSON.parse(lines[0] ?? '{}') as FeedHeader;
  if (header.format !== FEED_FORMAT) throw new Error(`Not a ${FEED_FORMAT} recording.`);
  const datagrams = lines.slice(1).map((line, i) => {
    const row = JSON.parse(line) as { t?: unknown; d?: unknown };
    if (typeof row.t !== 'number' || typeof row.d !== 'string')
      throw new Error(`Line ${i + 2} is not a recorded datagram.`);
    return { t: row.t, datagram: Buffer.from(row.d, 'base64') };
  });
  return { header, datagrams };
}

export const readFeed = (file: string) => parseFeed(fs.readFileSync(file, 'utf8'));

export interface PlayOptions {
  /** 1 plays in real time, 10 ten times as fast; Infinity sends back to back. */
  speed?: number;
  /** Called before each datagram is sent (the bench times from here). */
  onSend?: (index: number, datagram: Buffer) => void;
  signal?: AbortSignal;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Plays the datagrams through `send`, keeping their spacing divided by `speed`. */
export async function playFeed(
  recording: FeedRecording,
  send: (datagram: Buffer) => Promise<void>,
  options: PlayOptions = {},
): Promise<number> {
  const speed = options.speed ?? 1;
  const start = performance.now();
  let sent = 0;
  for (const [i, { t, datagram }] of recording.datagrams.entries()) {
    if (options.signal?.aborted) break;
    const wait = t / speed - (performance.now() - start);
    if (wait > 1) await pause(wait);
    options.onSend?.(i, datagram);
    await send(datagram);
    sent += 1;
  }
  return sent;
}

const sendTo = (socket: dgram.Socket, host: string, port: number) => (datagram: Buffer) =>
  new Promise<void>((resolve, reject) =>
    socket.send(datagram, port, host, (e) => (e ? reject(e) : resolve())),
  );

/**
 * AC: plays a recording to the plugin address acServer would send to (server_cfg.ini's
 * UDP_PLUGIN_ADDRESS), from 127.0.0.1 as acServer on the same machine would.
 */
export async function playAcFeed(
  recording: FeedRecording,
  to: { host: string; port: number },
  options: PlayOptions = {},
): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    return await playFeed(recording, sendTo(socket, to.host, to.port), options);
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

/**
 * ACC: stands where the game's broadcasting endpoint listens; when a client registers (its
 * first datagram), plays the recording to it. The player does not answer anything else: the
 * recording holds the game's answers (registration result, entry list, updates).
 */
export async function serveAccFeed(
  recording: FeedRecording,
  listen: { host: string; port: number },
  options: PlayOptions = {},
): Promise<{ port: number; done: Promise<number>; close: () => Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(listen.port, listen.host, () => resolve());
  });
  const done = new Promise<number>((resolve, reject) => {
    socket.once('message', (_first, from) => {
      playFeed(recording, sendTo(socket, from.address, from.port), options).then(resolve, reject);
    });
  });
  return {
    port: socket.address().port,
    done,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

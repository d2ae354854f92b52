// Laps from the sim as a JSON-lines file that something on the rig appends to (for Assetto
// Corsa, an in-game Python app; for a test, the test). The agent reads the new lines every
// second and remembers how far it read (in the data folder), so a restart neither loses nor
// resends a lap. A line without a client_lap_id gets one from its content, so even a re-read
// line is stored once by Paddock.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LapIngest } from './types';

export function watchLapsFile(
  file: string,
  dataDir: string,
  onLap: (lap: LapIngest) => void,
  log: (line: string) => void,
  everyMs = 1000,
): () => void {
  const offsetFile = path.join(dataDir, 'laps-file-offset.json');
  let offset = 0;
  try {
    const saved = JSON.parse(fs.readFileSync(offsetFile, 'utf8')) as {
      file: string;
      offset: number;
    };
    if (saved.file === file) offset = saved.offset;
  } catch {
    // first run
  }
  let partial = '';
  const read = () => {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      return; // not written yet
    }
    if (size < offset) offset = 0; // the file was replaced
    if (size === offset) return;
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(size - offset);
    fs.readSync(fd, buffer, 0, buffer.length, offset);
    fs.closeSync(fd);
    offset = size;
    const lines = (partial + buffer.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const text of lines) {
      if (!text.trim()) continue;
      try {
        const lap = JSON.parse(text) as Partial<LapIngest>;
        const id =
          lap.client_lap_id ??
          crypto.createHash('sha256').update(text.trim()).digest('hex').slice(0, 32);
        onLap({ ...lap, client_lap_id: id } as LapIngest);
      } catch {
        log(`laps file: not a JSON lap: ${text.slice(0, 80)}`);
      }
    }
    // What was read is queued on disk already; a half line is read again next time.
    fs.writeFileSync(
      offsetFile,
      JSON.stringify({ file, offset: offset - Buffer.byteLength(partial) }),
    );
  };
  const timer = setInterval(read, everyMs);
  read();
  return () => clearInterval(timer);
}

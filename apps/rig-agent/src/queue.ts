// The offline queue: laps and states the agent could not deliver yet, as a JSON-lines file in
// the data folder, so they survive a restart of the agent or of the PC. Each item is written
// once when queued and marked done once delivered (a `done` line); the file is rewritten with
// only the items still pending when the agent starts and whenever it empties.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { LapIngest, RigReport } from './types';

export type QueueItem =
  { kind: 'lap'; id: string; lap: LapIngest } | { kind: 'state'; id: string; state: RigReport };
type Line = QueueItem | { kind: 'done'; id: string };

export class OfflineQueue {
  readonly file: string;
  private pending = new Map<string, QueueItem>();

  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true });
    this.file = path.join(dataDir, 'queue.jsonl');
    this.load();
  }

  private load() {
    if (!fs.existsSync(this.file)) return;
    for (const text of fs.readFileSync(this.file, 'utf8').split('\n')) {
      if (!text.trim()) continue;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        continue; // a line cut by a power loss: everything before it is kept
      }
      if (line.kind === 'done') this.pending.delete(line.id);
      else this.pending.set(line.id, line);
    }
    this.compact();
  }

  private compact() {
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, [...this.pending.values()].map((i) => `${JSON.stringify(i)}\n`).join(''));
    fs.renameSync(tmp, this.file);
  }

  add(item: { kind: 'lap'; lap: LapIngest } | { kind: 'state'; state: RigReport }): QueueItem {
    const full = { ...item, id: crypto.randomUUID() } as QueueItem;
    fs.appendFileSync(this.file, `${JSON.stringify(full)}\n`);
    this.pending.set(full.id, full);
    return full;
  }

  done(id: string) {
    if (!this.pending.delete(id)) return;
    if (this.pending.size === 0) this.compact();
    else fs.appendFileSync(this.file, `${JSON.stringify({ kind: 'done', id })}\n`);
  }

  /** Pending items of one kind, oldest first. */
  list<K extends QueueItem['kind']>(kind: K): Extract<QueueItem, { kind: K }>[] {
    return [...this.pending.values()].filter(
      (i): i is Extract<QueueItem, { kind: K }> => i.kind === kind,
    );
  }

  get size() {
    return this.pending.size;
  }
}

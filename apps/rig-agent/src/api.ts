// The agent's HTTP calls to Paddock, all with `Authorization: Rig <key>`.
import type { Car, LapIngest, RaceEvent, RigWhoami, Skin, Track } from './types';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class PaddockApi {
  constructor(
    private readonly server: string,
    private readonly key: string,
    private readonly timeoutMs = 10_000,
  ) {}

  get headers() {
    return { authorization: `Rig ${this.key}` };
  }

  /** ws(s)://…/ws/launcher/events/{id}/ */
  socketUrl(eventId: number) {
    return `${this.server.replace(/^http/, 'ws')}/ws/launcher/events/${eventId}/`;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.server}${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new HttpError(res.status, `${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  whoami = () => this.call<RigWhoami>('GET', '/api/rig_keys/me');
  event = (id: number) => this.call<RaceEvent>('GET', `/api/races/events/${id}`);
  track = (id: number) => this.call<Track>('GET', `/api/tracks/${id}`);
  car = (id: number) => this.call<Car>('GET', `/api/cars/${id}`);
  async skin(carId: number, skinId: number): Promise<Skin | null> {
    for (let page = 1; page <= 20; page++) {
      const res = await this.call<{ results: Skin[]; page_count: number }>(
        'GET',
        `/api/skins?car=${carId}&page=${page}&page_size=100`,
      );
      const found = res.results.find((s) => s.id === skinId);
      if (found) return found;
      if (page >= res.page_count) break;
    }
    return null;
  }
  postLap = (lap: LapIngest) =>
    this.call<{ id: number; created: boolean }>('POST', '/api/laps', lap);
}

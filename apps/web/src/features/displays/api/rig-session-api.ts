import type { RigSession } from '@paddock/contract/rig-session';

/** The rig screen's calls, with the rig's key (no login on a rig, decision 0120). */
async function call<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method,
    headers: {
      Authorization: `Rig ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const first = Object.values(data)
      .flat()
      .find((v) => typeof v === 'string');
    throw new Error(typeof first === 'string' ? first : `The server answered ${res.status}.`);
  }
  return data as T;
}

export const rigSessionQuery = (key: string) => ({
  queryKey: ['rig-session', key],
  queryFn: () => call<RigSession>(key, 'GET', '/rig_session'),
  // The change feed brings changes at once; this is the fallback while it is away.
  refetchInterval: 60_000,
  enabled: key !== '',
});

export const startSession = (key: string, reservation: number) =>
  call<{ detail: string }>(key, 'POST', '/rig_session/start', { reservation });

export const extendSession = (key: string, reservation: number, ends: string) =>
  call<{ detail: string; ends: string; paid: boolean }>(key, 'POST', '/rig_session/extend', {
    reservation,
    ends,
  });

/** The rig's key, from the page's fragment (`/rig#key=rig_…`): never sent in a URL. */
export function rigKeyFromHash(hash: string): string {
  const key = new URLSearchParams(hash.replace(/^#/, '')).get('key') ?? '';
  return /^rig_[\w-]{10,100}$/.test(key) ? key : '';
}

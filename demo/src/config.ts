/**
 * What the page learns from its address: where the session's socket is (`?ws=` or, by default,
 * `/ws` on the page's own origin, which `npm start` forwards to the reference server), the pacing
 * of turns (`?speed=`), the room's time limit (`?roomTimeout=` in ms), how long the server's
 * expiring approval requests wait (`?approvalTtl=` in ms, sent as the turns' `approvalTtlMs`), the
 * theme (`?theme=`) and whether the session is kept across a reload (`?persist=1`, in this tab's
 * sessionStorage).
 */
export interface DemoConfig {
  wsUrl: string;
  /** Pacing of scripted turns: 1 realistic, 4 faster, Infinity instant. */
  speed: number;
  /** How long a room call may go unanswered before its outcome counts as unknown. */
  roomTimeoutMs: number;
  /** How long an expiring approval request waits for a person; undefined: the server's default. */
  approvalTtlMs: number | undefined;
  theme: 'light' | 'dark' | 'system';
  /** Keep the session in sessionStorage, so that a reload resumes it (`?persist=1`). */
  persist: boolean;
}

function numberParam(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  const value = raw === 'Infinity' ? Infinity : Number(raw);
  return Number.isNaN(value) || value <= 0 ? fallback : value;
}

/** A finite positive number, or undefined when the parameter is absent or not one. */
function optionalNumberParam(params: URLSearchParams, name: string): number | undefined {
  const value = numberParam(params, name, Infinity);
  return Number.isFinite(value) ? value : undefined;
}

export function readConfig(location: Pick<Location, 'protocol' | 'host' | 'search'>): DemoConfig {
  const params = new URLSearchParams(location.search);
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const theme = params.get('theme');
  return {
    wsUrl: params.get('ws') || `${scheme}://${location.host}/ws`,
    speed: numberParam(params, 'speed', 1),
    roomTimeoutMs: numberParam(params, 'roomTimeout', 8000),
    approvalTtlMs: optionalNumberParam(params, 'approvalTtl'),
    theme: theme === 'light' || theme === 'dark' ? theme : 'system',
    persist: params.get('persist') === '1' || params.get('persist') === 'true',
  };
}

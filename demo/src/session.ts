import { connectReferenceSession, type ReferenceSession } from 'toolgate/client';
import type { DemoConfig } from './config';
import type { DiagnosticsLog } from './diagnostics';
import { trackTurns } from './session-state';

/**
 * Connect to the reference server (or, with `?persist=1`, resume the session this tab kept before a
 * reload); what the client cannot use goes to the diagnostics.
 */
export function openSession(config: DemoConfig, diagnostics: DiagnosticsLog): ReferenceSession {
  const session = connectReferenceSession(config.wsUrl, {
    roomTimeoutMs: config.roomTimeoutMs,
    // Opt-in: a reload resumes the session kept in this tab (a new tab starts its own).
    ...(config.persist ? { persist: true } : {}),
    onError: (reason) => diagnostics.add('connection', reason),
  });
  // Follow turns from the first event on, before any component mounts.
  trackTurns(session);
  return session;
}

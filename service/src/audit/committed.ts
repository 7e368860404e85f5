/**
 * An in-process signal that audit events were committed. The audit scope calls
 * `auditEventsCommitted` once a request's transaction (holding its event) has committed; stream
 * delivery listens, so that a local event reaches the receivers at once instead of at the next
 * poll. It is only a wake-up: delivery reads what to send from the database, so a lost or extra
 * signal changes nothing but timing, and events committed by another instance are found by the
 * poll.
 */

type Listener = (orgId: string) => void;

const listeners = new Set<Listener>();

/** Tells every listener of this process that an event of `orgId` was committed. */
export function auditEventsCommitted(orgId: string): void {
  for (const listener of listeners) listener(orgId);
}

/**
 * Calls `listener` after each commit of an audit event in this process; returns the unsubscribe.
 * A listener runs on the request's path after its commit: it must only schedule work, never throw.
 */
export function onAuditEventsCommitted(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

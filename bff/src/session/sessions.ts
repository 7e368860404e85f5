import { randomBytes } from "node:crypto";
import type { BffSession } from "@keyhold/contract";
import type { Clock, Session, SessionStore } from "./store.ts";

export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
  /**
   * How stale the stored last use may get before a request writes it back: within this
   * window a request only reads its session. Defaults to a sixtieth of the idle timeout,
   * at most 15 s (15 s for the default 15 minutes).
   */
  touchEveryMs?: number;
}

const MAX_TOUCH_EVERY_MS = 15_000;

/** The write-back interval for an idle timeout (see `SessionTimeouts.touchEveryMs`). */
export function defaultTouchEveryMs(idleMs: number): number {
  return Math.min(MAX_TOUCH_EVERY_MS, Math.floor(idleMs / 60));
}

export type NewSession = Pick<Session, "accessToken" | "identity" | "orgId" | "tokenRenewAt" | "person" | "oidc">;

/** Told when sessions start and end (metrics). */
export interface SessionEvents {
  created(): void;
  ended(reason: "signed_out" | "expired"): void;
}

/**
 * Session rules: fresh random ids, sliding idle timeout, hard absolute timeout.
 *
 * The idle clock runs from the last use written to the store, and a use is written back
 * only once the stored one is `touchEveryMs` old, so most requests cost one store read and
 * no write. A session therefore ends between `idleMs - touchEveryMs` and `idleMs` after its
 * last use: possibly a little early, never late.
 */
export class Sessions {
  readonly #touchEveryMs: number;

  constructor(
    private readonly store: SessionStore,
    private readonly timeouts: SessionTimeouts,
    private readonly now: Clock,
    private readonly events?: SessionEvents,
  ) {
    this.#touchEveryMs = timeouts.touchEveryMs ?? defaultTouchEveryMs(timeouts.idleMs);
  }

  async create(fields: NewSession): Promise<Session> {
    const now = this.now();
    // 256 bits from the CSPRNG; the id is the only thing the browser holds.
    const session: Session = { ...fields, id: randomBytes(32).toString("base64url"), createdAt: now, lastUsedAt: now };
    await this.store.set(session, this.#expiresAt(session));
    this.events?.created();
    return session;
  }

  /** The live session for an id, its idle clock restarted when due; undefined once expired or ended. */
  async resume(id: string): Promise<Session | undefined> {
    const session = await this.store.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now >= this.#expiresAt(session)) {
      if (await this.store.delete(id)) this.events?.ended("expired");
      return undefined;
    }
    if (now - session.lastUsedAt < this.#touchEveryMs) return session;
    const touched = { ...session, lastUsedAt: now };
    // A sign-out may have ended the session since it was read: then it stays ended.
    return (await this.store.refresh(touched, this.#expiresAt(touched))) ? touched : undefined;
  }

  /**
   * Puts a renewed bearer token in the session (and, for single sign-on, the provider's rotated
   * refresh token), unless the session ended meanwhile.
   */
  async replaceToken(
    session: Session,
    accessToken: string,
    tokenRenewAt: number | undefined,
    oidc: Session["oidc"] = session.oidc,
  ): Promise<Session | undefined> {
    const renewed = { ...session, accessToken, tokenRenewAt, oidc };
    return (await this.store.refresh(renewed, this.#expiresAt(renewed))) ? renewed : undefined;
  }

  async end(id: string): Promise<void> {
    if (await this.store.delete(id)) this.events?.ended("signed_out");
  }

  /** The session as the browser sees it; the server's features are the caller's to add. */
  view(session: Session): Omit<BffSession, "server"> {
    return {
      identity: session.identity,
      organization: { id: session.orgId },
      expiresAt: new Date(session.createdAt + this.timeouts.absoluteMs).toISOString(),
      idleExpiresAt: new Date(Math.min(this.#idleEnd(session), this.#absoluteEnd(session))).toISOString(),
      ...(session.person && { person: personView(session.person) }),
    };
  }

  /** The session, without the browser's cookie touching it (read only: no idle clock restart). */
  async peek(id: string): Promise<Session | undefined> {
    const session = await this.store.get(id);
    return session && this.now() < this.#expiresAt(session) ? session : undefined;
  }

  #idleEnd(session: Session): number {
    return session.lastUsedAt + this.timeouts.idleMs;
  }

  #absoluteEnd(session: Session): number {
    return session.createdAt + this.timeouts.absoluteMs;
  }

  #expiresAt(session: Session): number {
    return Math.min(this.#idleEnd(session), this.#absoluteEnd(session));
  }
}

/** Only the named fields: whatever else a stored person might carry never reaches the browser. */
function personView(person: NonNullable<Session["person"]>): NonNullable<BffSession["person"]> {
  return {
    subject: person.subject,
    provider: person.provider,
    ...(person.email !== undefined && { email: person.email }),
    ...(person.name !== undefined && { name: person.name }),
  };
}

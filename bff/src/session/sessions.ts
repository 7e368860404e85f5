import { randomBytes } from "node:crypto";
import type { BffSession } from "@keyhold/contract";
import type { Clock, Session, SessionStore } from "./store.ts";

export interface SessionTimeouts {
  idleMs: number;
  absoluteMs: number;
}

export type NewSession = Pick<Session, "accessToken" | "identity" | "orgId">;

/** Session rules: fresh random ids, sliding idle timeout, hard absolute timeout. */
export class Sessions {
  constructor(
    private readonly store: SessionStore,
    private readonly timeouts: SessionTimeouts,
    private readonly now: Clock,
  ) {}

  async create(fields: NewSession): Promise<Session> {
    const now = this.now();
    // 256 bits from the CSPRNG; the id is the only thing the browser holds.
    const session: Session = { ...fields, id: randomBytes(32).toString("base64url"), createdAt: now, lastUsedAt: now };
    await this.store.set(session, this.#expiresAt(session));
    return session;
  }

  /** The live session for an id, its idle clock restarted; undefined once expired or ended. */
  async resume(id: string): Promise<Session | undefined> {
    const session = await this.store.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now >= this.#expiresAt(session)) {
      await this.store.delete(id);
      return undefined;
    }
    const touched = { ...session, lastUsedAt: now };
    // A sign-out may have ended the session since it was read: then it stays ended.
    return (await this.store.refresh(touched, this.#expiresAt(touched))) ? touched : undefined;
  }

  async end(id: string): Promise<void> {
    await this.store.delete(id);
  }

  view(session: Session): BffSession {
    return {
      identity: session.identity,
      organization: { id: session.orgId },
      expiresAt: new Date(session.createdAt + this.timeouts.absoluteMs).toISOString(),
      idleExpiresAt: new Date(Math.min(this.#idleEnd(session), this.#absoluteEnd(session))).toISOString(),
    };
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

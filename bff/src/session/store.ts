/** What the BFF remembers about a signed-in browser. Never leaves the server. */
export interface Session {
  id: string;
  /** The upstream bearer token. */
  accessToken: string;
  identity: { id: string; name: string; role: string };
  orgId: string;
  createdAt: number;
  lastUsedAt: number;
  /**
   * When the BFF renews the bearer token (two thirds into its lifetime); set for sessions signed
   * in with a client id and secret, whose token the BFF obtained and keeps alive.
   */
  tokenRenewAt?: number | undefined;
  /** Who signed in, for sessions that came from single sign-on. */
  person?: { subject: string; email?: string | undefined; name?: string | undefined; provider: string } | undefined;
  /**
   * What single sign-on needs to renew the bearer token: the provider's refresh token (when it
   * issues one) and the identity the person signs in as, with the rule that chose it.
   */
  oidc?: { refreshToken?: string | undefined; identityId: string; rule: string } | undefined;
}

/**
 * Where sessions live. In memory by default; a shared store (Redis) keeps
 * sessions valid across BFF instances. `expiresAt` lets a store drop a
 * session it will never be asked for again.
 */
export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  set(session: Session, expiresAt: number): Promise<void>;
  /**
   * Writes a session back only if it still exists, so a sign-out that lands between a
   * read and this write stays final. Returns false when the session is gone.
   */
  refresh(session: Session, expiresAt: number): Promise<boolean>;
  /** Removes a session; resolves true when there was one to remove. */
  delete(id: string): Promise<boolean>;
  /** Releases connections when the app closes. */
  close?(): Promise<void>;
}

export type Clock = () => number;

const SWEEP_EVERY = 100;

export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, { session: Session; expiresAt: number }>();
  #writes = 0;

  constructor(private readonly now: Clock = Date.now) {}

  get size(): number {
    return this.#sessions.size;
  }

  async get(id: string): Promise<Session | undefined> {
    const entry = this.#sessions.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return entry.session;
  }

  /** Keeps a frozen copy, so what `get` hands out can be shared and never alters the store. */
  async set(session: Session, expiresAt: number): Promise<void> {
    const copy = Object.freeze({ ...session, identity: Object.freeze({ ...session.identity }) });
    this.#sessions.set(session.id, { session: copy, expiresAt });
    if (++this.#writes % SWEEP_EVERY === 0) this.#sweep();
  }

  async refresh(session: Session, expiresAt: number): Promise<boolean> {
    if (!this.#sessions.has(session.id)) return false;
    await this.set(session, expiresAt);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    return this.#sessions.delete(id);
  }

  /** Abandoned sessions are never read again, so writes clear them out now and then. */
  #sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.#sessions) if (entry.expiresAt <= now) this.#sessions.delete(id);
  }
}

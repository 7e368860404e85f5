import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { BffSessionSchema, errorNames } from "@keyhold/contract";
import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";
import { z } from "zod";
import { HttpError } from "../errors.ts";
import type { Clock, Session, SessionStore } from "./store.ts";

/** What a stored session must look like to be trusted on the way back. */
const StoredSessionSchema = z.object({
  id: z.string(),
  accessToken: z.string(),
  identity: z.object({ id: z.string(), name: z.string(), role: z.string() }),
  orgId: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number(),
  tokenRenewAt: z.number().optional(),
  person: BffSessionSchema.shape.person,
  oidc: z.object({ refreshToken: z.string().optional(), identityId: z.string(), rule: z.string() }).optional(),
}) satisfies z.ZodType<Session>;

/**
 * One Redis command of a store: a failure is logged once and answered 503 with `unavailable`, the
 * sentence the person sees.
 */
export async function runRedis<T>(
  log: FastifyBaseLogger,
  store: string,
  unavailable: string,
  command: () => Promise<T>,
): Promise<T> {
  try {
    return await command();
  } catch (error) {
    log.error({ reason: error instanceof Error ? error.message : String(error) }, `${store} command failed`);
    throw new HttpError(503, errorNames.serviceUnavailable, unavailable);
  }
}

const KEY_PREFIX = "keyhold:session:";
/** Sessions whose derived keys and last value are kept (see `RecentSessions`). */
const RECENT_SESSIONS = 10_000;

/**
 * Sessions in Redis, shared by every BFF instance behind a load balancer.
 *
 * Only the browser holds a session id. Redis holds, under a SHA-256 of the id, the
 * session encrypted (AES-256-GCM) with a key derived from the id: a copy of Redis
 * alone (a dump, a replica, a backup) yields neither usable cookies nor bearer tokens.
 * Each key expires with its session, so Redis drops abandoned ones by itself.
 */
export class RedisSessionStore implements SessionStore {
  readonly #recent = new RecentSessions(RECENT_SESSIONS);
  readonly #reads: BatchedReads;

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly now: Clock = Date.now,
  ) {
    this.#reads = new BatchedReads(redis);
  }

  /** The connection, shared with the rate limiter and the readiness check. */
  get client(): Redis {
    return this.redis;
  }

  static connect(url: string, log: FastifyBaseLogger, now: Clock = Date.now): RedisSessionStore {
    // Commands wait for the connection, but give up after one reconnect attempt so a request fails fast when Redis is away.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000 });
    // One line per outage, not one per reconnect attempt.
    let down = false;
    redis.on("error", (error: Error) => {
      if (!down) log.error({ reason: error.message }, "the session store (Redis) is unreachable");
      down = true;
    });
    redis.on("ready", () => {
      if (down) log.info("the session store (Redis) is reachable again");
      down = false;
    });
    return new RedisSessionStore(redis, log, now);
  }

  async get(id: string): Promise<Session | undefined> {
    const known = this.#recent.get(id);
    const keys = known?.keys ?? deriveKeys(id);
    const raw = await this.#run(() => this.#reads.read(keys.redisKey));
    if (raw === null) return undefined;
    // The very value this instance last read or wrote for this session: nothing to open again.
    if (known?.sealed === raw) return known.session;
    const parsed = StoredSessionSchema.safeParse(safeJson(open(keys, raw)));
    if (!parsed.success || parsed.data.id !== id) return undefined;
    return this.#recent.remember(id, keys, raw, parsed.data);
  }

  async set(session: Session, expiresAt: number): Promise<void> {
    const ttlMs = Math.floor(expiresAt - this.now());
    if (ttlMs <= 0) {
      await this.delete(session.id);
      return;
    }
    const keys = this.#recent.get(session.id)?.keys ?? deriveKeys(session.id);
    const sealed = seal(keys, JSON.stringify(session));
    await this.#run(() => this.redis.set(keys.redisKey, sealed, "PX", ttlMs));
    this.#recent.remember(session.id, keys, sealed, session);
  }

  async refresh(session: Session, expiresAt: number): Promise<boolean> {
    const ttlMs = Math.floor(expiresAt - this.now());
    if (ttlMs <= 0) {
      await this.delete(session.id);
      return false;
    }
    const keys = this.#recent.get(session.id)?.keys ?? deriveKeys(session.id);
    const sealed = seal(keys, JSON.stringify(session));
    // XX: only overwrite a key that still exists; a deleted session stays deleted.
    const written = await this.#run(() => this.redis.set(keys.redisKey, sealed, "PX", ttlMs, "XX"));
    if (written !== "OK") return false;
    this.#recent.remember(session.id, keys, sealed, session);
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const { redisKey } = this.#recent.get(id)?.keys ?? deriveKeys(id);
    this.#recent.forget(id);
    return (await this.#run(() => this.redis.del(redisKey))) > 0;
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  #run<T>(command: () => Promise<T>): Promise<T> {
    return runRedis(this.log, "session store", "Sessions are unavailable right now. Try again shortly.", command);
  }
}

/** What a session id derives: its Redis key, and the key and associated data its value is sealed with. */
export interface SessionKeys {
  redisKey: string;
  valueKey: Buffer;
  aad: Buffer;
}

function deriveKeys(id: string): SessionKeys {
  return sealingKeys(id, KEY_PREFIX, "keyhold/bff/session-value/aes-256-gcm/v1");
}

/** The Redis key (`prefix` + SHA-256 of the id) and value key (HKDF of the id) of a secret id only the browser holds. */
export function sealingKeys(id: string, prefix: string, info: string): SessionKeys {
  const redisKey = prefix + createHash("sha256").update(id).digest("hex");
  const valueKey = Buffer.from(hkdfSync("sha256", id, "keyhold", info, 32));
  return { redisKey, valueKey, aad: Buffer.from(redisKey) };
}

interface PendingRead {
  key: string;
  resolve(value: string | null): void;
  reject(error: unknown): void;
}

/**
 * Session reads, sent to Redis together: the reads asked for while the event loop handles
 * the requests that arrived together go out as one GET or MGET when it has done so
 * (setImmediate), so a busy BFF makes one round trip for many requests instead of one each.
 */
class BatchedReads {
  #pending: PendingRead[] = [];

  constructor(private readonly redis: Redis) {}

  read(key: string): Promise<string | null> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(this.#flush);
      this.#pending.push({ key, resolve, reject });
    });
  }

  readonly #flush = (): void => {
    const batch = this.#pending;
    this.#pending = [];
    const [only] = batch;
    if (batch.length === 1 && only) {
      this.redis.get(only.key).then(only.resolve, only.reject);
      return;
    }
    this.redis.mget(batch.map((read) => read.key)).then(
      (values) => {
        for (let i = 0; i < batch.length; i++) batch[i]?.resolve(values[i] ?? null);
      },
      (error: unknown) => {
        for (const read of batch) read.reject(error);
      },
    );
  };
}

interface RecentSession {
  keys: SessionKeys;
  /** The sealed value last read from or written to Redis, and the session it holds. */
  sealed: string;
  session: Session;
}

/**
 * What this instance knows of the sessions it used last: their derived keys, so a request
 * does not pay a SHA-256 and an HKDF, and the sealed value last read or written, so a
 * request that reads back the same bytes (every write seals with a fresh IV, so unchanged
 * bytes mean an unchanged session) does not decrypt and validate it again. Redis is still
 * asked on every request, so a sign-out or expiry anywhere takes effect at once. Only
 * sessions this instance wrote or opened intact take a place (an unknown cookie never
 * does), the oldest makes room, and a sign-out here forgets its session. Like the memory
 * store, the process holds the bearer tokens of the sessions it serves.
 */
class RecentSessions {
  readonly #entries = new Map<string, RecentSession>();

  constructor(private readonly max: number) {}

  get(id: string): RecentSession | undefined {
    return this.#entries.get(id);
  }

  remember(id: string, keys: SessionKeys, sealed: string, session: Session): Session {
    const frozen = Object.freeze({ ...session, identity: Object.freeze({ ...session.identity }) });
    if (!this.#entries.delete(id) && this.#entries.size >= this.max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, { keys, sealed, session: frozen });
    return frozen;
  }

  forget(id: string): void {
    this.#entries.delete(id);
  }
}

/** iv (12 bytes) ‖ ciphertext ‖ tag (16 bytes), base64; the Redis key is bound in as associated data. */
export function seal(keys: SessionKeys, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.valueKey, iv).setAAD(keys.aad);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

/** The plaintext, or undefined when the value was not sealed for this id (or was altered). */
export function open(keys: SessionKeys, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, "base64");
  if (bytes.length < 12 + 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keys.valueKey, bytes.subarray(0, 12)).setAAD(keys.aad);
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

export function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

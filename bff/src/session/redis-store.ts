import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { errorNames } from "@keyhold/contract";
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
}) satisfies z.ZodType<Session>;

const KEY_PREFIX = "keyhold:session:";

/**
 * Sessions in Redis, shared by every BFF instance behind a load balancer.
 *
 * Only the browser holds a session id. Redis holds, under a SHA-256 of the id, the
 * session encrypted (AES-256-GCM) with a key derived from the id: a copy of Redis
 * alone (a dump, a replica, a backup) yields neither usable cookies nor bearer tokens.
 * Each key expires with its session, so Redis drops abandoned ones by itself.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
    private readonly now: Clock = Date.now,
  ) {}

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
    const raw = await this.#run(() => this.redis.get(key(id)));
    if (raw === null) return undefined;
    const parsed = StoredSessionSchema.safeParse(safeJson(open(id, raw)));
    return parsed.success && parsed.data.id === id ? parsed.data : undefined;
  }

  async set(session: Session, expiresAt: number): Promise<void> {
    const ttlMs = Math.floor(expiresAt - this.now());
    if (ttlMs <= 0) return this.delete(session.id);
    const sealed = seal(session.id, JSON.stringify(session));
    await this.#run(() => this.redis.set(key(session.id), sealed, "PX", ttlMs));
  }

  async refresh(session: Session, expiresAt: number): Promise<boolean> {
    const ttlMs = Math.floor(expiresAt - this.now());
    if (ttlMs <= 0) {
      await this.delete(session.id);
      return false;
    }
    const sealed = seal(session.id, JSON.stringify(session));
    // XX: only overwrite a key that still exists; a deleted session stays deleted.
    const written = await this.#run(() => this.redis.set(key(session.id), sealed, "PX", ttlMs, "XX"));
    return written === "OK";
  }

  async delete(id: string): Promise<void> {
    await this.#run(() => this.redis.del(key(id)));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      this.log.error(
        { reason: error instanceof Error ? error.message : String(error) },
        "session store command failed",
      );
      throw new HttpError(503, errorNames.serviceUnavailable, "Sessions are unavailable right now. Try again shortly.");
    }
  }
}

function key(id: string): string {
  return KEY_PREFIX + createHash("sha256").update(id).digest("hex");
}

function valueKey(id: string): Buffer {
  return Buffer.from(hkdfSync("sha256", id, "keyhold", "keyhold/bff/session-value/aes-256-gcm/v1", 32));
}

/** iv (12 bytes) ‖ ciphertext ‖ tag (16 bytes), base64; the Redis key is bound in as associated data. */
function seal(id: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", valueKey(id), iv).setAAD(Buffer.from(key(id)));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

/** The plaintext, or undefined when the value was not sealed for this id (or was altered). */
function open(id: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, "base64");
  if (bytes.length < 12 + 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", valueKey(id), bytes.subarray(0, 12)).setAAD(Buffer.from(key(id)));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import { open, runRedis, safeJson, seal, sealingKeys } from "../session/redis-store.ts";
import type { Clock } from "../session/store.ts";

/**
 * Short-lived records of single sign-on, keyed by an id only the browser (or the BFF) holds:
 * pending sign-ins, one-time failure messages and test results. `take` reads and deletes in one
 * step, so a record is used once however many requests race for it (and on every instance,
 * with Redis).
 */
export interface FlowStore {
  put(id: string, value: unknown, ttlMs: number): Promise<void>;
  get(id: string): Promise<unknown>;
  take(id: string): Promise<unknown>;
}

export class MemoryFlowStore implements FlowStore {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(private readonly now: Clock = Date.now) {}

  async put(id: string, value: unknown, ttlMs: number): Promise<void> {
    const now = this.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    // Kept as JSON so that nothing handed out can alter what is stored.
    this.#entries.set(id, { value: JSON.stringify(value), expiresAt: now + ttlMs });
  }

  async get(id: string): Promise<unknown> {
    const entry = this.#entries.get(id);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    return JSON.parse(entry.value);
  }

  async take(id: string): Promise<unknown> {
    const value = await this.get(id);
    this.#entries.delete(id);
    return value;
  }
}

const KEY_PREFIX = "keyhold:sso:";
const INFO = "keyhold/bff/sso-flow/aes-256-gcm/v1";

/** In Redis, sealed like sessions: under a hash of the id, encrypted with a key derived from it. */
export class RedisFlowStore implements FlowStore {
  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
  ) {}

  async put(id: string, value: unknown, ttlMs: number): Promise<void> {
    const keys = sealingKeys(id, KEY_PREFIX, INFO);
    await this.#run(() => this.redis.set(keys.redisKey, seal(keys, JSON.stringify(value)), "PX", Math.max(1, ttlMs)));
  }

  async get(id: string): Promise<unknown> {
    const keys = sealingKeys(id, KEY_PREFIX, INFO);
    const raw = await this.#run(() => this.redis.get(keys.redisKey));
    return raw === null ? undefined : safeJson(open(keys, raw));
  }

  async take(id: string): Promise<unknown> {
    const keys = sealingKeys(id, KEY_PREFIX, INFO);
    const raw = await this.#run(() => this.redis.getdel(keys.redisKey));
    return raw === null ? undefined : safeJson(open(keys, raw));
  }

  #run<T>(command: () => Promise<T>): Promise<T> {
    return runRedis(this.log, "single sign-on store", "Sign-in is unavailable right now. Try again shortly.", command);
  }
}

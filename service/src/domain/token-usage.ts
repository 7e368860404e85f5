import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { addUses, type PendingUse } from "../data/access-tokens.ts";
import type { Database } from "../db/schema.ts";

export interface TokenUsageOptions {
  /** How long uses may wait in memory before they are written (also the most a crash can lose). */
  flushIntervalMs: number;
  /** Told after each write of a non-empty batch (metrics): whether it was written, and how many tokens it held. */
  onFlush?: (outcome: "written" | "failed", tokens: number) => void;
}

/**
 * The use count and last-used time of tokens WITHOUT a uses limit, kept in memory and written
 * in one transaction every few seconds and on shutdown, so that a read writes nothing. Tokens
 * with a limit never come here: their uses are counted atomically in the database, exactly.
 * A crash loses at most one interval of these figures, never a limit.
 */
export function createTokenUsage(deps: { db: Kysely<Database>; logger: Logger }, options: TokenUsageOptions) {
  let pending = new Map<string, PendingUse>();
  let flushing: Promise<void> = Promise.resolve();

  /** Writes what is pending; batches are written one after another, never side by side. */
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await addUses(deps.db, batch);
      } catch (error) {
        options.onFlush?.("failed", batch.size);
        deps.logger.error(
          { err: error, tokens: batch.size },
          "Could not record token uses; keeping them for the next flush",
        );
        for (const [id, use] of batch) record(id, use.lastUsedAt, use.uses);
        return;
      }
      options.onFlush?.("written", batch.size);
    });
    return flushing;
  }

  function record(tokenId: string, usedAt: string, uses = 1): void {
    const entry = pending.get(tokenId);
    if (!entry) pending.set(tokenId, { uses, lastUsedAt: usedAt });
    else {
      entry.uses += uses;
      if (usedAt > entry.lastUsedAt) entry.lastUsedAt = usedAt;
    }
  }

  const timer = setInterval(() => void flush(), options.flushIntervalMs);
  // The timer alone must not keep a process alive; close() writes what is left.
  timer.unref();

  return {
    record: (tokenId: string, usedAt: string) => record(tokenId, usedAt),
    flush,
    /** Stops the timer and writes what is pending; call before closing the database. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
    /** How many tokens have uses waiting (for tests and metrics). */
    get pendingTokens(): number {
      return pending.size;
    },
  };
}

export type TokenUsage = ReturnType<typeof createTokenUsage>;

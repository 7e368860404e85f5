import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/schema.ts";
import { nowIso } from "../lib/time.ts";
import type { Sealer } from "../lib/sealing.ts";

/**
 * Secrets at rest: AES-256-GCM under a per-project 256-bit data key. The data key is stored
 * sealed by the root key (lib/sealing.ts, bound to its project); a stored field is
 * `version byte | 12-byte IV | 16-byte tag | ciphertext`, with associated data naming the table,
 * the row id and the column, so a ciphertext moved to another row or column does not open.
 */

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = 1 + IV_BYTES + TAG_BYTES;
const KEY_BYTES = 32;

/** A stored ciphertext that does not open: tampered with, moved to another row, or under another key. */
export class CiphertextError extends Error {
  constructor(where: string, options?: { cause: unknown }) {
    super(`A stored secret field (${where}) could not be decrypted`, options);
    this.name = "CiphertextError";
  }
}

/** The associated data of a field: which row of which table, which column. */
export function fieldBinding(table: string, rowId: string, column: string): string {
  return `${table}:${rowId}:${column}`;
}

export function encryptField(key: Buffer, plaintext: string, binding: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(binding, "utf8"));
  const body = cipher.update(plaintext, "utf8");
  const last = cipher.final();
  return Buffer.concat([Buffer.of(FORMAT), iv, cipher.getAuthTag(), body, last]);
}

/**
 * True when a stored field holds the empty string: its ciphertext, as long as the plaintext, is
 * empty. Reads of secrets (lists of thousands) take comments this way, most being empty, instead
 * of opening each one; the cost is that such a field's tag, which would only confirm an empty
 * text bound to its row, is not checked there, so a comment blanked in the database would read
 * as empty rather than fail. Values are always opened.
 */
export function isEmptyField(stored: Uint8Array): boolean {
  return stored.length === HEADER && stored[0] === FORMAT;
}

export function decryptField(key: Buffer, stored: Uint8Array, binding: string): string {
  const data = Buffer.isBuffer(stored) ? stored : Buffer.from(stored);
  if (data.length < HEADER || data[0] !== FORMAT) throw new CiphertextError(binding);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(binding, "utf8"));
    decipher.setAuthTag(data.subarray(1 + IV_BYTES, HEADER));
    const body = decipher.update(data.subarray(HEADER));
    decipher.final();
    return body.toString("utf8");
  } catch (error) {
    throw new CiphertextError(binding, { cause: error });
  }
}

export interface ProjectKeysDeps {
  db: Kysely<Database>;
  /** Seals data keys with a key derived from the root key. */
  sealer: Sealer;
  /** How many unwrapped keys stay in memory (least recently used go first). */
  cacheSize?: number;
}

/**
 * Each project's data key, made on first use. Unwrapped keys are kept in a bounded cache so a
 * request unwraps its project's key at most once, and usually not at all.
 */
export function createProjectKeys({ db, sealer, cacheSize = 1000 }: ProjectKeysDeps) {
  const cache = new LRUCache<string, Buffer>({ max: cacheSize });
  const binding = (projectId: string) => `project_data_keys:${projectId}`;

  async function load(projectId: string): Promise<Buffer | undefined> {
    const row = await db
      .selectFrom("project_data_keys")
      .select("wrapped_key")
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    if (!row) return undefined;
    const key = Buffer.from(sealer.open(row.wrapped_key, binding(projectId)), "base64");
    if (key.length !== KEY_BYTES) throw new CiphertextError(binding(projectId));
    return key;
  }

  return {
    async keyFor(projectId: string): Promise<Buffer> {
      const cached = cache.get(projectId);
      if (cached) return cached;
      let key = await load(projectId);
      if (!key) {
        const fresh = randomBytes(KEY_BYTES);
        // Two first writers race: one row is kept, and both then use the stored one.
        await db
          .insertInto("project_data_keys")
          .values({
            project_id: projectId,
            wrapped_key: sealer.seal(fresh.toString("base64"), binding(projectId)),
            created_at: nowIso(),
          })
          .onConflict((oc) => oc.column("project_id").doNothing())
          .execute();
        key = await load(projectId);
        if (!key) throw new Error(`The data key of project ${projectId} could not be stored`);
      }
      cache.set(projectId, key);
      return key;
    },

    /** Forgets unwrapped keys (tests; a key rotation would call it). */
    clear(): void {
      cache.clear();
    },
  };
}

export type ProjectKeys = ReturnType<typeof createProjectKeys>;

/**
 * The key of a project's value digests, derived from its data key (HKDF-SHA256) so that it is
 * never the data key itself and differs per project: digests compare within a project only.
 */
export function valueDigestKey(dataKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", dataKey, Buffer.alloc(0), "keyhold secret value digest v1", KEY_BYTES));
}

/** A value's keyed digest (HMAC-SHA256, base64url): equal values, equal digests; not reversible without the key. */
export function valueDigest(digestKey: Buffer, value: string): string {
  return createHmac("sha256", digestKey).update(value, "utf8").digest("base64url");
}

import { type Kysely, sql } from "kysely";
import type { AuthMethodRow, Database } from "../db/schema.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The universal-auth configuration with this client id. The id lives in the configuration's
 * settings (JSON text, written first by attach); it is a generated UUID, so anything else is no
 * client id, and a UUID holds none of LIKE's wildcards. The match is confirmed on the parsed JSON.
 */
export async function findUniversalAuthByClientId(
  db: Kysely<Database>,
  clientId: string,
): Promise<AuthMethodRow | undefined> {
  if (!UUID.test(clientId)) return undefined;
  const rows = await db
    .selectFrom("identity_auth_methods")
    .selectAll()
    .where("method", "=", "universal-auth")
    .where("settings", "like", `%"clientId":"${clientId}"%`)
    .execute();
  return rows.find((row) => (JSON.parse(row.settings) as { clientId?: unknown }).clientId === clientId);
}

/** The failed-login record of a client id, if it has one (whether or not it still counts). */
export async function findLockout(
  db: Kysely<Database>,
  authMethodId: string,
  clientId: string,
): Promise<{ lockedUntil: number | null } | undefined> {
  const row = await db
    .selectFrom("identity_ua_lockouts")
    .select("locked_until")
    .where("auth_method_id", "=", authMethodId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  return row && { lockedUntil: row.locked_until === null ? null : Number(row.locked_until) };
}

export interface LockoutPolicy {
  threshold: number;
  durationMs: number;
  counterResetMs: number;
}

/**
 * Counts one failed login, in one atomic statement whichever instance makes it: a record whose
 * window has passed starts again at 1; otherwise the count goes up and the window restarts.
 * Reaching the threshold locks the client id until `now + duration`. Returns whether it is
 * locked now.
 */
export async function recordFailedLogin(
  db: Kysely<Database>,
  key: { authMethodId: string; clientId: string; identityId: string },
  policy: LockoutPolicy,
  now: number,
): Promise<boolean> {
  // Parameters are cast: PostgreSQL cannot infer a type for a bare parameter inside CASE.
  const ms = (value: number | null) => sql<number>`CAST(${value} AS double precision)`;
  const lockedUntil = ms(now + policy.durationMs);
  const windowEnd = ms(now + policy.counterResetMs);
  const firstLocks = 1 >= policy.threshold;
  const attempts = sql<number>`CASE WHEN identity_ua_lockouts.expires_at <= ${ms(now)} THEN 1
    ELSE identity_ua_lockouts.failed_attempts + 1 END`;
  const locks = sql<boolean>`${attempts} >= CAST(${policy.threshold} AS integer)`;
  const result = await sql<{ locked_until: number | null }>`
    INSERT INTO identity_ua_lockouts
      (auth_method_id, client_id, identity_id, failed_attempts, locked_until, expires_at)
    VALUES (${key.authMethodId}, ${key.clientId}, ${key.identityId}, 1,
      ${firstLocks ? lockedUntil : ms(null)}, ${firstLocks ? lockedUntil : windowEnd})
    ON CONFLICT (auth_method_id, client_id) DO UPDATE SET
      failed_attempts = ${attempts},
      locked_until = CASE WHEN ${locks} THEN ${lockedUntil}
        WHEN identity_ua_lockouts.expires_at <= ${ms(now)} THEN NULL
        ELSE identity_ua_lockouts.locked_until END,
      expires_at = CASE WHEN ${locks} THEN ${lockedUntil} ELSE ${windowEnd} END
    RETURNING locked_until`.execute(db);
  const locked = result.rows[0]?.locked_until;
  return locked !== null && locked !== undefined && Number(locked) > now;
}

/** Forgets the failed logins of a client id (after a successful login). */
export async function clearLockout(db: Kysely<Database>, authMethodId: string, clientId: string): Promise<void> {
  await db
    .deleteFrom("identity_ua_lockouts")
    .where("auth_method_id", "=", authMethodId)
    .where("client_id", "=", clientId)
    .execute();
}

/** Forgets every failed-login record of an identity's universal auth; returns how many there were. */
export async function clearIdentityLockouts(db: Kysely<Database>, identityId: string): Promise<number> {
  const result = await db.deleteFrom("identity_ua_lockouts").where("identity_id", "=", identityId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The identity's auth methods that are locked out at `now` (only universal auth locks out). */
export async function activeLockoutMethods(db: Kysely<Database>, identityId: string, now: number): Promise<string[]> {
  const row = await db
    .selectFrom("identity_ua_lockouts")
    .select("identity_id")
    .where("identity_id", "=", identityId)
    .where("locked_until", ">", now)
    .executeTakeFirst();
  return row ? ["universal-auth"] : [];
}

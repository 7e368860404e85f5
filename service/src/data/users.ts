import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../db/schema.ts";

/** Users are minimal here: a record per invited e-mail address, enough to be a project member. */

export async function findUsersByUsernames(db: Kysely<Database>, usernames: readonly string[]): Promise<UserRow[]> {
  if (usernames.length === 0) return [];
  return db.selectFrom("users").selectAll().where("username", "in", usernames).execute();
}

/** Users whose e-mail address, or whose username, is one of the addresses. */
async function findUsersByAddress(db: Kysely<Database>, emails: readonly string[]): Promise<UserRow[]> {
  return db
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb.or([eb("email", "in", emails), eb("username", "in", emails)]))
    .execute();
}

/** Whether a user answers to the address (by e-mail, or by a username that is the address). */
function userAnswersTo(user: UserRow, email: string): boolean {
  return user.email === email || user.username === email;
}

/**
 * The users of the e-mail addresses, creating a minimal record (username = e-mail) for each new
 * one. A concurrent invitation of the same address inserts nothing and the row is read back.
 */
export async function ensureUsersByEmail(
  db: Kysely<Database>,
  emails: readonly string[],
  now: string,
): Promise<UserRow[]> {
  if (emails.length === 0) return [];
  const known = await findUsersByAddress(db, emails);
  const missing = emails.filter((email) => !known.some((user) => userAnswersTo(user, email)));
  if (missing.length > 0) {
    await db
      .insertInto("users")
      .values(
        missing.map((email) => ({
          id: randomUUID(),
          email,
          username: email,
          first_name: null,
          last_name: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return missing.length > 0 ? findUsersByAddress(db, emails) : known;
}

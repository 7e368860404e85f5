import { decodeJwt } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { AppError } from "../domain/errors.ts";
import type { AuditEventDraft } from "./declarations.ts";

/** An event of the organisation (no project). */
export const orgEvent = (metadata: Record<string, unknown>): AuditEventDraft => ({ projectId: null, metadata });

/** An event of one project. */
export const projectEvent = (projectId: string | null, metadata: Record<string, unknown>): AuditEventDraft => ({
  projectId,
  metadata,
});

/**
 * The ids an access token this very request issued carries (`identityAccessTokenId`, and the
 * client secret's id for universal auth). Its signature was made a moment ago by this service, so
 * it is only decoded; nothing of the token itself goes into an event.
 */
export function issuedTokenIds(accessToken: string): {
  identityId: string;
  identityAccessTokenId: string;
  clientSecretId?: string;
} {
  const claims = decodeJwt(accessToken);
  return {
    identityId: String(claims.identityId),
    identityAccessTokenId: String(claims.identityAccessTokenId),
    ...(typeof claims.clientSecretId === "string" && { clientSecretId: claims.clientSecretId }),
  };
}

type SignInActor = NonNullable<AuditEventDraft["actor"]>;

/**
 * The actor of a sign-in, which has no bearer token: the identity that signed in (or tried to),
 * with the metadata a mid-2026 server records for login entries, `{name, identityId}`. Null when
 * no such identity exists: an event needs the organisation whose chain it joins.
 */
export async function signInActor(db: Kysely<Database>, identityId: string): Promise<SignInActor | null> {
  const row = await db
    .selectFrom("identities")
    .select(["id", "name", "org_id"])
    .where("id", "=", identityId)
    .executeTakeFirst();
  if (!row) return null;
  return { type: "identity", id: row.id, orgId: row.org_id, metadata: { name: row.name, identityId: row.id } };
}

/**
 * A sign-in's actor and the id of the identity's configuration of the method it signed in with
 * (identityUniversalAuthId, …), read in one statement.
 */
export async function signInWith(
  db: Kysely<Database>,
  identityId: string,
  method: string,
): Promise<{ actor: SignInActor; authMethodId: string | null } | null> {
  const row = await db
    .selectFrom("identities as i")
    .leftJoin("identity_auth_methods as am", (join) =>
      join.onRef("am.identity_id", "=", "i.id").on("am.method", "=", method),
    )
    .select(["i.id", "i.name", "i.org_id", "am.id as auth_method_id"])
    .where("i.id", "=", identityId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    actor: { type: "identity", id: row.id, orgId: row.org_id, metadata: { name: row.name, identityId: row.id } },
    authMethodId: row.auth_method_id,
  };
}

/**
 * Why a sign-in was refused, as a short code beside the message (`claim_not_allowed` and
 * `missing_metadata_claim` are the codes a mid-2026 server records for OIDC). The message says
 * which check failed; the code groups the messages by check so that they can be filtered.
 */
const REASONS: [RegExp, string][] = [
  [/for the claim metadata mapping/, "missing_metadata_claim"],
  [/claim not allowed/i, "claim_not_allowed"],
  [/subject not allowed/i, "subject_not_allowed"],
  [/audience not allowed/i, "audience_not_allowed"],
  [/token has no .* field/, "missing_bound_claim"],
  [/namespace not allowed/i, "namespace_not_allowed"],
  [/name not allowed/i, "name_not_allowed"],
  [/account ID not allowed/i, "account_not_allowed"],
  [/principal ARN not allowed/i, "principal_not_allowed"],
  [/IP address/, "ip_not_allowed"],
  [/expired client secret/, "client_secret_expired"],
  [/usage limit/, "client_secret_usage_limit"],
  [/locked/i, "locked_out"],
  [/expired/i, "token_expired"],
  [/not attached|not found|did you configure/i, "auth_method_not_found"],
  [/could not be reached/, "peer_unreachable"],
];

export function reasonCodeOf(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  for (const [pattern, code] of REASONS) if (pattern.test(message)) return code;
  if (error instanceof AppError) {
    if (error.statusCode === 401) return "unauthorized";
    if (error.statusCode === 403) return "forbidden";
    if (error.statusCode === 404) return "not_found";
    if (error.statusCode >= 500) return "upstream_error";
    return "invalid_request";
  }
  return "internal_error";
}

/**
 * The message of a refused sign-in as the caller saw it. An error that is not the domain's own
 * (a 500) is recorded without its text, which the caller did not see either.
 */
export const refusalMessageOf = (error: unknown): string =>
  error instanceof AppError ? error.message : "Something went wrong";

/** Token lifetimes as a mid-2026 server records them in add-/update-identity-* events (as strings). */
export function lifetimeMetadata(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["accessTokenTTL", "accessTokenMaxTTL", "accessTokenNumUsesLimit"]) {
    if (record[key] !== undefined) out[key] = String(record[key]);
  }
  if (record.accessTokenTrustedIps !== undefined) out.accessTokenTrustedIps = record.accessTokenTrustedIps;
  return out;
}

/** Only the keys of `source` that are listed, in that order, where present. */
export function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/**
 * A URL as an event may name it: scheme, host and port only. A receiver's path or query can hold
 * a key (a collector token in the path), and userinfo a password.
 */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

type ProjectRef = { workspaceId?: string; projectId?: string; workspaceSlug?: string; projectSlug?: string };

/** The id of the project a secrets call names by id or slug, within the caller's organisation. */
export async function projectIdOf(
  db: Kysely<Database>,
  orgId: string | undefined,
  ref: ProjectRef,
): Promise<string | null> {
  const id = ref.workspaceId ?? ref.projectId;
  const slug = ref.workspaceSlug ?? ref.projectSlug;
  if (!id && !slug) return null;
  let query = db.selectFrom("projects").select("id");
  query = id
    ? query.where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", id)]))
    : query.where("slug", "=", slug as string);
  if (orgId) query = query.where("org_id", "=", orgId);
  const row = await query.executeTakeFirst();
  return row?.id ?? null;
}

/** A folder's path ("/", "/app/db"), walked up from the folder to its environment's root. */
export async function folderPathOf(db: Kysely<Database>, folderId: string): Promise<string | null> {
  const names: string[] = [];
  let id: string | null = folderId;
  // Folders nest a few levels deep; the bound only guards against a cycle a broken row could make.
  for (let depth = 0; id !== null && depth < 64; depth++) {
    const folder = await db
      .selectFrom("secret_folders")
      .select(["name", "parent_id"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!folder) return null;
    if (folder.parent_id === null) return `/${names.reverse().join("/")}`;
    names.push(folder.name);
    id = folder.parent_id;
  }
  return null;
}

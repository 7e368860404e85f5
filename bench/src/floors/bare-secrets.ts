/**
 * The floor for listing a folder's secrets: a bare Fastify handler that does the service's work
 * the cheapest correct way. It checks the HS256 signature synchronously with node:crypto, reads
 * the token's row, finds the environment's root folder, SELECTs the same secret rows and their
 * tag links by index, unseals the project's data key once, decrypts every value and comment with
 * AES-256-GCM as the service stores them (`version | IV | tag | body`, associated data naming
 * table, row and column) and answers the very bytes the service answers. No framework of ours,
 * no validation, no permission rules (the caller is the project's admin).
 *
 * Environment: PORT, SIGNING_KEY_HEX, ROOT_KEY_HEX, and SQLITE_FILE or DATABASE_URL.
 */
import { createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import SqliteDatabase from "better-sqlite3";
import Fastify from "fastify";
import pg from "pg";

const env = process.env;
const signingKey = Buffer.from(env.SIGNING_KEY_HEX ?? "", "hex");
const sealingKey = Buffer.from(
  hkdfSync(
    "sha256",
    Buffer.from(env.ROOT_KEY_HEX ?? "", "hex"),
    "keyhold",
    "keyhold/project-data-keys/aes-256-gcm/v1",
    32,
  ),
);

const tokenSql = "SELECT * FROM identity_access_tokens WHERE id = $1";
const folderSql =
  "SELECT f.id, e.id AS env_id FROM secret_folders f JOIN project_environments e ON e.id = f.env_id " +
  "WHERE e.project_id = $1 AND e.slug = $2 AND f.parent_id IS NULL";
const dataKeySql = "SELECT wrapped_key FROM project_data_keys WHERE project_id = $1";
const postgres = Boolean(env.DATABASE_URL);
// PostgreSQL formats its timestamps as the service answers them, so no date is parsed here either.
const iso = (column: string) =>
  postgres ? `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${column}` : column;
const secretsSql =
  "SELECT id, type, key, version, value_ciphertext, comment_ciphertext, skip_multiline_encoding, reminder_note, " +
  `reminder_repeat_days, metadata, ${iso("created_at")}, ${iso("updated_at")} ` +
  "FROM secrets WHERE folder_id = $1 AND type = 'shared' ORDER BY key";
const tagsSql =
  "SELECT l.secret_id, t.id, t.slug, t.color FROM secret_tag_links l JOIN secrets s ON s.id = l.secret_id " +
  "JOIN secret_tags t ON t.id = l.tag_id WHERE s.folder_id = $1 ORDER BY t.slug";

type Row = Record<string, unknown>;
type Rows = (sql: string, ...params: string[]) => Promise<Row[]>;

function sqliteRows(file: string): Rows {
  const db = new SqliteDatabase(file, { readonly: true });
  const statements = new Map<string, SqliteDatabase.Statement>();
  return async (sql, ...params) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql.replace(/\$\d/g, "?"));
      statements.set(sql, statement);
    }
    return statement.all(...params) as Row[];
  };
}

function postgresRows(url: string): Rows {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Named statements are parsed and planned once per connection, as the service's are.
  const names = new Map<string, string>();
  return async (sql, ...params) => {
    let name = names.get(sql);
    if (!name) {
      name = `floor${names.size}`;
      names.set(sql, name);
    }
    return (await pool.query({ name, text: sql, values: params })).rows;
  };
}

const rows = postgres ? postgresRows(env.DATABASE_URL ?? "") : sqliteRows(env.SQLITE_FILE ?? "");

/** The claims of an HS256 token whose signature holds and which has not expired, else undefined. */
function verify(token: string): Row | undefined {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return undefined;
  const expected = createHmac("sha256", signingKey).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  if (JSON.parse(Buffer.from(header, "base64url").toString("utf8")).alg !== "HS256") return undefined;
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Row;
  if (typeof claims.exp === "number" && claims.exp * 1000 <= Date.now()) return undefined;
  return claims;
}

function gcmOpen(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, aad: string): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, iv);
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/**
 * A stored field: version byte 1, 12-byte IV, 16-byte tag, body; bound to its table, row and
 * column. An empty comment (no body) is known empty without opening it, as the service reads it.
 */
function openField(key: Buffer, stored: Buffer, rowId: string, column: string): string {
  if (column === "comment_ciphertext" && stored.length === 29 && stored[0] === 1) return "";
  if (stored[0] !== 1) throw new Error("unknown ciphertext format");
  return gcmOpen(
    key,
    stored.subarray(1, 13),
    stored.subarray(13, 29),
    stored.subarray(29),
    `secrets:${rowId}:${column}`,
  ).toString("utf8");
}

/** Project data keys, unsealed once each (they never change). */
const dataKeys = new Map<string, Buffer>();
async function dataKeyOf(projectId: string): Promise<Buffer | undefined> {
  const known = dataKeys.get(projectId);
  if (known) return known;
  const [row] = await rows(dataKeySql, projectId);
  if (!row) return undefined;
  const [, iv, tag, body] = String(row.wrapped_key).split(".");
  const sealed = (part = "") => Buffer.from(part, "base64");
  const key = Buffer.from(
    gcmOpen(sealingKey, sealed(iv), sealed(tag), sealed(body), `project_data_keys:${projectId}`).toString("utf8"),
    "base64",
  );
  dataKeys.set(projectId, key);
  return key;
}

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));
app.get<{ Querystring: { workspaceId: string; environment: string; secretPath: string } }>(
  "/api/v3/secrets/raw",
  async (request, reply) => {
    const claims = verify(request.headers.authorization?.slice("Bearer ".length) ?? "");
    if (!claims) return reply.code(403).send({ message: "bad token" });
    const { workspaceId, environment, secretPath } = request.query;
    const [[tokenRow], [folder], key] = await Promise.all([
      rows(tokenSql, String(claims.identityAccessTokenId)),
      rows(folderSql, workspaceId, environment),
      dataKeyOf(workspaceId),
    ]);
    if (!tokenRow || tokenRow.is_access_token_revoked !== 0) return reply.code(401).send({ message: "bad token" });
    if (!folder || !key) return reply.code(404).send({ message: "not found" });
    const [secrets, links] = await Promise.all([rows(secretsSql, String(folder.id)), rows(tagsSql, String(folder.id))]);
    const tagsOf = new Map<unknown, Row[]>();
    for (const link of links) {
      const tag = { id: link.id, slug: link.slug, color: link.color, name: link.slug };
      const list = tagsOf.get(link.secret_id);
      if (list) list.push(tag);
      else tagsOf.set(link.secret_id, [tag]);
    }
    const answer = {
      secrets: secrets.map((row) => {
        const id = String(row.id);
        const metadata = row.metadata ? (JSON.parse(String(row.metadata)) as Row[]) : [];
        return {
          id,
          _id: id,
          workspace: workspaceId,
          environment,
          version: row.version,
          type: row.type,
          secretKey: row.key,
          secretValue: openField(key, row.value_ciphertext as Buffer, id, "value_ciphertext"),
          secretComment: openField(key, row.comment_ciphertext as Buffer, id, "comment_ciphertext"),
          secretReminderNote: row.reminder_note,
          secretReminderRepeatDays: row.reminder_repeat_days,
          skipMultilineEncoding: row.skip_multiline_encoding === 1,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
          isRotatedSecret: false,
          rotationId: null,
          secretValueHidden: false,
          secretPath,
          tags: tagsOf.get(id) ?? [],
          secretMetadata: metadata.map((m) => ({ key: m.key, value: m.value, isEncrypted: false })),
        };
      }),
      imports: [],
    };
    return reply.type("application/json; charset=utf-8").send(JSON.stringify(answer));
  },
);

await app.listen({ port: Number(env.PORT), host: "127.0.0.1" });

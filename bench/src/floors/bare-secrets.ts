/**
 * The floor for listing a folder's secrets: a bare Fastify handler that verifies the JWT, reads
 * its token row, finds the environment and its root folder, and SELECTs the same secret rows
 * the service lists (with their tag links), answering them as JSON with the ciphertexts as
 * base64 — no decryption, no permission check, no validation, no framework of ours.
 *
 * Environment: PORT, SIGNING_KEY_HEX, and SQLITE_FILE or DATABASE_URL.
 */
import { createSecretKey } from "node:crypto";
import SqliteDatabase from "better-sqlite3";
import Fastify from "fastify";
import { jwtVerify } from "jose";
import pg from "pg";

const env = process.env;
const key = createSecretKey(Buffer.from(env.SIGNING_KEY_HEX ?? "", "hex"));

const tokenSql = "SELECT * FROM identity_access_tokens WHERE id = $1";
const folderSql =
  "SELECT f.id FROM secret_folders f JOIN project_environments e ON e.id = f.env_id " +
  "WHERE e.project_id = $1 AND e.slug = $2 AND f.parent_id IS NULL";
const secretsSql = "SELECT * FROM secrets WHERE folder_id = $1 AND type = 'shared' ORDER BY key";
const tagsSql =
  "SELECT l.secret_id, t.slug FROM secret_tag_links l JOIN secret_tags t ON t.id = l.tag_id JOIN secrets s ON s.id = l.secret_id WHERE s.folder_id = $1";

type Rows = (sql: string, ...params: string[]) => Promise<Record<string, unknown>[]>;

function sqliteRows(file: string): Rows {
  const db = new SqliteDatabase(file, { readonly: true });
  db.pragma("journal_mode = WAL");
  const statements = new Map<string, SqliteDatabase.Statement>();
  return async (sql, ...params) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql.replace(/\$\d/g, "?"));
      statements.set(sql, statement);
    }
    return statement.all(...params) as Record<string, unknown>[];
  };
}

function postgresRows(url: string): Rows {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (sql, ...params) => (await pool.query(sql, params)).rows;
}

const rows = env.DATABASE_URL ? postgresRows(env.DATABASE_URL) : sqliteRows(env.SQLITE_FILE ?? "");
const base64 = (value: unknown) => (Buffer.isBuffer(value) ? value.toString("base64") : value);

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));
app.get<{ Querystring: { workspaceId: string; environment: string } }>(
  "/api/v3/secrets/raw",
  async (request, reply) => {
    const token = request.headers.authorization?.slice("Bearer ".length) ?? "";
    let claims: Record<string, unknown>;
    try {
      claims = (await jwtVerify(token, key, { algorithms: ["HS256"] })).payload;
    } catch {
      return reply.code(401).send({ message: "bad token" });
    }
    const [tokenRow] = await rows(tokenSql, String(claims.identityAccessTokenId));
    const [folder] = await rows(folderSql, request.query.workspaceId, request.query.environment);
    if (!tokenRow || !folder) return reply.code(404).send({ message: "not found" });
    const [secrets, tags] = await Promise.all([rows(secretsSql, String(folder.id)), rows(tagsSql, String(folder.id))]);
    return {
      secrets: secrets.map((row) => ({
        ...row,
        value_ciphertext: base64(row.value_ciphertext),
        comment_ciphertext: base64(row.comment_ciphertext),
      })),
      tags,
    };
  },
);

await app.listen({ port: Number(env.PORT), host: "127.0.0.1" });

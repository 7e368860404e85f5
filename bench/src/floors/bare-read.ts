/**
 * The floor for an authenticated read, and the BFF hop's stand-in upstream: a bare Fastify
 * handler that verifies the JWT and does the same two indexed reads the service needs at the
 * least (the token's row, the identity with its membership), then answers the real service's
 * body, captured once at start. No logging, no validation, no framework of ours.
 *
 * Environment: PORT, SIGNING_KEY_HEX, BODY_FILE, and SQLITE_FILE or DATABASE_URL.
 */
import { createSecretKey } from "node:crypto";
import { readFileSync } from "node:fs";
import SqliteDatabase from "better-sqlite3";
import Fastify from "fastify";
import { jwtVerify } from "jose";
import pg from "pg";

const env = process.env;
const key = createSecretKey(Buffer.from(env.SIGNING_KEY_HEX ?? "", "hex"));
const body = readFileSync(env.BODY_FILE ?? "", "utf8");

const tokenSql = "SELECT * FROM identity_access_tokens WHERE id = $1";
const identitySql =
  "SELECT m.*, i.name FROM identity_org_memberships m JOIN identities i ON i.id = m.identity_id WHERE m.identity_id = $1";

type Lookup = (sql: string, id: string) => Promise<unknown>;

function sqliteLookup(file: string): Lookup {
  const db = new SqliteDatabase(file, { readonly: true });
  db.pragma("journal_mode = WAL");
  const statements = new Map<string, SqliteDatabase.Statement>();
  return async (sql, id) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql.replace("$1", "?"));
      statements.set(sql, statement);
    }
    return statement.get(id);
  };
}

function postgresLookup(url: string): Lookup {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (sql, id) => (await pool.query(sql, [id])).rows[0];
}

const lookup = env.DATABASE_URL ? postgresLookup(env.DATABASE_URL) : sqliteLookup(env.SQLITE_FILE ?? "");

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));
app.get<{ Params: { identityId: string } }>("/api/v1/identities/:identityId", async (request, reply) => {
  const token = request.headers.authorization?.slice("Bearer ".length) ?? "";
  let claims: Record<string, unknown>;
  try {
    claims = (await jwtVerify(token, key, { algorithms: ["HS256"] })).payload;
  } catch {
    return reply.code(401).send({ message: "bad token" });
  }
  const row = await lookup(tokenSql, String(claims.identityAccessTokenId));
  const identity = await lookup(identitySql, request.params.identityId);
  if (!row || !identity) return reply.code(404).send({ message: "not found" });
  return reply.type("application/json; charset=utf-8").send(body);
});

await app.listen({ port: Number(env.PORT), host: "127.0.0.1" });

/**
 * The floor for an authenticated read: a bare Fastify handler that checks the token's HS256
 * signature and expiry synchronously with node:crypto, does the two indexed reads the service
 * needs at the least (the token's row, the identity with its membership) with statements
 * prepared once, then answers the real service's body, captured once at start. No logging, no
 * validation, no framework of ours.
 *
 * Environment: PORT, SIGNING_KEY_HEX, BODY_FILE, and SQLITE_FILE or DATABASE_URL.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import SqliteDatabase from "better-sqlite3";
import Fastify, { type FastifyReply } from "fastify";
import pg from "pg";

const env = process.env;
const key = Buffer.from(env.SIGNING_KEY_HEX ?? "", "hex");
const body = readFileSync(env.BODY_FILE ?? "", "utf8");

const tokenSql = "SELECT * FROM identity_access_tokens WHERE id = $1";
const identitySql =
  "SELECT m.*, i.name FROM identity_org_memberships m JOIN identities i ON i.id = m.identity_id WHERE m.identity_id = $1";

/** The token's id when its signature holds and it has not expired; undefined otherwise. */
function verifiedTokenId(authorization: string | undefined): string | undefined {
  if (!authorization?.startsWith("Bearer ")) return undefined;
  const [header, payload, signature, extra] = authorization.slice("Bearer ".length).split(".");
  if (header === undefined || payload === undefined || signature === undefined || extra !== undefined) return;
  const expected = createHmac("sha256", key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    if ((JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: unknown }).alg !== "HS256") return;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof claims.exp === "number" && Math.floor(Date.now() / 1000) >= claims.exp) return undefined;
    return typeof claims.identityAccessTokenId === "string" ? claims.identityAccessTokenId : undefined;
  } catch {
    return undefined;
  }
}

const refuse = (reply: FastifyReply, status: number) => reply.code(status).send({ message: "refused" });
const answer = (reply: FastifyReply) => reply.type("application/json; charset=utf-8").send(body);

const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));

if (env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
  const read = async (name: string, text: string, id: string) =>
    (await pool.query({ name, text, values: [id] })).rows[0];
  app.get<{ Params: { identityId: string } }>("/api/v1/identities/:identityId", async (request, reply) => {
    const tokenId = verifiedTokenId(request.headers.authorization);
    if (tokenId === undefined) return refuse(reply, 403);
    if (!(await read("floor_token", tokenSql, tokenId))) return refuse(reply, 401);
    if (!(await read("floor_identity", identitySql, request.params.identityId))) return refuse(reply, 404);
    return answer(reply);
  });
} else {
  const db = new SqliteDatabase(env.SQLITE_FILE ?? "", { readonly: true });
  const token = db.prepare(tokenSql.replace("$1", "?"));
  const identity = db.prepare(identitySql.replace("$1", "?"));
  app.get<{ Params: { identityId: string } }>("/api/v1/identities/:identityId", (request, reply) => {
    const tokenId = verifiedTokenId(request.headers.authorization);
    if (tokenId === undefined) return refuse(reply, 403);
    if (!token.get(tokenId)) return refuse(reply, 401);
    if (!identity.get(request.params.identityId)) return refuse(reply, 404);
    return answer(reply);
  });
}

await app.listen({ port: Number(env.PORT), host: "127.0.0.1" });

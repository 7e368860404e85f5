import { randomBytes } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import { type AuditEventFilter, compileAuditEventList } from "@keyhold/service/audit-list-sql";
import Database from "better-sqlite3";
import pg from "pg";
import type { BenchCase, BenchContext } from "../lib/bench-case.ts";
import { median, type ResultRow } from "../lib/result.ts";
import { type RunningService, startService } from "../lib/stack.ts";
import { call } from "./secrets-list.ts";

const EVENT_COUNT = 1_000_000;
const DAYS = 90;
const DAY_MS = 86_400_000;
const PROJECTS = 8;
const ACTORS = 200;
const WARMUP = 5;
const RUNS = 60;
const PAGE = 50;
/** The acceptance aim for a filtered query over 1,000,000 events on PostgreSQL. */
const AIM_MS = 50;

/** A small deterministic generator (mulberry32), so both databases get the same events. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks from `[value, weight]` pairs. */
function weighted<T>(pairs: readonly (readonly [T, number])[]) {
  const total = pairs.reduce((sum, [, w]) => sum + w, 0);
  return (r: number): T => {
    let at = r * total;
    for (const [value, w] of pairs) {
      at -= w;
      if (at < 0) return value;
    }
    return (pairs.at(-1) as readonly [T, number])[0];
  };
}

const projectType = weighted([
  ["get-secrets", 35],
  ["get-secret", 20],
  ["update-secret", 12],
  ["get-secret-imports", 8],
  ["create-secret", 6],
  ["create-secrets", 3],
  ["update-secrets", 3],
  ["delete-secret", 2],
  ["create-folder", 2],
  ["delete-secrets", 1],
  ["create-secret-import", 1],
  ["delete-folder", 0.05],
]);
const orgType = weighted([
  ["login-identity-universal-auth", 70],
  ["create-token-identity-token-auth", 20],
  ["create-identity", 6],
  ["add-identity-universal-auth", 4],
]);
const projectIndex = weighted([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i, [30, 20, 15, 10, 10, 5, 5, 5][i] ?? 1] as const));
const environment = weighted([
  ["dev", 50],
  ["staging", 30],
  ["prod", 20],
]);
const folder = weighted([
  ["/", 40],
  ["/app", 25],
  ["/app/db", 15],
  ["/infra", 15],
  ["/ci", 5],
]);
const userAgentType = weighted([
  ["other", 40],
  ["cli", 25],
  ["k8-operator", 15],
  ["web", 10],
  ["terraform", 5],
  ["InfisicalNodeSDK", 5],
]);

const actorId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** 95% of events come from 20 busy identities, 5% from 180 quiet ones. */
const actorOf = (r1: number, r2: number) => (r1 < 0.95 ? Math.floor(r2 * 20) : 20 + Math.floor(r2 * (ACTORS - 20)));

const COLUMNS = [
  "id",
  "org_id",
  "org_seq",
  "project_id",
  "project_name",
  "event_type",
  "event_metadata",
  "actor_type",
  "actor_id",
  "actor_metadata",
  "ip_address",
  "user_agent",
  "user_agent_type",
  "request_id",
  "environment",
  "secret_path",
  "secret_key",
  "created_at",
  "content_hash",
  "hash",
  "pruned",
] as const;
type Row = (string | number | null)[];

/**
 * The events, oldest first, spread evenly over the 90 days before `end`: 85% in 8 projects of
 * unequal size, 15% organisation events (sign-ins, tokens), 200 identities of which 20 do most,
 * a dozen event types from common reads to rare folder deletions, 2,000 secret keys. The chain
 * columns hold stand-in hex (this bench reads, it does not verify).
 */
function* events(orgId: string, projects: readonly { id: string; name: string }[], end: number, seqBase: number) {
  const random = generator(19);
  const start = end - DAYS * DAY_MS;
  for (let n = 1; n <= EVENT_COUNT; n++) {
    const actor = actorOf(random(), random());
    const identityId = actorId(actor);
    const orgEvent = random() < 0.15;
    const project = projects[projectIndex(random())] as { id: string; name: string };
    const type = orgEvent ? orgType(random()) : projectType(random());
    const env = environment(random());
    const path = folder(random());
    const key = `KEY_${String(Math.floor(random() * 2000)).padStart(4, "0")}`;
    const listing = type === "get-secrets" || type === "get-secret-imports";
    const metadata = orgEvent
      ? { identityId, name: `bench-${actor}` }
      : listing
        ? { environment: env, secretPath: path, numberOfSecrets: 1 + Math.floor(random() * 40) }
        : { environment: env, secretPath: path, secretKey: key, secretVersion: 1 + (n % 9) };
    const hex = randomBytes(32).toString("hex");
    const row: Row = [
      randomBytes(16).toString("hex"),
      orgId,
      seqBase + n,
      orgEvent ? null : project.id,
      orgEvent ? null : project.name,
      type,
      JSON.stringify(metadata),
      "identity",
      identityId,
      JSON.stringify({
        name: `bench-${actor}`,
        authMethod: "universal-auth",
        identityId,
        permission: { metadata: {} },
      }),
      `10.0.${actor % 250}.1`,
      "bench",
      userAgentType(random()),
      `req-${n}`,
      orgEvent ? null : env,
      orgEvent ? null : path,
      orgEvent || listing ? null : key,
      new Date(start + Math.floor(((n - 1) * DAYS * DAY_MS) / EVENT_COUNT)).toISOString(),
      hex,
      hex,
      0,
    ];
    yield row;
  }
}

/** The chain head moves past the seeded events, so events the service writes next follow them. */
const MOVE_HEAD = `insert into audit_chain_heads (org_id, last_seq, last_hash, updated_at) values ($1, $2, '${"0".repeat(64)}', $3)
  on conflict (org_id) do update set last_seq = excluded.last_seq, last_hash = excluded.last_hash, updated_at = excluded.updated_at`;

/** Where the organisation's chain ends now (the service may have written events already). */
async function lastSeqOf(service: RunningService, orgId: string): Promise<number> {
  const text = "select coalesce(max(org_seq), 0) as last from audit_events where org_id = $1";
  if (service.databaseUrl) {
    const client = new pg.Client({ connectionString: service.databaseUrl });
    await client.connect();
    try {
      return Number((await client.query(text, [orgId])).rows[0]?.last ?? 0);
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(service.sqliteFile as string, { readonly: true });
  try {
    return Number((sqlite.prepare(text.replace("$1", "?")).get(orgId) as { last: number }).last);
  } finally {
    sqlite.close();
  }
}

/** Bulk inserts on PostgreSQL: one INSERT … SELECT FROM unnest(arrays) per 10,000 events. */
async function seedPostgres(url: string, orgId: string, lastSeq: number, rows: Iterable<Row>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const types = COLUMNS.map((c) =>
      c === "org_seq" || c === "pruned" ? "int[]" : c === "created_at" ? "timestamptz[]" : "text[]",
    );
    const text = `insert into audit_events (${COLUMNS.join(", ")}) select * from unnest(${types.map((t, i) => `$${i + 1}::${t}`).join(", ")})`;
    let batch: Row[] = [];
    const flush = async () => {
      await client.query(
        text,
        COLUMNS.map((_, i) => batch.map((row) => row[i])),
      );
      batch = [];
    };
    for (const row of rows) {
      batch.push(row);
      if (batch.length === 10_000) await flush();
    }
    if (batch.length > 0) await flush();
    await client.query(MOVE_HEAD, [orgId, lastSeq, new Date().toISOString()]);
    await client.query("analyze audit_events");
  } finally {
    await client.end();
  }
}

/** Bulk inserts on SQLite: one prepared INSERT, 50,000 events per transaction (the service keeps running). */
function seedSqlite(file: string, orgId: string, lastSeq: number, rows: Iterable<Row>): void {
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 10000");
  try {
    const insert = sqlite.prepare(
      `insert into audit_events (${COLUMNS.join(", ")}) values (${COLUMNS.map(() => "?").join(", ")})`,
    );
    const write = sqlite.transaction((batch: Row[]) => {
      for (const row of batch) insert.run(row);
    });
    let batch: Row[] = [];
    for (const row of rows) {
      batch.push(row);
      if (batch.length === 50_000) {
        write(batch);
        batch = [];
      }
    }
    if (batch.length > 0) write(batch);
    sqlite.prepare(MOVE_HEAD.replace(/\$\d/g, "?")).run(orgId, lastSeq, new Date().toISOString());
  } finally {
    sqlite.close();
  }
}

interface Query {
  label: string;
  query: Record<string, string>;
  /** The filter the service builds from the query (for EXPLAIN). */
  filter: Partial<AuditEventFilter>;
  days: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] as number;
}

/** Has the database say how it runs the statement the service runs for `q` (the plan's first lines). */
async function explain(service: RunningService, orgId: string, q: Query, now: number): Promise<string> {
  const compiled = compileAuditEventList(service.databaseUrl ? "postgres" : "sqlite", {
    orgId,
    start: new Date(now - q.days * DAY_MS).toISOString(),
    end: new Date(now).toISOString(),
    offset: 0,
    limit: PAGE,
    ...q.filter,
  });
  if (!compiled) return "(no query: the filter matches nothing)";
  if (service.databaseUrl) {
    const client = new pg.Client({ connectionString: service.databaseUrl });
    await client.connect();
    try {
      const result = await client.query(`explain (analyze, costs off) ${compiled.sql}`, [...compiled.parameters]);
      return result.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(service.sqliteFile as string, { readonly: true });
  try {
    const plan = sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[]));
    return (plan as { detail: string }[]).map((r) => r.detail).join("\n");
  } finally {
    sqlite.close();
  }
}

async function measure(service: RunningService, label: string): Promise<ResultRow[]> {
  const projects: { id: string; name: string }[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const created = endpoints["projects.create"].response.parse(
      await call(service, "POST", endpoints["projects.create"].path, {
        projectName: `Audit ${i}`,
        slug: `audit-${i}`,
      }),
    );
    projects.push({ id: created.project.id, name: created.project.name });
  }
  const orgId = projects.length > 0 ? ((await orgOf(service, projects[0]?.id as string)) as string) : "";
  const end = Date.now();
  console.error(`  seeding ${EVENT_COUNT.toLocaleString("en")} events over ${DAYS} days (${label})…`);
  const seedStarted = performance.now();
  const seqBase = await lastSeqOf(service, orgId);
  const rows = events(orgId, projects, end, seqBase);
  const lastSeq = seqBase + EVENT_COUNT;
  if (service.databaseUrl) await seedPostgres(service.databaseUrl, orgId, lastSeq, rows);
  else seedSqlite(service.sqliteFile as string, orgId, lastSeq, rows);
  console.error(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  const busiest = projects[0] as { id: string };
  const quietActor = actorId(150);
  const queries: Query[] = [
    {
      label: "project, last 7 days",
      query: { projectId: busiest.id },
      filter: { projectId: busiest.id },
      days: 7,
    },
    {
      label: "project + secret key, 90 days",
      query: { projectId: busiest.id, secretKey: "KEY_0017" },
      filter: { projectId: busiest.id, secretKey: "KEY_0017" },
      days: 90,
    },
    {
      label: "project + environment + folder, 30 days",
      query: { projectId: busiest.id, environment: "prod", secretPath: "/app/db" },
      filter: { projectId: busiest.id, environment: "prod", secretPath: "/app/db" },
      days: 30,
    },
    {
      label: "one quiet actor, 30 days",
      query: { actorType: "identity", actor: quietActor },
      filter: { actorType: "identity", actorId: quietActor },
      days: 30,
    },
    {
      label: "3 event types, 90 days",
      query: { eventType: "create-secret,update-secret,delete-secret" },
      filter: { eventTypes: ["create-secret", "update-secret", "delete-secret"] },
      days: 90,
    },
    {
      label: "a rare event type, 90 days",
      query: { eventType: "delete-folder" },
      filter: { eventTypes: ["delete-folder"] },
      days: 90,
    },
    {
      label: "page at offset 10,000, 90 days",
      query: { offset: "10000" },
      filter: { offset: 10_000 },
      days: 90,
    },
  ];

  // Seeding outlasts the service's keep-alive timeout: the client's idle connection is gone.
  await fetch(`${service.url}/api/status`).catch(() => fetch(`${service.url}/api/status`));

  const rowsOut: ResultRow[] = [];
  for (const q of queries) {
    const timings: number[] = [];
    let listed = 0;
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const now = Date.now();
      const search = new URLSearchParams({
        ...q.query,
        startDate: new Date(now - q.days * DAY_MS).toISOString(),
        limit: String(PAGE),
      });
      const t0 = performance.now();
      const response = await fetch(`${service.url}${endpoints["auditLogs.listOrg"].path}?${search}`, {
        headers: { authorization: `Bearer ${service.adminToken}` },
      });
      const body = (await response.json()) as { auditLogs?: unknown[] };
      const elapsed = performance.now() - t0;
      if (!response.ok) throw new Error(`${q.label}: ${response.status} ${JSON.stringify(body)}`);
      listed = body.auditLogs?.length ?? 0;
      if (run >= WARMUP) timings.push(elapsed);
    }
    if (listed === 0) throw new Error(`${q.label}: the list is empty; the bench's data does not fit its query`);
    const sorted = [...timings].sort((a, b) => a - b);
    const p95 = percentile(sorted, 0.95);
    console.error(`  ${q.label}: ${listed} events; p50 ${median(timings).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
    console.error(
      (await explain(service, orgId, q, Date.now()))
        .split("\n")
        .map((line) => `      ${line}`)
        .join("\n"),
    );
    for (const [metric, value] of [
      ["p50 ms", median(timings)],
      ["p95 ms", p95],
    ] as const) {
      rowsOut.push({
        case: `audit log, 1M events (${label}): ${q.label}`,
        metric,
        keyhold: Math.round(value * 10) / 10,
        reference: AIM_MS,
        referenceName: "aim",
        higherIsBetter: false,
      });
    }
  }
  return rowsOut;
}

async function orgOf(service: RunningService, projectId: string): Promise<string> {
  const project = (await call(service, "GET", `/api/v1/workspace/${projectId}`)) as { workspace: { orgId: string } };
  return project.workspace.orgId;
}

function auditQueryCase(id: string, database: "SQLite" | "PostgreSQL"): BenchCase {
  return {
    id,
    title: `Filtered audit-log lists over ${EVENT_COUNT.toLocaleString("en")} events on ${database}: p50 and p95 through the service`,
    async run(context: BenchContext) {
      const service = await startService(context, { postgres: database === "PostgreSQL" });
      return measure(service, database);
    },
  };
}

export const auditQueryCases: BenchCase[] = [
  auditQueryCase("audit-query", "PostgreSQL"),
  auditQueryCase("audit-query-sqlite", "SQLite"),
];

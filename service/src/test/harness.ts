import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildPath, type EndpointId, endpoints } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { describe } from "vitest";
import type { KeyholdInfo } from "../app.ts";
import { buildApp } from "../app.ts";
import { type Config, loadConfig } from "../config.ts";

/**
 * Starts real services on real databases for tests: SQLite in a temporary data dir, and,
 * when KEYHOLD_TEST_DATABASE_URL names a PostgreSQL admin database, a fresh database per
 * service that is dropped when the service closes.
 */

const pgAdminUrl = process.env.KEYHOLD_TEST_DATABASE_URL;
export type DatabaseKind = "sqlite" | "postgres";

export interface TestService {
  app: FastifyInstance;
  config: Config;
  info: KeyholdInfo;
  /** The admin token currently in `<data dir>/admin-token`. */
  adminToken: string;
  /** Every log line written so far. */
  logs(): string;
  call(method: string, url: string, options?: CallOptions): Promise<CallResult>;
  endpoint(id: EndpointId, input?: EndpointInput, options?: CallOptions): Promise<CallResult>;
  /** Stops the service but keeps its data dir and database (for restarts). */
  stop(): Promise<void>;
  /** Stops the service if running, then removes its data dir and drops its database. */
  close(): Promise<void>;
}

export interface CallOptions {
  /** Defaults to the admin token; null sends no Authorization header. */
  token?: string | null;
  body?: unknown;
  payload?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export interface EndpointInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface CallResult {
  status: number;
  body: unknown;
}

export interface StartOptions {
  kind: DatabaseKind;
  /** Reuse another service's data dir and database (a restart, or a second instance). */
  shareWith?: TestService;
  rootKey?: string;
  logLevel?: Config["logLevel"];
  /** More environment for the service's configuration. */
  env?: Record<string, string>;
}

export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!pgAdminUrl) throw new Error("KEYHOLD_TEST_DATABASE_URL is not set");
  const name = `keyhold_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: pgAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function startService(options: StartOptions): Promise<TestService> {
  const shared = options.shareWith?.config;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-test-"));
  const pgDb = options.kind === "postgres" && !shared ? await createPgDatabase() : undefined;
  const config = loadConfig({
    KEYHOLD_DATA_DIR: dataDir,
    DATABASE_URL: shared?.databaseUrl ?? pgDb?.url,
    KEYHOLD_ROOT_KEY: options.rootKey ?? shared?.rootKey,
    LOG_LEVEL: options.logLevel ?? "info",
    ...options.env,
  });
  const lines: string[] = [];
  const app = await buildApp({ config, logStream: { write: (line: string) => lines.push(line) } });
  const adminToken = fs.readFileSync(app.keyhold.adminTokenFile, "utf8");

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };

  const call = async (method: string, url: string, o: CallOptions = {}): Promise<CallResult> => {
    const token = o.token === undefined ? adminToken : o.token;
    const headers: Record<string, string> = { ...(token !== null && { authorization: `Bearer ${token}` }) };
    const response = await app.inject({
      method: method as "GET",
      url,
      headers: { ...headers, ...o.headers },
      ...(o.body !== undefined && { payload: o.body as object }),
      ...(o.payload !== undefined && { payload: o.payload }),
      ...(o.remoteAddress && { remoteAddress: o.remoteAddress }),
    });
    const text = response.body;
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
  };

  return {
    app,
    config,
    info: app.keyhold,
    adminToken,
    logs: () => lines.join(""),
    call,
    endpoint: (id, input = {}, o = {}) => {
      const spec = endpoints[id];
      const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
      return call(spec.method, buildPath(spec.path, input.params ?? {}) + query, { ...o, body: input.body });
    },
    stop,
    close: async () => {
      await stop();
      if (pgDb) await pgDb.drop();
      if (!shared) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per database: SQLite always, PostgreSQL when configured (else shown as skipped). */
export function describeEachDatabase(title: string, suite: (kind: DatabaseKind) => void): void {
  describe(`${title} [sqlite]`, () => suite("sqlite"));
  if (pgAdminUrl) describe(`${title} [postgres]`, () => suite("postgres"));
  else describe.skip(`${title} [postgres: skipped, set KEYHOLD_TEST_DATABASE_URL to run]`, () => suite("postgres"));
}

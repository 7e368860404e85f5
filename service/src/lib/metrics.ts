import { endpointList, routePattern } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { PoolStats } from "../db/database.ts";

/** Routes that are not contract endpoints, under fixed names; anything else unrouted is "unmatched". */
const OWN_ROUTES: Record<string, string> = {
  "GET /healthz": "healthz",
  "GET /readyz": "readyz",
  "GET /api/status": "status",
  "GET /api/docs": "docs",
};
const UNMATCHED = "unmatched";

/** `GET /api/v1/identities/:identityId` → `identities.get`: the label is the endpoint id, never the raw path. */
const routeLabels = new Map<string, string>([
  ...endpointList.map((e): [string, string] => [`${e.method} ${routePattern(e.path)}`, e.id]),
  ...Object.entries(OWN_ROUTES),
]);
/**
 * The sign-ins: the endpoints that take a credential in the body instead of a bearer token,
 * except revocation (giving up a token is not signing in).
 */
const signInIds = new Set<string>(
  endpointList.filter((e) => e.auth === "none" && e.id !== "accessTokens.revoke").map((e) => e.id),
);

export function routeLabel(method: string, url: string | undefined): string {
  if (url === undefined) return UNMATCHED;
  return routeLabels.get(`${method === "HEAD" ? "GET" : method} ${url}`) ?? UNMATCHED;
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export interface ServiceMetricSources {
  dialect: "sqlite" | "postgres";
  poolStats: () => PoolStats;
  pendingTokenUses: () => number;
}

/**
 * The service's Prometheus metrics, in a registry of its own (several instances may share a
 * process in tests). Created only when METRICS_PORT is set, so a service without metrics pays
 * nothing per request.
 */
export function createServiceMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["endpoint", "status_class"] as const;
  const requests = new Counter({
    name: "keyhold_http_requests_total",
    help: "HTTP requests answered, by contract endpoint id (or healthz, readyz, status, docs, unmatched) and status class.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "keyhold_http_request_duration_seconds",
    help: "Time from receiving a request to finishing its answer, by contract endpoint id and status class.",
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: "keyhold_sign_in_failures_total",
    help: "Sign-ins (universal, Kubernetes, OIDC, AWS auth logins, token renewal) refused with a 4xx answer, by endpoint.",
    labelNames: ["endpoint"],
    registers: [registry],
  });
  const flushes = new Counter({
    name: "keyhold_token_usage_flushes_total",
    help: "Writes of the batched use counts of tokens without a uses limit, by outcome (written, failed).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const flushedTokens = new Counter({
    name: "keyhold_token_usage_flushed_tokens_total",
    help: "Tokens whose batched use counts were written.",
    registers: [registry],
  });
  return {
    registry,
    /** Counts a request once its answer is sent. */
    observeRequest(method: string, url: string | undefined, status: number, seconds: number): void {
      const endpoint = routeLabel(method, url);
      const labels = { endpoint, status_class: statusClass(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      if (status >= 400 && status < 500 && signInIds.has(endpoint)) signInFailures.inc({ endpoint });
    },
    tokenUsageFlushed(outcome: "written" | "failed", tokens: number): void {
      flushes.inc({ outcome });
      if (outcome === "written") flushedTokens.inc(tokens);
    },
    /** Gauges read when scraped: the database pool and the token uses waiting to be written. */
    watch(sources: ServiceMetricSources): void {
      new Gauge({
        name: "keyhold_db_pool_connections",
        help: "Database connections by state: total, idle and waiting (clients queued for one) on PostgreSQL; SQLite has one connection (total) and no pool to read.",
        labelNames: ["state"],
        registers: [registry],
        collect() {
          const stats = sources.poolStats();
          this.set({ state: "total" }, stats.total);
          if (stats.idle !== undefined) this.set({ state: "idle" }, stats.idle);
          if (stats.waiting !== undefined) this.set({ state: "waiting" }, stats.waiting);
        },
      });
      new Gauge({
        name: "keyhold_db_info",
        help: "The database the service runs on (always 1; the dialect is the label).",
        labelNames: ["dialect"],
        registers: [registry],
      }).set({ dialect: sources.dialect }, 1);
      new Gauge({
        name: "keyhold_token_usage_pending_tokens",
        help: "Tokens whose uses are counted in memory and not written yet.",
        registers: [registry],
        collect() {
          this.set(sources.pendingTokenUses());
        },
      });
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

/** Counts every answered request (a callback hook: no promise per request). */
export function registerRequestMetrics(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

import { bffPaths, endpointList, routePattern } from "@keyhold/contract";
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The BFF's own routes under fixed names; anything unrouted (or refused by the `/api/*` catch-all) is "unmatched". */
const OWN_ROUTES: Record<string, string> = {
  [`POST ${bffPaths.login}`]: "bff.login",
  [`GET ${bffPaths.session}`]: "bff.session",
  [`POST ${bffPaths.logout}`]: "bff.logout",
  [`GET ${bffPaths.signInOptions}`]: "bff.signInOptions",
  [`GET ${bffPaths.oidcLogin}`]: "bff.oidcLogin",
  [`GET ${bffPaths.oidcCallback}`]: "bff.oidcCallback",
  [`GET ${bffPaths.oidcSetup}`]: "bff.oidcSetup",
  [`GET ${bffPaths.oidcTest}`]: "bff.oidcTest",
  "GET /healthz": "healthz",
  "GET /readyz": "readyz",
};
const UNMATCHED = "unmatched";
const WEB = "web";

/** `GET /api/v1/identities/:identityId` → `identities.get`: the label is the endpoint id, never the raw path. */
const routeLabels = new Map<string, string>([
  ...endpointList.map((e): [string, string] => [`${e.method} ${routePattern(e.path)}`, e.id]),
  ...Object.entries(OWN_ROUTES),
]);

export function routeLabel(method: string, url: string | undefined, status: number): string {
  // No route: the console's index.html for a deep link (the SPA fallback answers it), else a 404.
  if (url === undefined) return status < 400 ? WEB : UNMATCHED;
  if (url === "/api/*") return UNMATCHED;
  // Whatever else is routed is the console's static files.
  return routeLabels.get(`${method === "HEAD" ? "GET" : method} ${url}`) ?? WEB;
}

export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The BFF's Prometheus metrics, in a registry of its own (several BFFs may share a process in
 * tests). Created only when METRICS_PORT is set, so a BFF without metrics pays nothing per request.
 */
export function createBffMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ["endpoint", "status_class"] as const;
  const requests = new Counter({
    name: "keyhold_http_requests_total",
    help: "HTTP requests answered, by contract endpoint id (or bff.login, bff.session, bff.logout, healthz, readyz, web, unmatched) and status class.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "keyhold_http_request_duration_seconds",
    help: "Time from receiving a request to finishing its answer, by endpoint and status class.",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstream = new Histogram({
    name: "keyhold_bff_upstream_duration_seconds",
    help: "Time the upstream took to answer a call, by contract endpoint id and the upstream's status class (timeout, or error when the call failed otherwise: unreachable, broken off, not JSON).",
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const sessionsCreated = new Counter({
    name: "keyhold_bff_sessions_created_total",
    help: "Console sessions started by a successful sign-in.",
    registers: [registry],
  });
  const sessionsEnded = new Counter({
    name: "keyhold_bff_sessions_ended_total",
    help: "Console sessions ended, by reason: signed_out (sign-out, a new sign-in, or a token the upstream no longer accepts) or expired (idle or absolute timeout, noticed on use).",
    labelNames: ["reason"],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: "keyhold_sign_in_failures_total",
    help: "Console sign-ins (POST /bff/login) that failed, by status class (4xx: credentials refused or invalid; 5xx: upstream or session store unavailable). Rate-limited attempts are counted apart.",
    labelNames: ["status_class"],
    registers: [registry],
  });
  const ssoSignIns = new Counter({
    name: "keyhold_sso_sign_ins_total",
    help: "Single sign-on attempts by how they ended: signed_in, refused (by the provider, a check of the callback, the rules or the secrets service, or a provider that could not be reached), test_passed, test_failed. The callback answers 302 either way, so its status does not tell them apart.",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "keyhold_rate_limited_requests_total",
    help: "Requests refused with 429 by the rate limiter, by endpoint.",
    labelNames: ["endpoint"],
    registers: [registry],
  });
  return {
    registry,
    observeRequest(method: string, url: string | undefined, status: number, seconds: number): void {
      const endpoint = routeLabel(method, url, status);
      const labels = { endpoint, status_class: statusClass(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      if (status === 429) rateLimited.inc({ endpoint });
      else if (endpoint === "bff.login" && status >= 400) signInFailures.inc({ status_class: labels.status_class });
    },
    /** `outcome`: the upstream's HTTP status, or how the call failed without one. */
    observeUpstream(endpoint: string, outcome: number | "error" | "timeout", seconds: number): void {
      upstream.observe(
        { endpoint, status_class: typeof outcome === "number" ? statusClass(outcome) : outcome },
        seconds,
      );
    },
    sessionCreated(): void {
      sessionsCreated.inc();
    },
    sessionEnded(reason: "signed_out" | "expired"): void {
      sessionsEnded.inc({ reason });
    },
    ssoSignIn(outcome: SsoOutcome): void {
      ssoSignIns.inc({ outcome });
    },
  };
}

export type BffMetrics = ReturnType<typeof createBffMetrics>;

export type SsoOutcome = "signed_in" | "refused" | "test_passed" | "test_failed";

/** Counts every answered request (a callback hook: no promise per request). */
export function registerRequestMetrics(app: FastifyInstance, metrics: BffMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp as buildService } from "@keyhold/service/app";
import { loadConfig as loadServiceConfig } from "@keyhold/service/config";
import { sampleSum, scrapeMetrics } from "@keyhold/service/test/processes";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CSRF, JSON_CSRF, logIn, startBff, type TestBff, testConfig } from "../test/harness.ts";
import { routeLabel } from "./metrics.ts";

describe("metric labels", () => {
  it("name a request by its contract endpoint or a fixed word, never by its path", () => {
    expect(routeLabel("GET", "/api/v1/identities/:identityId", 200)).toBe("identities.get");
    expect(routeLabel("HEAD", "/api/v1/identities/:identityId", 200)).toBe("identities.get");
    expect(routeLabel("POST", "/bff/login", 401)).toBe("bff.login");
    expect(routeLabel("GET", "/readyz", 503)).toBe("readyz");
    // The `/api/*` catch-all and paths without a route are one label; the console's deep links are "web".
    expect(routeLabel("GET", "/api/*", 404)).toBe("unmatched");
    expect(routeLabel("GET", undefined, 404)).toBe("unmatched");
    expect(routeLabel("GET", undefined, 200)).toBe("web");
    expect(routeLabel("GET", "/*", 200)).toBe("web");
  });
});

describe("BFF metrics on their own listener", () => {
  let dataDir: string;
  let service: FastifyInstance;
  let adminToken: string;
  let bff: TestBff;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "keyhold-bff-metrics-"));
    service = await buildService({
      config: loadServiceConfig({ KEYHOLD_DATA_DIR: dataDir, LOG_LEVEL: "silent", METRICS_PORT: "0" }),
    });
    const serviceOrigin = await service.listen({ port: 0, host: "127.0.0.1" });
    adminToken = (await readFile(join(dataDir, "admin-token"), "utf8")).trim();
    bff = await startBff(
      testConfig({
        upstreamOrigin: serviceOrigin,
        loginRateLimit: { max: 3, windowMs: 60_000 },
        metrics: { host: "127.0.0.1", port: 0 },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await bff?.close();
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the named metrics after a few requests, labelled by endpoint id, never by path", async () => {
    const metricsUrl = bff.app.metricsUrl as string;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    // Never on the console's origin.
    expect((await bff.send({ path: "/metrics" })).status).toBe(404);

    const { cookie } = await logIn(bff, adminToken);
    expect((await bff.send({ path: "/bff/session", headers: { ...CSRF, cookie } })).status).toBe(200);
    const list = await bff.send({
      path: `/api/v1/identities?orgId=${service.keyhold.orgId}`,
      headers: { ...CSRF, cookie },
    });
    expect(list.status).toBe(200);
    expect((await bff.send({ path: "/api/v1/no-such-endpoint/42", headers: { ...CSRF, cookie } })).status).toBe(404);
    const refused = await bff.send({
      method: "POST",
      path: "/bff/login",
      headers: JSON_CSRF,
      body: JSON.stringify({ accessToken: "not-a-token" }),
    });
    expect(refused.status).toBe(401);
    expect((await bff.send({ method: "POST", path: "/bff/logout", headers: { ...CSRF, cookie } })).status).toBe(204);
    // The limit is 3 sign-in attempts a minute: the third passes the limiter, the fourth does not.
    const attempt = () =>
      bff.send({ method: "POST", path: "/bff/login", headers: JSON_CSRF, body: JSON.stringify({ accessToken: "x" }) });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429);

    const families = await scrapeMetrics(metricsUrl);
    const requests = (labels: Record<string, string>) => sampleSum(families, "keyhold_http_requests_total", labels);
    expect(requests({ endpoint: "identities.list", status_class: "2xx" })).toBe(1);
    expect(requests({ endpoint: "bff.login", status_class: "2xx" })).toBe(1);
    expect(requests({ endpoint: "bff.login", status_class: "4xx" })).toBe(3);
    expect(requests({ endpoint: "bff.session", status_class: "2xx" })).toBe(1);
    expect(requests({ endpoint: "bff.logout", status_class: "2xx" })).toBe(1);
    expect(requests({ endpoint: "unmatched", status_class: "4xx" })).toBe(2);
    expect(sampleSum(families, "keyhold_http_request_duration_seconds_count", { endpoint: "identities.list" })).toBe(1);
    expect(families.get("keyhold_http_request_duration_seconds")?.type).toBe("histogram");
    const endpointLabels = families.get("keyhold_http_requests_total")?.samples.map((s) => s.labels.endpoint ?? "");
    expect(endpointLabels?.some((label) => label.includes("/"))).toBe(false);

    // Upstream calls: the identity lookup at sign-in and the forwarded list.
    expect(
      sampleSum(families, "keyhold_bff_upstream_duration_seconds_count", {
        endpoint: "identities.get",
        status_class: "2xx",
      }),
    ).toBe(1);
    expect(
      sampleSum(families, "keyhold_bff_upstream_duration_seconds_count", {
        endpoint: "identities.list",
        status_class: "2xx",
      }),
    ).toBe(1);
    expect(sampleSum(families, "keyhold_bff_sessions_created_total")).toBe(1);
    expect(sampleSum(families, "keyhold_bff_sessions_ended_total", { reason: "signed_out" })).toBe(1);
    expect(sampleSum(families, "keyhold_sign_in_failures_total", { status_class: "4xx" })).toBe(2);
    expect(sampleSum(families, "keyhold_rate_limited_requests_total", { endpoint: "bff.login" })).toBe(1);
    expect(sampleSum(families, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sampleSum(families, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  }, 60_000);

  it("the example Grafana dashboard asks only for metrics the service and the BFF serve", async () => {
    const dashboard = await readFile(
      fileURLToPath(new URL("../../../deploy/grafana-dashboard.json", import.meta.url)),
      "utf8",
    );
    const asked = new Set(
      [...dashboard.matchAll(/\b((?:keyhold|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1] as string),
    );
    expect(asked.size).toBeGreaterThan(10);
    const [bffFamilies, serviceFamilies] = await Promise.all([
      scrapeMetrics(bff.app.metricsUrl as string),
      scrapeMetrics(service.metricsUrl as string),
    ]);
    const served = (series: string) =>
      [bffFamilies, serviceFamilies].some(
        (families) =>
          [...families.values()].some((family) => family.samples.some((sample) => sample.name === series)) ||
          families.has(series),
      );
    expect([...asked].filter((series) => !served(series))).toEqual([]);
  }, 60_000);
});

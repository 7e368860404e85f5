import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { sampleSum, scrapeMetrics } from "../test/processes.ts";

describeEachDatabase("Prometheus metrics on their own listener", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind, env: { METRICS_PORT: "0" } });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it("serves the named metrics after a few requests, labelled by endpoint id, never by path", async () => {
    const metricsUrl = svc.app.metricsUrl;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    // Not on the API listener.
    expect((await svc.call("GET", "/metrics", { token: null })).status).toBe(404);

    const identityId = svc.info.adminIdentityId;
    for (let i = 0; i < 3; i++) {
      expect((await svc.endpoint("identities.get", { params: { identityId } })).status).toBe(200);
    }
    expect((await svc.call("GET", "/api/v1/no-such-route/12345", { token: null })).status).toBe(404);
    expect((await svc.call("GET", "/readyz", { token: null })).status).toBe(200);
    const refused = await svc.endpoint(
      "universalAuth.login",
      { body: { clientId: "not-a-client", clientSecret: "not-a-secret" } },
      { token: null },
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    await svc.app.flushTokenUsage();

    const families = await scrapeMetrics(metricsUrl as string);
    expect(
      sampleSum(families, "keyhold_http_requests_total", { endpoint: "identities.get", status_class: "2xx" }),
    ).toBe(3);
    expect(sampleSum(families, "keyhold_http_request_duration_seconds_count", { endpoint: "identities.get" })).toBe(3);
    expect(families.get("keyhold_http_request_duration_seconds")?.type).toBe("histogram");
    // GET /metrics on the API listener and the made-up path.
    expect(sampleSum(families, "keyhold_http_requests_total", { endpoint: "unmatched", status_class: "4xx" })).toBe(2);
    expect(sampleSum(families, "keyhold_http_requests_total", { endpoint: "readyz", status_class: "2xx" })).toBe(1);
    expect(sampleSum(families, "keyhold_sign_in_failures_total", { endpoint: "universalAuth.login" })).toBe(1);
    expect(sampleSum(families, "keyhold_token_usage_flushes_total", { outcome: "written" })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(families, "keyhold_token_usage_flushed_tokens_total")).toBeGreaterThanOrEqual(1);
    expect(sampleSum(families, "keyhold_token_usage_pending_tokens")).toBe(0);
    // Labels are endpoint ids and fixed names: no raw path (and so no id from a path) ever appears.
    const endpointLabels = families.get("keyhold_http_requests_total")?.samples.map((m) => m.labels.endpoint ?? "");
    expect(endpointLabels?.some((label) => label.includes("/") || label.includes(identityId))).toBe(false);

    expect(sampleSum(families, "keyhold_db_info", { dialect: kind })).toBe(1);
    expect(sampleSum(families, "keyhold_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    if (kind === "postgres") {
      expect(
        families
          .get("keyhold_db_pool_connections")
          ?.samples.map((m) => m.labels.state)
          .sort(),
      ).toEqual(["idle", "total", "waiting"]);
    }
    // The default process metrics.
    expect(sampleSum(families, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sampleSum(families, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });
});

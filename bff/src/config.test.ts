import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({ KEYHOLD_WEB_DIST: "/nonexistent" });
    expect(config).toEqual({
      port: 8080,
      host: "127.0.0.1",
      upstreamOrigin: "http://127.0.0.1:8081",
      redisUrl: undefined,
      upstreamTimeoutMs: 15_000,
      sessionIdleMs: 15 * 60_000,
      sessionAbsoluteMs: 8 * 60 * 60_000,
      loginRateLimit: { max: 10, windowMs: 60_000 },
      webDistDir: undefined,
      logLevel: "info",
      metrics: undefined,
      shutdownGraceMs: 10_000,
    });
  });

  it("serves metrics on loopback unless told otherwise", () => {
    expect(loadConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      host: "0.0.0.0",
      port: 9464,
    });
    expect(() => loadConfig({ METRICS_PORT: "metrics" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ KEYHOLD_SHUTDOWN_GRACE_MS: "-1" })).toThrow(/KEYHOLD_SHUTDOWN_GRACE_MS/);
  });

  it("reads the environment", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      KEYHOLD_UPSTREAM_URL: "https://secrets.example.com/",
      REDIS_URL: "redis://127.0.0.1:6379",
      KEYHOLD_UPSTREAM_TIMEOUT_MS: "2500",
      KEYHOLD_SESSION_IDLE_MINUTES: "5",
    });
    expect(config).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      upstreamOrigin: "https://secrets.example.com",
      redisUrl: "redis://127.0.0.1:6379",
      upstreamTimeoutMs: 2500,
      sessionIdleMs: 5 * 60_000,
    });
  });

  it.each([
    ["an upstream with a path", { KEYHOLD_UPSTREAM_URL: "https://secrets.example.com/api" }],
    ["an upstream with credentials", { KEYHOLD_UPSTREAM_URL: "https://u:p@secrets.example.com" }],
    ["a non-HTTP upstream", { KEYHOLD_UPSTREAM_URL: "file:///etc/passwd" }],
    ["a bad port", { PORT: "http" }],
    ["an idle timeout longer than the absolute one", { KEYHOLD_SESSION_IDLE_MINUTES: "600" }],
  ])("refuses %s", (_, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });
});

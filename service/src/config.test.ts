import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, repoRoot } from "./config.ts";

describe("config", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 8081,
      host: "127.0.0.1",
      dataDir: path.join(repoRoot, ".keyhold"),
      databaseUrl: undefined,
      rootKey: undefined,
      logLevel: "info",
      tokenUsageFlushMs: 2_000,
      trustedProxies: [],
      metrics: undefined,
      shutdownGraceMs: 10_000,
    });
    expect(path.basename(repoRoot)).not.toBe("service");
  });

  it("serves metrics on loopback unless told otherwise, and bounds the shutdown grace", () => {
    expect(loadConfig({ METRICS_PORT: "9465" }).metrics).toEqual({ host: "127.0.0.1", port: 9465 });
    expect(loadConfig({ METRICS_PORT: "9465", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      host: "0.0.0.0",
      port: 9465,
    });
    expect(loadConfig({ KEYHOLD_SHUTDOWN_GRACE_MS: "2500" }).shutdownGraceMs).toBe(2500);
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ KEYHOLD_SHUTDOWN_GRACE_MS: "soon" })).toThrow(/KEYHOLD_SHUTDOWN_GRACE_MS/);
  });

  it("reads the environment once, treating empty values as unset", () => {
    const config = loadConfig({ PORT: "18081", HOST: "0.0.0.0", KEYHOLD_DATA_DIR: "/tmp/kh", DATABASE_URL: "" });
    expect(config).toMatchObject({ port: 18081, host: "0.0.0.0", dataDir: "/tmp/kh", databaseUrl: undefined });
  });

  it("refuses a bad port and a database URL that is not PostgreSQL", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/postgres/);
    expect(loadConfig({ DATABASE_URL: "postgresql://u@h/db" }).databaseUrl).toBe("postgresql://u@h/db");
  });

  it("reads KEYHOLD_TRUSTED_PROXIES as CIDR blocks, empty by default", () => {
    expect(loadConfig({ KEYHOLD_TRUSTED_PROXIES: "" }).trustedProxies).toEqual([]);
    expect(loadConfig({ KEYHOLD_TRUSTED_PROXIES: " , " }).trustedProxies).toEqual([]);
    const config = loadConfig({
      KEYHOLD_TRUSTED_PROXIES: "127.0.0.2, 10.0.0.0/8,::1 , fd00::/8, ::ffff:192.0.2.7, ::ffff:10.0.0.0/104",
    });
    expect(config.trustedProxies).toEqual([
      "127.0.0.2/32",
      "10.0.0.0/8",
      "::1/128",
      "fd00::/8",
      "192.0.2.7/32",
      "10.0.0.0/8",
    ]);
  });

  it.each([
    "bff.internal",
    "10",
    "0x7f.0.0.1",
    "10.0.0.0/33",
    "127.0.0.1/",
    "::1/129",
    "10.0.0.1 10.0.0.2",
    "::ffff:10.0.0.0/8",
  ])("refuses the trusted proxy entry %j, naming the variable", (entry) => {
    expect(() => loadConfig({ KEYHOLD_TRUSTED_PROXIES: `127.0.0.2,${entry}` })).toThrow(ConfigError);
    expect(() => loadConfig({ KEYHOLD_TRUSTED_PROXIES: `127.0.0.2,${entry}` })).toThrow(
      `KEYHOLD_TRUSTED_PROXIES: "${entry}" is not an IPv4 or IPv6 address or CIDR block`,
    );
  });
});

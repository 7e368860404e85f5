import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, repoRoot } from "./config.ts";

describe("config", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      nodeEnv: "development",
      port: 8081,
      host: "127.0.0.1",
      dataDir: path.join(repoRoot, ".keyhold"),
      databaseUrl: undefined,
      rootKey: undefined,
      logLevel: "info",
      logFormat: undefined,
      tokenUsageFlushMs: 2_000,
      trustedProxies: [],
      metrics: undefined,
      shutdownGraceMs: 10_000,
      auditPruneIntervalMs: 3_600_000,
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
    expect(loadConfig({ KEYHOLD_AUDIT_PRUNE_INTERVAL_MS: "60000" }).auditPruneIntervalMs).toBe(60_000);
    expect(() => loadConfig({ KEYHOLD_AUDIT_PRUNE_INTERVAL_MS: "10" })).toThrow(/KEYHOLD_AUDIT_PRUNE_INTERVAL_MS/);
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

  /** The one-line message a start-up with this environment fails with. */
  function failure(env: Record<string, string>): string {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error("the configuration was accepted");
  }

  const key = randomBytes(32);

  it.each([
    ["DATABASE_URL", "mysql://db.internal/keyhold", "must be a postgres:// or postgresql:// URL, not mysql://"],
    [
      "DATABASE_URL",
      "postgres.internal:5432/keyhold",
      "must be a postgres:// or postgresql:// URL, not postgres.internal:",
    ],
    ["DATABASE_URL", "postgres://", "must name a host"],
    ["DATABASE_URL", "not a url", "must be a postgres:// or postgresql:// URL (it does not parse as a URL)"],
    ["KEYHOLD_ROOT_KEY", randomBytes(16).toString("base64"), "must encode exactly 32 bytes"],
    ["KEYHOLD_ROOT_KEY", randomBytes(31).toString("hex"), "must encode exactly 32 bytes"],
    ["KEYHOLD_ROOT_KEY", `${key.toString("base64").slice(0, 40)}!!!=`, "must encode exactly 32 bytes"],
    ["NODE_ENV", "prod", "must be one of development, production, test"],
    ["PORT", "http", "must be a port number (0-65535)"],
    ["PORT", "65536", "must be a port number (0-65535)"],
    ["METRICS_PORT", "-1", "must be a port number (0-65535)"],
    ["HOST", "0.0.0.0:8081 extra", "must be an address or host name"],
    ["LOG_LEVEL", "verbose", "must be one of fatal, error, warn, info, debug, trace, silent"],
    ["LOG_FORMAT", "xml", "must be one of json, pretty"],
  ])("refuses %s=%j in one line naming the variable", (name, value, reason) => {
    const message = failure({ [name]: value });
    expect(message).toContain(`${name}: ${reason}`);
    expect(message.startsWith("Invalid configuration: ")).toBe(true);
    expect(message).not.toContain("\n");
  });

  it("never repeats a database URL, which may hold a password, in its message", () => {
    const message = failure({ DATABASE_URL: "mysql://keyhold:hunter2-password@db.internal/keyhold" });
    expect(message).toContain("DATABASE_URL:");
    expect(message).not.toContain("hunter2-password");
  });

  it("names every wrong variable at once", () => {
    const message = failure({ PORT: "x", NODE_ENV: "staging", DATABASE_URL: "sqlite://file" });
    expect(message).toMatch(/NODE_ENV: .*PORT: .*DATABASE_URL: |NODE_ENV: .*DATABASE_URL: .*PORT: /);
  });

  it("accepts the root key as base64 (standard or URL-safe) or hex, and a socket-directory PostgreSQL URL", () => {
    for (const text of [key.toString("base64"), key.toString("base64url"), key.toString("hex")]) {
      expect(loadConfig({ KEYHOLD_ROOT_KEY: text }).rootKey).toBe(text);
    }
    const socket = "postgresql:///keyhold?host=/var/run/postgresql";
    expect(loadConfig({ DATABASE_URL: socket }).databaseUrl).toBe(socket);
    expect(loadConfig({ DATABASE_URL: ` ${socket}\t` }).databaseUrl).toBe(socket);
  });

  describe("in production", () => {
    it("refuses to start without an explicit root key", () => {
      expect(failure({ NODE_ENV: "production" })).toBe(
        "Invalid configuration: KEYHOLD_ROOT_KEY: required when NODE_ENV=production: set KEYHOLD_ROOT_KEY or KEYHOLD_ROOT_KEY_FILE (make one with: openssl rand -base64 32)",
      );
      const config = loadConfig({ NODE_ENV: "production", KEYHOLD_ROOT_KEY: key.toString("base64") });
      expect(config).toMatchObject({ nodeEnv: "production", rootKey: key.toString("base64") });
    });

    it("reads the root key and the database URL from files (container secrets)", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-config-"));
      try {
        fs.writeFileSync(path.join(dir, "root-key"), `${key.toString("base64")}\n`);
        fs.writeFileSync(path.join(dir, "database-url"), "postgres://keyhold:pw@db:5432/keyhold\n");
        const config = loadConfig({
          NODE_ENV: "production",
          KEYHOLD_ROOT_KEY_FILE: path.join(dir, "root-key"),
          DATABASE_URL_FILE: path.join(dir, "database-url"),
        });
        expect(config).toMatchObject({
          rootKey: key.toString("base64"),
          databaseUrl: "postgres://keyhold:pw@db:5432/keyhold",
        });

        fs.writeFileSync(path.join(dir, "short-key"), randomBytes(8).toString("base64"));
        expect(failure({ KEYHOLD_ROOT_KEY_FILE: path.join(dir, "short-key") })).toContain(
          "KEYHOLD_ROOT_KEY: must encode exactly 32 bytes",
        );
        expect(failure({ KEYHOLD_ROOT_KEY_FILE: path.join(dir, "missing") })).toBe(
          `Invalid configuration: KEYHOLD_ROOT_KEY_FILE: cannot read ${path.join(dir, "missing")} (ENOENT)`,
        );
        expect(
          failure({ KEYHOLD_ROOT_KEY: key.toString("hex"), KEYHOLD_ROOT_KEY_FILE: path.join(dir, "root-key") }),
        ).toBe(
          "Invalid configuration: KEYHOLD_ROOT_KEY_FILE: set either KEYHOLD_ROOT_KEY or KEYHOLD_ROOT_KEY_FILE, not both",
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

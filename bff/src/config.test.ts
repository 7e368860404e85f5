import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({ KEYHOLD_WEB_DIST: "/nonexistent" });
    expect(config).toEqual({
      nodeEnv: "development",
      port: 8080,
      host: "127.0.0.1",
      upstreamOrigin: "http://127.0.0.1:8081",
      redisUrl: undefined,
      insecureCookies: false,
      upstreamTimeoutMs: 15_000,
      sessionIdleMs: 15 * 60_000,
      sessionAbsoluteMs: 8 * 60 * 60_000,
      loginRateLimit: { max: 10, windowMs: 60_000 },
      webDistDir: undefined,
      logLevel: "info",
      logFormat: undefined,
      metrics: undefined,
      shutdownGraceMs: 10_000,
      trustedProxies: [],
      publicUrl: undefined,
      oidc: undefined,
      credentialSignIn: true,
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

  it.each([
    ["KEYHOLD_UPSTREAM_URL", "secrets.example.com", "must be an http:// or https:// origin"],
    ["KEYHOLD_UPSTREAM_URL", "ftp://secrets.example.com", "must be an http:// or https:// origin"],
    ["KEYHOLD_UPSTREAM_URL", "https://secrets.example.com/api", "must be an origin such as"],
    ["REDIS_URL", "localhost:6379", "must be a redis:// or rediss:// URL, not localhost:"],
    ["REDIS_URL", "http://redis:6379", "must be a redis:// or rediss:// URL, not http://"],
    ["REDIS_URL", "redis://", "must name a host"],
    ["NODE_ENV", "staging", "must be one of development, production, test"],
    ["PORT", "8080.5", "must be a port number (0-65535)"],
    ["METRICS_PORT", "99999", "must be a port number (0-65535)"],
    ["KEYHOLD_INSECURE_COOKIES", "maybe", "must be true or false"],
    ["KEYHOLD_TRUSTED_PROXIES", "10.0.0.1, nginx", '"nginx" is not an IPv4 or IPv6 address or CIDR block'],
    ["KEYHOLD_SESSION_IDLE_MINUTES", "600", "cannot exceed KEYHOLD_SESSION_ABSOLUTE_MINUTES"],
  ])("refuses %s=%j in one line naming the variable", (name, value, reason) => {
    const message = failure({ KEYHOLD_WEB_DIST: "/nonexistent", [name]: value });
    expect(message).toContain(`${name}: ${reason}`);
    expect(message.startsWith("Invalid configuration: ")).toBe(true);
    expect(message).not.toContain("\n");
  });

  it("never repeats a Redis URL, which may hold a password, in its message", () => {
    const message = failure({ REDIS_URL: "http://:hunter2-password@redis:6379" });
    expect(message).toContain("REDIS_URL:");
    expect(message).not.toContain("hunter2-password");
  });

  it("keeps session cookies Secure unless told the console is served over plain HTTP on purpose", () => {
    expect(loadConfig({ NODE_ENV: "production" }).insecureCookies).toBe(false);
    expect(loadConfig({ KEYHOLD_INSECURE_COOKIES: "false" }).insecureCookies).toBe(false);
    expect(loadConfig({ KEYHOLD_INSECURE_COOKIES: "true" }).insecureCookies).toBe(true);
    expect(loadConfig({ KEYHOLD_INSECURE_COOKIES: "1" }).insecureCookies).toBe(true);
  });

  it("reads REDIS_URL from a file (a container secret), not both", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-bff-config-"));
    try {
      const file = path.join(dir, "redis-url");
      fs.writeFileSync(file, "redis://:pw@redis:6379\n");
      expect(loadConfig({ REDIS_URL_FILE: file }).redisUrl).toBe("redis://:pw@redis:6379");
      expect(failure({ REDIS_URL_FILE: file, REDIS_URL: "redis://redis:6379" })).toBe(
        "Invalid configuration: REDIS_URL_FILE: set either REDIS_URL or REDIS_URL_FILE, not both",
      );
      expect(failure({ REDIS_URL_FILE: path.join(dir, "missing") })).toContain("REDIS_URL_FILE: cannot read");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("KEYHOLD_TRUSTED_PROXIES", () => {
  it("reads addresses and CIDR blocks as blocks, and trusts no proxy when unset", () => {
    const read = (value?: string) =>
      loadConfig({ KEYHOLD_WEB_DIST: "/nonexistent", ...(value !== undefined && { KEYHOLD_TRUSTED_PROXIES: value }) })
        .trustedProxies;
    expect(read()).toEqual([]);
    expect(read("10.0.0.5, 172.16.0.0/12,::1, ::ffff:10.1.0.0/112")).toEqual([
      "10.0.0.5/32",
      "172.16.0.0/12",
      "::1/128",
      "10.1.0.0/16",
    ]);
  });
});

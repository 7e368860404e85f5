import { generateKeyPairSync } from "node:crypto";
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

describe("single sign-on (KEYHOLD_OIDC_*)", () => {
  const ISSUER = "https://id.acme.test";
  const IDENTITY = "2b1f3c84-5a44-4a8f-9c5b-0d4c3a8e7f11";
  const OTHER = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  const base = { KEYHOLD_OIDC_ISSUER: ISSUER, KEYHOLD_OIDC_CLIENT_ID: "console", KEYHOLD_OIDC_CLIENT_SECRET: "s3cret" };
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return "no error";
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it("is off without an issuer, and then takes no other OIDC variable", () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(problem({ KEYHOLD_OIDC_CLIENT_ID: "console" })).toBe(
      "Invalid configuration: KEYHOLD_OIDC_ISSUER: is required when KEYHOLD_OIDC_CLIENT_ID is set",
    );
  });

  it("has the documented defaults, and runs test sign-ins only until an identity or rules are given", () => {
    expect(loadConfig(base).oidc).toEqual({
      issuer: ISSUER,
      clientId: "console",
      clientAuth: { method: "client_secret_basic", secret: "s3cret" },
      scopes: ["openid", "email", "profile", "offline_access"],
      identityId: undefined,
      rules: [],
      providerName: "id.acme.test",
      mode: "test-only",
    });
    const on = loadConfig({ ...base, KEYHOLD_OIDC_IDENTITY_ID: IDENTITY, KEYHOLD_OIDC_PROVIDER_NAME: "Acme ID" }).oidc;
    expect(on).toMatchObject({ mode: "on", identityId: IDENTITY, providerName: "Acme ID" });
  });

  it("reads the rules as JSON, from a file too, and refuses malformed ones", () => {
    const rules = [{ name: "platform", claim: "groups", values: "platform,ops-*", identityId: OTHER }];
    expect(loadConfig({ ...base, KEYHOLD_OIDC_IDENTITY_RULES: JSON.stringify(rules) }).oidc).toMatchObject({
      mode: "on",
      rules,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-bff-oidc-"));
    try {
      const file = path.join(dir, "rules.json");
      fs.writeFileSync(file, JSON.stringify(rules));
      expect(loadConfig({ ...base, KEYHOLD_OIDC_IDENTITY_RULES_FILE: file }).oidc?.rules).toEqual(rules);
      const secret = path.join(dir, "secret");
      fs.writeFileSync(secret, "from-a-file\n");
      const fromFile = { ...base, KEYHOLD_OIDC_CLIENT_SECRET: "", KEYHOLD_OIDC_CLIENT_SECRET_FILE: secret };
      expect(loadConfig(fromFile).oidc?.clientAuth).toEqual({ method: "client_secret_basic", secret: "from-a-file" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(problem({ ...base, KEYHOLD_OIDC_IDENTITY_RULES: "[{" })).toContain(
      "KEYHOLD_OIDC_IDENTITY_RULES: must be a JSON array of rules",
    );
    expect(problem({ ...base, KEYHOLD_OIDC_IDENTITY_RULES: '[{"name":"x","claim":"groups"}]' })).toContain(
      "KEYHOLD_OIDC_IDENTITY_RULES.0.values",
    );
  });

  it("needs a client ID and exactly one way to authenticate the client", () => {
    expect(problem({ KEYHOLD_OIDC_ISSUER: ISSUER, KEYHOLD_OIDC_CLIENT_SECRET: "s" })).toContain(
      "KEYHOLD_OIDC_CLIENT_ID: is required",
    );
    expect(problem({ KEYHOLD_OIDC_ISSUER: ISSUER, KEYHOLD_OIDC_CLIENT_ID: "console" })).toContain(
      "set one of KEYHOLD_OIDC_CLIENT_SECRET(_FILE) or KEYHOLD_OIDC_PRIVATE_KEY_FILE",
    );
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const jwk = JSON.stringify(privateKey.export({ format: "jwk" }));
    expect(problem({ ...base, KEYHOLD_OIDC_PRIVATE_KEY: pem })).toContain(
      "set one of KEYHOLD_OIDC_CLIENT_SECRET(_FILE) or KEYHOLD_OIDC_PRIVATE_KEY_FILE",
    );
    const signed = { KEYHOLD_OIDC_ISSUER: ISSUER, KEYHOLD_OIDC_CLIENT_ID: "console" };
    expect(loadConfig({ ...signed, KEYHOLD_OIDC_PRIVATE_KEY: pem }).oidc?.clientAuth).toEqual({
      method: "private_key_jwt",
      privateKey: pem.trimEnd(),
    });
    expect(loadConfig({ ...signed, KEYHOLD_OIDC_PRIVATE_KEY: jwk }).oidc?.clientAuth.method).toBe("private_key_jwt");
    expect(problem({ ...signed, KEYHOLD_OIDC_PRIVATE_KEY: "-----BEGIN PRIVATE KEY-----" })).toBe(
      "Invalid configuration: KEYHOLD_OIDC_PRIVATE_KEY_FILE: must hold a private key, as PEM (PKCS#8) or as a JWK",
    );
    const publicJwk = JSON.stringify(
      generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" }),
    );
    expect(problem({ ...signed, KEYHOLD_OIDC_PRIVATE_KEY: publicJwk })).toContain("must hold a private key");
  });

  it("takes plain http:// issuers on loopback only, and scopes that include openid", () => {
    expect(loadConfig({ ...base, KEYHOLD_OIDC_ISSUER: "http://127.0.0.1:9000" }).oidc?.issuer).toBe(
      "http://127.0.0.1:9000",
    );
    expect(loadConfig({ ...base, KEYHOLD_OIDC_ISSUER: "http://localhost:9000/realms/acme" }).oidc?.issuer).toBe(
      "http://localhost:9000/realms/acme",
    );
    expect(problem({ ...base, KEYHOLD_OIDC_ISSUER: "http://id.acme.test" })).toContain(
      "KEYHOLD_OIDC_ISSUER: must use https://",
    );
    expect(problem({ ...base, KEYHOLD_OIDC_ISSUER: "ftp://id.acme.test" })).toContain("KEYHOLD_OIDC_ISSUER");
    expect(loadConfig({ ...base, KEYHOLD_OIDC_SCOPES: " openid  email groups " }).oidc?.scopes).toEqual([
      "openid",
      "email",
      "groups",
    ]);
    expect(problem({ ...base, KEYHOLD_OIDC_SCOPES: "email" })).toContain("KEYHOLD_OIDC_SCOPES: must include openid");
    expect(problem({ ...base, KEYHOLD_OIDC_IDENTITY_ID: "not-a-uuid" })).toContain("KEYHOLD_OIDC_IDENTITY_ID");
  });

  it("switches the credential forms off only when single sign-on is on for everyone", () => {
    expect(loadConfig({}).credentialSignIn).toBe(true);
    expect(
      loadConfig({ ...base, KEYHOLD_OIDC_IDENTITY_ID: IDENTITY, KEYHOLD_CREDENTIAL_SIGN_IN: "false" }).credentialSignIn,
    ).toBe(false);
    expect(problem({ KEYHOLD_CREDENTIAL_SIGN_IN: "false" })).toContain("KEYHOLD_CREDENTIAL_SIGN_IN: can be false only");
    expect(problem({ ...base, KEYHOLD_CREDENTIAL_SIGN_IN: "false" })).toContain("KEYHOLD_CREDENTIAL_SIGN_IN");
  });

  it("reads KEYHOLD_PUBLIC_URL as an origin", () => {
    expect(loadConfig({ KEYHOLD_PUBLIC_URL: "https://keyhold.acme.test/" }).publicUrl).toBe(
      "https://keyhold.acme.test",
    );
    expect(problem({ KEYHOLD_PUBLIC_URL: "keyhold.acme.test" })).toContain("KEYHOLD_PUBLIC_URL");
  });
});

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
    });
    expect(path.basename(repoRoot)).not.toBe("service");
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
});

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./config.ts";
import { startServerProcess } from "./test/processes.ts";

/**
 * The service and the BFF started as processes (from source, the way `pnpm start` runs them)
 * with a wrong environment: each must stop at once with exit code 1 and one line on stderr
 * naming the variable, before it opens a database or a port.
 */

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-startup-"));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a server with this environment until it exits by itself (or fails the test after a minute). */
function runToExit(which: "service" | "bff", env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=@keyhold/source", "--import", "tsx", path.join(repoRoot, which, "src/server.ts")],
      {
        cwd: repoRoot,
        // PORT 0 and a data dir of its own: a configuration that wrongly passed would start harmlessly.
        env: { PATH: process.env.PATH, PORT: "0", KEYHOLD_DATA_DIR: dataDir, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${which} did not exit within a minute:\n${stdout}${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const shortKey = randomBytes(16).toString("base64");

describe("a wrong environment stops the process with one line naming the variable", () => {
  it.each([
    ["service", "DATABASE_URL", { DATABASE_URL: "mysql://keyhold:pw@db/keyhold" }],
    ["service", "KEYHOLD_ROOT_KEY", { KEYHOLD_ROOT_KEY: shortKey }],
    ["service", "KEYHOLD_ROOT_KEY", { NODE_ENV: "production" }],
    ["service", "NODE_ENV", { NODE_ENV: "prod" }],
    ["service", "PORT", { PORT: "eighty" }],
    ["service", "KEYHOLD_DATA_DIR", { KEYHOLD_DATA_DIR: "/dev/null/keyhold" }],
    ["bff", "KEYHOLD_UPSTREAM_URL", { KEYHOLD_UPSTREAM_URL: "service:8081" }],
    ["bff", "REDIS_URL", { REDIS_URL: "localhost:6379" }],
    ["bff", "NODE_ENV", { NODE_ENV: "staging" }],
    ["bff", "METRICS_PORT", { METRICS_PORT: "70000" }],
  ] as const)(
    "%s: %s",
    async (which, name, env) => {
      const { code, stdout, stderr } = await runToExit(which, env);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      const lines = stderr.split("\n").filter((line) => line !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: (.*; )?${name}: `));
      // A wrong URL or key is not echoed: it may hold a password, or be most of a key.
      for (const secret of ["DATABASE_URL", "KEYHOLD_ROOT_KEY", "REDIS_URL"]) {
        const value = (env as Record<string, string>)[secret];
        if (value) expect(stderr).not.toContain(value);
      }
    },
    90_000,
  );
});

describe("in production", () => {
  it("the service starts with its root key from a file and writes JSON lines, not pretty ones", async () => {
    const keyFile = path.join(dataDir, "root-key-secret");
    fs.writeFileSync(keyFile, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    const prodDataDir = fs.mkdtempSync(path.join(dataDir, "prod-"));
    const server = await startServerProcess("service", {
      NODE_ENV: "production",
      KEYHOLD_ROOT_KEY_FILE: keyFile,
      KEYHOLD_DATA_DIR: prodDataDir,
      LOG_FORMAT: undefined,
    });
    try {
      expect((await fetch(`${server.url}/api/status`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    // No key file was made in the data dir: the configured key is the only one.
    expect(fs.existsSync(path.join(prodDataDir, "root-key"))).toBe(false);
    expect(fs.existsSync(path.join(prodDataDir, "admin-token"))).toBe(true);
  });

  it("LOG_FORMAT=pretty gives readable lines instead", async () => {
    const server = await startServerProcess("bff", { LOG_FORMAT: "pretty", NODE_ENV: "development" });
    expect(await server.stop()).toBe(0);
    const output = server.output();
    expect(output).toContain("Keyhold BFF ready");
    expect(output.split("\n").some((line) => line.startsWith("{"))).toBe(false);
  });
});

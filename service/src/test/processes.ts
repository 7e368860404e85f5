import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../config.ts";

/**
 * Real processes for operations tests: the service and the BFF started from source the way
 * `pnpm start` does (node with the tsx loader), and a PostgreSQL and a Redis of their own that
 * a test can stop and start again on the same port. Shared with the BFF's tests through the
 * package's `./test/processes` export.
 */

const run = promisify(execFile);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns true; fails with `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await pause(100);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<number | null>;
  /** Sends SIGTERM unless it has exited, and waits for the exit. */
  stop(): Promise<number | null>;
}

/**
 * Starts `service` or `bff` from source on a free loopback port and waits until its
 * /healthz answers. `env` adds to (and overrides) this process's environment.
 */
export async function startServerProcess(
  which: "service" | "bff",
  env: Record<string, string | undefined>,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["--conditions=@keyhold/source", "--import", "tsx", path.join(repoRoot, which, "src/server.ts")],
    {
      cwd: repoRoot,
      env: { ...process.env, LOG_LEVEL: "info", ...env, PORT: String(port), HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntil(
      `${which} at ${url}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`${which} exited with ${child.exitCode}:\n${text}`);
        return (await fetch(`${url}/healthz`)).ok;
      },
      60_000,
    );
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${which} did not start: ${error instanceof Error ? error.message : error}\n${text}`);
  }
  return {
    url,
    child,
    output: () => text,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface StoppableServer {
  url: string;
  /** Stops the server, keeping its data and port. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  destroy(): Promise<void>;
}

const PGBIN = process.env.PGBIN ?? "/usr/lib/postgresql/15/bin";

/** A PostgreSQL cluster of its own (as scripts/postgres.sh makes), so stopping it disturbs no other test. */
export async function startPostgres(): Promise<StoppableServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-pg-"));
  const asRoot = process.getuid?.() === 0;
  const pgCommand = (binary: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(PGBIN, binary), ...args])
      : run(path.join(PGBIN, binary), args);
  if (asRoot) await run("chown", ["postgres:", dir]);
  await pgCommand("initdb", ["-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const start = async () => {
    await pgCommand("pg_ctl", [
      "-D",
      dir,
      "-l",
      path.join(dir, "log"),
      "-o",
      `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
      "-w",
      "start",
    ]);
  };
  const stop = async () => {
    await pgCommand("pg_ctl", ["-D", dir, "-m", "fast", "-w", "stop"]);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy: async () => {
      await stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis of its own (as scripts/redis.sh makes), in the foreground so a test can stop and restart it. */
export async function startRedis(): Promise<StoppableServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "keyhold-redis-"));
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(
      "redis-server",
      ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    server = child;
    await waitUntil(
      `redis on ${port}`,
      () =>
        new Promise<boolean>((resolve) => {
          if (child.exitCode !== null) return resolve(false);
          run("redis-cli", ["-p", String(port), "ping"]).then(
            ({ stdout }) => resolve(stdout.trim() === "PONG"),
            () => resolve(false),
          );
        }),
    );
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    destroy: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface MetricSample {
  /** The series name: a family's name, or for histograms `<family>_bucket`, `_sum` and `_count`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  type: string;
  help: string;
  samples: MetricSample[];
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL_PAIR = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

/**
 * Reads Prometheus' text exposition format (version 0.0.4) strictly: every line must be a HELP,
 * a TYPE, or a sample of a declared family, or the parse fails. (The npm parsers tried drop the
 * labels of labelled histograms, which are exactly what these tests read.)
 */
export function parseExposition(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const familyOf = (series: string) => families.get(series) ?? families.get(series.replace(/_(bucket|sum|count)$/, ""));
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name = "", rest = ""] = meta;
      const family = families.get(name) ?? { type: "untyped", help: "", samples: [] };
      if (kind === "HELP") family.help = rest;
      else family.type = rest;
      families.set(name, family);
      continue;
    }
    const sample = SAMPLE_LINE.exec(line);
    const family = sample && familyOf(sample[1] ?? "");
    if (!sample || !family) throw new Error(`Not a line of Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    const pairs = sample[2] ?? "";
    LABEL_PAIR.lastIndex = 0;
    for (let pair = LABEL_PAIR.exec(pairs); pair; pair = LABEL_PAIR.exec(pairs)) {
      labels[pair[1] as string] = (pair[2] as string).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    }
    if (LABEL_PAIR.lastIndex !== 0 && LABEL_PAIR.lastIndex !== pairs.length) throw new Error(`Bad labels: ${line}`);
    family.samples.push({ name: sample[1] as string, labels, value: Number(sample[3]) });
  }
  return families;
}

/** The metrics a listener serves, parsed from Prometheus' text format, by family name. */
export async function scrapeMetrics(url: string): Promise<Map<string, MetricFamily>> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/plain")) throw new Error(`${url} answered ${type}, not Prometheus text`);
  return parseExposition(await response.text());
}

/**
 * The sum of the samples of one series (`keyhold_http_requests_total`, or a histogram's
 * `…_count`) whose labels include `labels`. Fails when no family declares the series.
 */
export function sampleSum(
  families: Map<string, MetricFamily>,
  series: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(series) ?? families.get(series.replace(/_(bucket|sum|count)$/, ""));
  if (!family) throw new Error(`No metric family declares ${series}`);
  return family.samples
    .filter((s) => s.name === series && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}

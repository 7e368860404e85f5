import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { repoRoot } from "./system.ts";

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

export interface Started {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a program with its output kept out of the table (errors still reach stderr). */
export function startProgram(
  name: string,
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; stdout?: "ignore" | "inherit" } = {},
): Started {
  const child = spawn(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", options.stdout ?? "ignore", "inherit"],
  });
  child.on("error", (error) => console.error(`${name}:`, error));
  return {
    name,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** Starts a TypeScript entry of the workspace under Node with tsx, as the start script does. */
export function startNode(name: string, entry: string, env: Record<string, string>): Started {
  return startProgram(name, process.execPath, ["--conditions=@keyhold/source", "--import", "tsx", entry], {
    env: { LOG_LEVEL: "info", ...env },
  });
}

export async function waitForUrl(url: string, started: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`${started.name} exited with code ${started.child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${started.name} did not answer at ${url}`);
}

/** Stops everything started, last first, whatever happens to the case. */
export class Processes {
  readonly #started: Started[] = [];

  add(started: Started): Started {
    this.#started.push(started);
    return started;
  }

  async stopAll(): Promise<void> {
    for (const started of this.#started.reverse()) await started.stop();
    this.#started.length = 0;
  }
}

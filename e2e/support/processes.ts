import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";

/** The stack's processes for the suites' global setups: started from sources, on free loopback ports. */
const root = resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function waitFor(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} did not answer at ${url}`);
}

export function start(name: string, entry: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ["--conditions=@keyhold/source", "--import", "tsx", entry, ...args], {
    cwd: root,
    env: { ...process.env, ...env, LOG_LEVEL: process.env.KEYHOLD_E2E_LOG_LEVEL ?? "warn" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("error", (error) => console.error(`${name}:`, error));
  return child;
}

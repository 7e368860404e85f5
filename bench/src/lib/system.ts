import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root: bench/src/lib → ../../.. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function asRoot(args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [command, ...rest] = isRoot ? args : ["sudo", ...args];
  execFileSync(command as string, rest, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

/**
 * Installs Debian packages whose command is missing. Each entry maps a command (or an
 * absolute path) to the package that provides it.
 */
export function ensureDebianPackages(needs: Record<string, string>): void {
  const missing = Object.entries(needs)
    .filter(([command]) => (command.startsWith("/") ? !existsSync(command) : !onPath(command)))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  console.error(`installing Debian packages: ${missing.join(" ")}`);
  asRoot(["apt-get", "update", "-qq"]);
  asRoot(["apt-get", "install", "-y", "-qq", ...missing]);
}

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of local server processes, read from /proc: a figure that other work on a shared
 * machine disturbs far less than throughput, which it halves.
 */

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime: the process's own CPU and that of the children it reaped. */
  ticks: number;
}

function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the command name, which may hold spaces: state ppid … utime stime cutime cstime (14–17).
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const field = (n: number) => Number(fields[n - 3]);
  return { ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
}

/** The process listening on a loopback TCP port (as root, or for one's own processes). */
export function listeningPid(port: number): number | undefined {
  try {
    const out = execFileSync("ss", ["-Hltnp", `sport = :${port}`], { encoding: "utf8" });
    const pid = /pid=(\d+)/.exec(out)?.[1];
    return pid ? Number(pid) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds a process and all its descendants have used so far. Each living process counts its
 * own time and its reaped children's, so a backend that exits between two readings stays counted.
 */
export function treeCpuSeconds(root: number): number {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) stats.set(Number(entry), stat);
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (p === root) return true;
      p = stats.get(p)?.ppid;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return ticks / ticksPerSecond;
}

/** The port of an http:// or postgres:// URL on this machine, or undefined when it is elsewhere. */
export function localPort(url: string): number | undefined {
  const parsed = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname)) return undefined;
  return Number(parsed.port) || (parsed.protocol === "postgres:" ? 5432 : 80);
}

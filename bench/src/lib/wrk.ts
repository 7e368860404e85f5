import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { median, type ResultRow } from "./result.ts";
import { ensureDebianPackages } from "./system.ts";

const run = promisify(execFile);

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
  /** How long one answer may take before wrk counts a timeout (which fails the run); 10 s by default. */
  timeoutSeconds?: number;
  /** A Lua script that shapes the requests (method, body, paths). */
  script?: string;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** The load generator's settings, as the issue measured them: one thread, 32 connections, 4 s. */
export const defaultLoad = { connections: 32, durationSeconds: 4, rounds: 3 };

export function ensureWrk(): void {
  ensureDebianPackages({ wrk: "wrk" });
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  switch (unit) {
    case "us":
      return n / 1000;
    case "ms":
      return n;
    case "s":
      return n * 1000;
    default:
      throw new Error(`unknown wrk latency unit ${unit}`);
  }
}

/** Reads wrk's --latency report; a run with errors or non-2xx answers is refused, not averaged. */
export function parseWrk(output: string): LoadFigures {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(output);
  if (!rps?.[1] || !p50?.[1] || !p50[2] || !p99?.[1] || !p99[2]) throw new Error(`unreadable wrk output:\n${output}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  if (non2xx) throw new Error(`${non2xx[1]} answers were not 2xx:\n${output}`);
  const socketErrors = /Socket errors:.*/.exec(output);
  if (socketErrors) throw new Error(`socket errors during the run: ${socketErrors[0]}`);
  return { requestsPerSecond: Number(rps[1]), p50Ms: toMs(p50[1], p50[2]), p99Ms: toMs(p99[1], p99[2]) };
}

export async function load(options: LoadOptions): Promise<LoadFigures> {
  const args = [
    "-t1",
    `-c${options.connections ?? defaultLoad.connections}`,
    `-d${options.durationSeconds ?? defaultLoad.durationSeconds}s`,
    `--timeout=${options.timeoutSeconds ?? 10}s`,
    "--latency",
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}: ${value}`);
  if (options.script) args.push("-s", options.script);
  args.push(options.url);
  const { stdout } = await run("wrk", args, { maxBuffer: 1 << 20 });
  return parseWrk(stdout);
}

/** A contender in a comparison: how to load it, under a name for the table. */
export interface Contender {
  name: string;
  options: LoadOptions;
}

/**
 * Loads Keyhold and its floor in alternating rounds (so drift on the machine hits both
 * alike), with a short warm-up each, and reports medians as table rows.
 */
export async function compare(
  caseName: string,
  keyhold: Contender,
  reference: Contender,
  rounds = defaultLoad.rounds,
): Promise<ResultRow[]> {
  const figures: { keyhold: LoadFigures[]; reference: LoadFigures[] } = { keyhold: [], reference: [] };
  for (const contender of [keyhold, reference]) await load({ ...contender.options, durationSeconds: 1 });
  for (let round = 0; round < rounds; round++) {
    figures.keyhold.push(await load(keyhold.options));
    figures.reference.push(await load(reference.options));
    const last = (list: LoadFigures[]) => list[list.length - 1] as LoadFigures;
    console.error(
      `  ${caseName} round ${round + 1}: ${keyhold.name} ${last(figures.keyhold).requestsPerSecond.toFixed(0)} req/s, ` +
        `${reference.name} ${last(figures.reference).requestsPerSecond.toFixed(0)} req/s`,
    );
  }
  const row = (metric: string, pick: (f: LoadFigures) => number, higherIsBetter: boolean): ResultRow => ({
    case: caseName,
    metric,
    keyhold: median(figures.keyhold.map(pick)),
    reference: median(figures.reference.map(pick)),
    referenceName: reference.name,
    higherIsBetter,
  });
  return [
    row("req/s", (f) => f.requestsPerSecond, true),
    row("p50 ms", (f) => f.p50Ms, false),
    row("p99 ms", (f) => f.p99Ms, false),
  ];
}

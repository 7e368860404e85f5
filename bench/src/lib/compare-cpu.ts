import { listeningPid, localPort, treeCpuSeconds } from "./cpu.ts";
import { median, type ResultRow } from "./result.ts";
import { defaultLoad, type LoadFigures, type LoadOptions, load } from "./wrk.ts";

/** A contender whose server (and its PostgreSQL) run on this machine, so its CPU time can be read. */
export interface LocalContender {
  name: string;
  options: LoadOptions;
  /** The PostgreSQL server it keeps its data in; undefined: its data is in the server's own process (SQLite). */
  postgresUrl: string | undefined;
}

interface Round extends LoadFigures {
  /** CPU ms per answer: the server's process tree, and the same plus its PostgreSQL's. */
  serverCpuMs?: number;
  totalCpuMs?: number;
}

function pidsOf(contender: LocalContender): { server: number; postgres: number | undefined } | undefined {
  const serverPort = localPort(contender.options.url);
  const server = serverPort && listeningPid(serverPort);
  if (!server) return undefined;
  if (contender.postgresUrl === undefined) return { server, postgres: undefined };
  const postgresPort = localPort(contender.postgresUrl);
  const postgres = postgresPort && listeningPid(postgresPort);
  return postgres ? { server, postgres } : undefined;
}

const cpuOf = (pid: number | undefined) => (pid === undefined ? 0 : treeCpuSeconds(pid));

async function measuredRound(contender: LocalContender): Promise<Round> {
  const pids = pidsOf(contender);
  const before = pids && { server: cpuOf(pids.server), postgres: cpuOf(pids.postgres) };
  const figures = await load(contender.options);
  if (!pids || !before) return figures;
  const answers = figures.requestsPerSecond * (contender.options.durationSeconds ?? defaultLoad.durationSeconds);
  const server = treeCpuSeconds(pids.server) - before.server;
  const postgres = cpuOf(pids.postgres) - before.postgres;
  return { ...figures, serverCpuMs: (server * 1000) / answers, totalCpuMs: ((server + postgres) * 1000) / answers };
}

/**
 * As compare() in wrk.ts (alternating rounds after a short warm-up, medians), plus the CPU time
 * each answer cost the server and its PostgreSQL: on a machine shared with other work, the
 * throughput of both sides falls with the load, the CPU per answer much less.
 */
export async function compareWithCpu(
  caseName: string,
  keyhold: LocalContender,
  reference: LocalContender,
  rounds = defaultLoad.rounds,
): Promise<ResultRow[]> {
  const figures: { keyhold: Round[]; reference: Round[] } = { keyhold: [], reference: [] };
  for (const contender of [keyhold, reference]) await load({ ...contender.options, durationSeconds: 1 });
  for (let round = 0; round < rounds; round++) {
    figures.keyhold.push(await measuredRound(keyhold));
    figures.reference.push(await measuredRound(reference));
    const show = (list: Round[]) => {
      const last = list[list.length - 1] as Round;
      const cpu = last.totalCpuMs === undefined ? "" : ` (${last.totalCpuMs.toFixed(2)} CPU ms/answer)`;
      return `${last.requestsPerSecond.toFixed(0)} req/s${cpu}`;
    };
    console.error(
      `  ${caseName} round ${round + 1}: ${keyhold.name} ${show(figures.keyhold)}, ${reference.name} ${show(figures.reference)}`,
    );
  }
  const row = (metric: string, pick: (f: Round) => number | undefined, higherIsBetter: boolean): ResultRow[] => {
    const values = (list: Round[]) => list.map(pick).filter((v): v is number => v !== undefined);
    const ours = values(figures.keyhold);
    const theirs = values(figures.reference);
    if (ours.length !== rounds || theirs.length !== rounds) return [];
    return [
      {
        case: caseName,
        metric,
        keyhold: median(ours),
        reference: median(theirs),
        referenceName: reference.name,
        higherIsBetter,
      },
    ];
  };
  return [
    ...row("req/s", (f) => f.requestsPerSecond, true),
    ...row("p50 ms", (f) => f.p50Ms, false),
    ...row("p99 ms", (f) => f.p99Ms, false),
    ...row("CPU ms/answer, server", (f) => f.serverCpuMs, false),
    ...row("CPU ms/answer, server + PostgreSQL", (f) => f.totalCpuMs, false),
  ];
}

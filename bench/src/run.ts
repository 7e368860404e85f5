import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditQueryCases } from "./cases/audit-query.ts";
import { auditWriteCases } from "./cases/audit-write.ts";
import { bffHopCases } from "./cases/bff-hop.ts";
import { consoleCase } from "./cases/console.ts";
import { infisicalLiveCases } from "./cases/infisical-live.ts";
import { pitRollbackCases } from "./cases/pit-rollback.ts";
import { secretsBatchCase } from "./cases/secrets-batch.ts";
import { secretsFilterCase } from "./cases/secrets-filter.ts";
import { secretsImportCase } from "./cases/secrets-import.ts";
import { secretsListCases } from "./cases/secrets-list.ts";
import { secretsOverviewCase } from "./cases/secrets-overview.ts";
import { serviceReadCases } from "./cases/service-read.ts";
import { type BenchCase, selectCases } from "./lib/bench-case.ts";
import { Processes } from "./lib/processes.ts";
import { type ResultRow, ratioOf } from "./lib/result.ts";
import { repoRoot } from "./lib/system.ts";
import { renderTable } from "./lib/table.ts";

const cases: BenchCase[] = [
  ...serviceReadCases,
  ...bffHopCases,
  ...secretsListCases,
  secretsFilterCase,
  secretsOverviewCase,
  secretsBatchCase,
  secretsImportCase,
  consoleCase,
  ...pitRollbackCases,
  ...auditQueryCases,
  ...auditWriteCases,
  ...infisicalLiveCases,
];

/** `pnpm bench [case-id…]`: every case but the named-only ones by default, or only the named ones. */
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
let selected: BenchCase[];
try {
  selected = selectCases(cases, wanted);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}

const machine = {
  cpu: os.cpus()[0]?.model.trim() ?? "unknown",
  cores: os.availableParallelism(),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()}`,
  node: process.version,
};

const rows: ResultRow[] = [];
const failures: string[] = [];
const scratchDir = mkdtempSync(path.join(os.tmpdir(), "keyhold-bench-"));
const processes = new Processes();
try {
  for (const benchCase of selected) {
    console.error(`\n▶ ${benchCase.title}`);
    try {
      rows.push(
        ...(await benchCase.run({ processes, postgresUrl: process.env.KEYHOLD_BENCH_DATABASE_URL, scratchDir })),
      );
    } catch (error) {
      failures.push(benchCase.id);
      console.error(`✗ ${benchCase.id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      await processes.stopAll();
    }
  }
} finally {
  rmSync(scratchDir, { recursive: true, force: true });
}

const table = renderTable(rows);
console.log(
  `\nMachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}\n`,
);
console.log(table);

const resultsDir = path.join(repoRoot, "bench", "results");
mkdirSync(resultsDir, { recursive: true });
const json = {
  date: new Date().toISOString(),
  machine,
  rows: rows.map((row) => ({ ...row, ratio: ratioOf(row) })),
  failures,
};
writeFileSync(path.join(resultsDir, "latest.json"), `${JSON.stringify(json, null, 2)}\n`);
console.log(`\nWritten: bench/results/latest.json${failures.length ? `; failed cases: ${failures.join(", ")}` : ""}`);
process.exitCode = failures.length > 0 ? 1 : 0;

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchContext } from "./bench-case.ts";
import { Processes } from "./processes.ts";

/**
 * A bench context for the bench's own tests: the processes a test starts and a scratch
 * directory, both gone when `close` is called; PostgreSQL from the test run's throwaway server
 * (KEYHOLD_TEST_DATABASE_URL), as the other suites use it.
 */
export function testContext(): BenchContext & { close(): Promise<void> } {
  const scratchDir = mkdtempSync(path.join(os.tmpdir(), "keyhold-bench-test-"));
  const processes = new Processes();
  return {
    processes,
    scratchDir,
    postgresUrl: process.env.KEYHOLD_TEST_DATABASE_URL ?? process.env.KEYHOLD_BENCH_DATABASE_URL,
    async close() {
      await processes.stopAll();
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}

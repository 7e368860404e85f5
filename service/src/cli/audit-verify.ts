import { deriveChainKeys } from "../audit/chain.ts";
import { describeVerification, verifyAllChains } from "../audit/verify.ts";
import { type Config, loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { createLogger } from "../lib/logger.ts";
import { loadRootKey } from "../lib/root-key.ts";

/**
 * Verifies every organisation's audit chain with the service's own configuration (data dir,
 * database, root key). Prints one line per organisation; answers whether every chain holds.
 */
export async function verifyAuditChains(config: Config, print: (line: string) => void): Promise<boolean> {
  const keys = deriveChainKeys(loadRootKey(config));
  const { db } = await openDatabase(config, createLogger({ ...config, logLevel: "warn" }));
  try {
    const results = await verifyAllChains(db, keys);
    for (const result of results) print(describeVerification(result));
    return results.every((result) => result.ok);
  } finally {
    await db.destroy();
  }
}

// Run as a script (`pnpm --filter @keyhold/service audit:verify`), not when imported by tests.
if (import.meta.url === `file://${process.argv[1]}`) {
  verifyAuditChains(loadConfig(process.env), (line) => process.stdout.write(`${line}\n`)).then(
    (ok) => {
      process.exitCode = ok ? 0 : 1;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}

import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDir } from "@keyhold/fixtures";
import { freePort, start, waitFor } from "./processes.ts";

/** Responses recorded from real Infisical servers (`@keyhold/fixtures`), replayed for the console. */
export const sampleSets = { 2024: sampleDir(2024), 2026: sampleDir(2026) } as const;

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), "keyhold-e2e-"));
  const [servicePort, bffPort] = await Promise.all([freePort(), freePort()]);
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const baseUrl = `http://127.0.0.1:${bffPort}`;

  const service = start("service", "service/src/server.ts", {
    PORT: String(servicePort),
    HOST: "127.0.0.1",
    KEYHOLD_DATA_DIR: dataDir,
  });
  await waitFor(`${serviceUrl}/api/status`, service, "service");

  const bff = start("bff", "bff/src/server.ts", {
    PORT: String(bffPort),
    HOST: "127.0.0.1",
    KEYHOLD_UPSTREAM_URL: serviceUrl,
    KEYHOLD_LOGIN_RATE_LIMIT: "1000",
  });
  await waitFor(`${baseUrl}/healthz`, bff, "bff");

  // For each set of responses recorded from a real Infisical server: a replay of it, and a BFF
  // serving the console in front of that replay.
  const replays: ChildProcess[] = [];
  for (const [year, folder] of Object.entries(sampleSets)) {
    const [replayPort, replayBffPort] = await Promise.all([freePort(), freePort()]);
    const replay = start(`replay ${year}`, "bff/src/replay/replay-upstream.ts", {}, [folder, String(replayPort)]);
    replays.push(replay);
    await waitFor(`http://127.0.0.1:${replayPort}/api/status`, replay, `replay ${year}`);
    const replayBff = start(`bff for replay ${year}`, "bff/src/server.ts", {
      PORT: String(replayBffPort),
      HOST: "127.0.0.1",
      KEYHOLD_UPSTREAM_URL: `http://127.0.0.1:${replayPort}`,
      KEYHOLD_LOGIN_RATE_LIMIT: "1000",
    });
    replays.push(replayBff);
    await waitFor(`http://127.0.0.1:${replayBffPort}/healthz`, replayBff, `bff for replay ${year}`);
    process.env[`KEYHOLD_E2E_REPLAY_${year}_URL`] = `http://127.0.0.1:${replayBffPort}`;
  }

  process.env.KEYHOLD_E2E_BASE_URL = baseUrl;
  process.env.KEYHOLD_E2E_SERVICE_URL = serviceUrl;
  process.env.KEYHOLD_E2E_ADMIN_TOKEN_FILE = join(dataDir, "admin-token");
  readFileSync(join(dataDir, "admin-token"), "utf8"); // fail early if bootstrap did not write it

  return async () => {
    for (const child of [...replays, bff, service]) child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

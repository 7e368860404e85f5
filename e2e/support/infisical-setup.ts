import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, start, waitFor } from "./processes.ts";

/**
 * The global setup of the live suite: a BFF serving the built console in front of a real
 * Infisical server (`KEYHOLD_E2E_INFISICAL_URL`, signed in with `KEYHOLD_E2E_INFISICAL_TOKEN`, an
 * organisation-admin identity's access token). The tests seed through that server's API and drive
 * the console in Chromium, exactly as they do against the Keyhold service.
 */
export default async function infisicalSetup(): Promise<() => Promise<void>> {
  const upstream = process.env.KEYHOLD_E2E_INFISICAL_URL?.replace(/\/+$/, "");
  const token = process.env.KEYHOLD_E2E_INFISICAL_TOKEN?.trim();
  if (!upstream || !token) {
    throw new Error(
      "The live suite needs a running Infisical server: set KEYHOLD_E2E_INFISICAL_URL (its base URL) and " +
        "KEYHOLD_E2E_INFISICAL_TOKEN (an organisation-admin machine identity's access token).",
    );
  }
  const server = await describeServer(upstream, token);
  console.log(`Live suite against Infisical at ${upstream}: ${server.description}`);

  const dir = mkdtempSync(join(tmpdir(), "keyhold-live-"));
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, token, { mode: 0o600 });

  const bffPort = await freePort();
  const baseUrl = `http://127.0.0.1:${bffPort}`;
  const bff = start("bff", "bff/src/server.ts", {
    PORT: String(bffPort),
    HOST: "127.0.0.1",
    KEYHOLD_UPSTREAM_URL: upstream,
    KEYHOLD_LOGIN_RATE_LIMIT: "1000",
    // Seeding and the console's own calls together outlast the default on a busy server.
    KEYHOLD_UPSTREAM_TIMEOUT_MS: "30000",
  });
  await waitFor(`${baseUrl}/healthz`, bff, "bff");

  process.env.KEYHOLD_E2E_BASE_URL = baseUrl;
  process.env.KEYHOLD_E2E_SERVICE_URL = upstream;
  process.env.KEYHOLD_E2E_ADMIN_TOKEN_FILE = tokenFile;
  process.env.KEYHOLD_E2E_SERVER_LINE = server.line;

  return async () => {
    bff.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * Which line of Infisical answers, told by what it has (Infisical's status says no version):
 * identity search (`POST /api/v1/identities/search`) arrived after the October 2024 release.
 */
async function describeServer(
  upstream: string,
  token: string,
): Promise<{ line: "2024" | "2026"; description: string }> {
  const status = await fetch(`${upstream}/api/status`);
  if (!status.ok) throw new Error(`${upstream}/api/status answered ${status.status}: is this an Infisical server?`);
  const search = await fetch(`${upstream}/api/v1/identities/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  if (search.status === 401) throw new Error("KEYHOLD_E2E_INFISICAL_TOKEN was refused (401)");
  const body = (await search.json().catch(() => ({}))) as { message?: string };
  const hasSearch = !(search.status === 404 && /^Route \w+:\S* not found$/.test(body.message ?? ""));
  return hasSearch
    ? { line: "2026", description: "a current server (it has identity search; like the mid-2026 release)" }
    : { line: "2024", description: "an older server (no identity search; like the October 2024 release)" };
}

import { readFile } from "node:fs/promises";
import { expect, server } from "./fixtures.ts";

/**
 * Whether the server keeps an audit log: Keyhold always; an Infisical server when its plan does.
 * "unknown" where the server shows its plan to user sessions only (October 2024).
 */
export async function keepsAuditLogs(orgId: string): Promise<boolean | "unknown"> {
  if (server === "keyhold") return true;
  const upstream = process.env.KEYHOLD_E2E_SERVICE_URL;
  const tokenFile = process.env.KEYHOLD_E2E_ADMIN_TOKEN_FILE;
  if (!upstream || !tokenFile) throw new Error("The live suite's setup names the server and its token");
  const token = (await readFile(tokenFile, "utf8")).trim();
  const answer = await fetch(`${upstream}/api/v1/organizations/${orgId}/plan`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (answer.status === 403 && server === "2024") return "unknown";
  expect(answer.status, "the server answers its plan").toBe(200);
  const { plan } = (await answer.json()) as { plan: { auditLogs?: boolean; auditLogsRetentionDays?: number } };
  return Boolean(plan.auditLogs) && (plan.auditLogsRetentionDays ?? 0) > 0;
}

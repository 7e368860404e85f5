import { readFile } from "node:fs/promises";
import { endpoints } from "@keyhold/contract";
import { expect, server, test } from "../support/fixtures.ts";

/**
 * The audit log against whichever server the suite runs on, real Infisical servers included. A
 * secret is created through that server's API and then looked for from the console, through the
 * secret's "View activity". An Infisical server writes its events through a queue (a few seconds
 * late), an October 2024 one lists its organisation's log only to user sessions (the console reads
 * the project's log instead), and one whose plan keeps no audit log says so in the page.
 */
const live = { tag: "@live" } as const;

/**
 * Whether the server keeps an audit log: Keyhold always; an Infisical server when its plan does.
 * "unknown" where the server shows its plan to user sessions only (October 2024).
 */
async function keepsAuditLogs(orgId: string): Promise<boolean | "unknown"> {
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

test(
  "a secret created through the server is found under its View activity, or the page says the server keeps no log",
  live,
  async ({ signedIn: page, service, session, seededProject: project }) => {
    await service(endpoints["secrets.create"], {
      params: { secretName: "LIVE_AUDITED" },
      body: { workspaceId: project.id, environment: "dev", secretPath: "/", secretValue: "audited-value-1" },
    });
    const keeps = await keepsAuditLogs(session.organization.id);

    await page.goto(`/projects/${project.id}/secrets?env=dev`);
    await page.getByRole("button", { name: "Open LIVE_AUDITED", exact: true }).click();
    await page.getByRole("link", { name: "View activity of LIVE_AUDITED" }).click();
    await expect(page).toHaveURL(/\/audit-log\?/);
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();

    if (keeps === false) {
      await expect(page.getByText("This server's plan does not keep audit logs.")).toBeVisible();
      return;
    }
    const table = page.getByRole("table", { name: "Audit events" });
    const created = table.getByRole("row", { name: new RegExp(`^Create secret by ${session.identity.name}`) });
    if (keeps === "unknown") {
      // The server keeps its plan from this identity: its free plan stores nothing and its log is
      // empty, a paid plan's log has the event (stored at once on that server). Either is said.
      await expect(created.or(page.getByText("No events in this window", { exact: true }))).toBeVisible();
      test.info().annotations.push({
        type: "audit log",
        description: (await created.count()) > 0 ? "the server keeps one" : "the server's log is empty",
      });
      if ((await created.count()) === 0) return;
    }
    // An Infisical server stores the event a few seconds after the request: look again until it has.
    await expect(async () => {
      await page.reload();
      await expect(created).toHaveCount(1, { timeout: 3_000 });
    }).toPass({ timeout: 60_000 });
    await created.click();
    const drawer = page.getByRole("dialog");
    await expect(drawer).toContainText("LIVE_AUDITED");
    await expect(drawer).toContainText(session.identity.name);
    // The value is never in an event, on any server.
    await expect(drawer).not.toContainText("audited-value-1");
  },
);

import { endpoints } from "@keyhold/contract";
import { keepsAuditLogs } from "../support/audit-plan.ts";
import { expect, test } from "../support/fixtures.ts";

/**
 * The audit log against whichever server the suite runs on, real Infisical servers included. A
 * secret is created through that server's API and then looked for from the console, through the
 * secret's "View activity". An Infisical server writes its events through a queue (a few seconds
 * late), an October 2024 one lists its organisation's log only to user sessions (the console reads
 * the project's log instead), and one whose plan keeps no audit log says so in the page.
 */
const live = { tag: "@live" } as const;

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

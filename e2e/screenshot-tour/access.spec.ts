import { mkdirSync } from "node:fs";
import { endpoints, type MembershipRoleInput } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/** A project's access page: identities with roles and countdowns, the add dialog, privileges, users. */
for (const theme of ["light", "dark"] as const) {
  test(`access tour in the ${theme} theme`, async ({ signedIn: page, service, session }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 1440, height: 900 });
    const shot = (name: string, fullPage = false) =>
      page.screenshot({ path: `${dir}${theme}-${name}.png`, animations: "disabled", fullPage });

    const { project } = await service(endpoints["projects.create"], {
      body: { projectName: uniqueName("Payments"), shouldCreateDefaultEnvs: true },
    });
    const created: string[] = [];
    try {
      const projectId = project.id;
      await service(endpoints["projectRoles.create"], {
        params: { projectId },
        body: {
          name: "Dev secret reader",
          slug: "dev-secret-reader",
          description: "Reads secrets in development",
          permissions: [
            { subject: "secrets", action: ["describeSecret", "readValue"], conditions: { environment: "dev" } },
          ],
        },
      });
      const identity = async (name: string) => {
        const { identity } = await service(endpoints["identities.create"], {
          body: {
            name: `${name}-${uniqueName("x").slice(2, 6)}`,
            organizationId: session.organization.id,
            role: "member",
          },
        });
        created.push(identity.id);
        return identity;
      };
      const [deployer, reader, oncall] = await Promise.all([
        identity("ci-deployer"),
        identity("metrics-reader"),
        identity("oncall-bot"),
      ]);
      await identity("billing-worker");
      const now = Date.now();
      const temporary = (range: string, startedAgoMs = 0) => ({
        isTemporary: true as const,
        temporaryMode: "relative" as const,
        temporaryRange: range,
        temporaryAccessStartTime: new Date(now - startedAgoMs).toISOString(),
      });
      const add = (identityId: string, roles: MembershipRoleInput[]) =>
        service(endpoints["identityMemberships.add"], { params: { projectId, identityId }, body: { roles } });
      await add(deployer.id, [
        { role: "member", isTemporary: false },
        { role: "admin", ...temporary("4h") },
      ]);
      await add(reader.id, [{ role: "dev-secret-reader", isTemporary: false }]);
      await add(oncall.id, [{ role: "viewer", ...temporary("1h", 2 * 3_600_000) }]);
      await service(endpoints["identityPrivileges.create"], {
        body: {
          identityId: deployer.id,
          projectId,
          slug: "prod-hotfix",
          permissions: [{ subject: "secrets", action: ["edit"], conditions: { environment: "prod" } }],
          type: temporary("30m"),
        },
      });
      await service(endpoints["identityPrivileges.create"], {
        body: {
          identityId: deployer.id,
          projectId,
          slug: "read-environments",
          permissions: [{ subject: "environments", action: ["read"] }],
          type: { isTemporary: false },
        },
      });
      await service(endpoints["identityPrivileges.create"], {
        body: {
          identityId: deployer.id,
          projectId,
          slug: "last-week-audit",
          permissions: [{ subject: "audit-logs", action: ["read"] }],
          type: temporary("1d", 7 * 86_400_000),
        },
      });
      await service(endpoints["projectUsers.invite"], {
        params: { projectId },
        body: { emails: ["ada@example.com", "grace@example.com"], roleSlugs: ["viewer"] },
      });

      await page.goto(`/projects/${projectId}/access`);
      await expect(
        page.getByRole("table", { name: "Project identities" }).getByText("Dev secret reader"),
      ).toBeVisible();
      await shot("a1-access-identities");

      await page.getByRole("button", { name: "Add identity" }).click();
      const dialog = page.getByRole("dialog", { name: "Add identity to project" });
      await dialog.getByRole("combobox", { name: "Identity" }).fill("billing");
      await dialog.getByRole("option").filter({ hasText: "billing-worker" }).click();
      await dialog.getByRole("combobox", { name: "Role" }).selectOption({ label: "Dev secret reader" });
      await dialog.getByRole("switch", { name: "Temporary role" }).click();
      await dialog.getByRole("button", { name: "1d", exact: true }).click();
      await expect(dialog.getByTestId("temporary-end-preview")).toBeVisible();
      await shot("a2-add-identity-temporary-role");
      await page.keyboard.press("Escape");
      await page
        .getByRole("alertdialog", { name: "Discard unsaved changes?" })
        .getByRole("button", { name: "Discard changes" })
        .click();

      await page.getByRole("button", { name: `Privileges of ${deployer.name}` }).click();
      await expect(page.getByRole("cell", { name: "prod-hotfix", exact: true })).toBeVisible();
      await shot("a3-identity-privileges", true);

      await page.getByRole("button", { name: "Edit privilege prod-hotfix" }).click();
      await expect(page.getByRole("dialog").getByRole("group", { name: "Secrets", exact: true })).toBeVisible();
      await shot("a4-edit-privilege");
      await page.keyboard.press("Escape");

      await page.getByRole("tab", { name: "Users" }).click();
      await expect(page.getByRole("table", { name: "Project users" })).toBeVisible();
      await shot("a5-access-users");
    } finally {
      await service(endpoints["projects.delete"], { params: { workspaceId: project.id } });
      for (const identityId of created) await service(endpoints["identities.delete"], { params: { identityId } });
    }
  });
}

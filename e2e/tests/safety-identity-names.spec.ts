import { endpoints } from "@keyhold/contract";
import type { ServiceCall } from "../support/api.ts";
import { ignoreNotFound } from "../support/api.ts";
import { openAccess } from "../support/access.ts";
import { expect, test as base, uniqueName } from "../support/fixtures.ts";

/**
 * Identity names may repeat (Infisical allows it, and so does the service): the console warns
 * when a name is given that another identity already has, and shows a short id beside identities
 * of the same name wherever they are listed or picked together.
 */
const test = base.extend<{ created: string[] }>({
  // Identities a test creates itself, deleted after it.
  created: async ({ service }, use) => {
    const ids: string[] = [];
    await use(ids);
    for (const identityId of ids)
      await ignoreNotFound(service(endpoints["identities.delete"], { params: { identityId } }));
  },
});

async function createIdentity(service: ServiceCall, organizationId: string, name: string, created: string[]) {
  const { identity } = await service(endpoints["identities.create"], { body: { name, organizationId } });
  created.push(identity.id);
  return identity;
}

async function idsNamed(service: ServiceCall, organizationId: string, name: string) {
  const { identityMemberships } = await service(endpoints["identities.listOrgMemberships"], {
    params: { orgId: organizationId },
    query: { search: name },
  });
  return identityMemberships.filter((m) => m.identity.name === name).map((m) => m.identity.id);
}

for (const theme of ["light", "dark"] as const) {
  test.describe(theme, () => {
    test.use({ colorScheme: theme });

    test("warns on create that another identity has the name, and creates it all the same", async ({
      signedIn: page,
      service,
      session,
      seededIdentity,
      created,
    }) => {
      const { name, id } = seededIdentity.identity;
      await page.goto("/identities");
      await page.getByRole("button", { name: "Create identity" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Create identity" });
      const lookedUp = page.waitForResponse(
        (response) =>
          response.url().includes("/identity-memberships?") &&
          new URL(response.url()).searchParams.get("search") === `${name}-other`,
      );
      await dialog.getByLabel("Name").fill(`${name}-other`);
      await lookedUp;
      await expect(dialog.getByText(/already called/)).toHaveCount(0);

      await dialog.getByLabel("Name").fill(name);
      await expect(dialog.getByText(`Another identity is already called ${name}`)).toBeVisible();
      await expect(dialog).toContainText(`id ${id.slice(0, 8)}`);
      await dialog.getByRole("button", { name: "Create identity" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      created.push(page.url().split("/").pop() ?? "");
      expect(await idsNamed(service, session.organization.id, name)).toHaveLength(2);
    });

    test("warns on a rename to another identity's name, not while the name is its own", async ({
      signedIn: page,
      service,
      seededIdentity,
      memberIdentity,
    }) => {
      const taken = seededIdentity.identity.name;
      const own = memberIdentity.identity.name;
      await page.goto(`/identities/${memberIdentity.identity.id}/edit`);
      const nameBox = page.getByLabel("Name", { exact: true });
      await expect(nameBox).toHaveValue(own);
      await nameBox.fill(taken);
      await expect(page.getByText(`Another identity is already called ${taken}`)).toBeVisible();
      await nameBox.fill(own);
      await expect(page.getByText(/already called/)).toHaveCount(0);

      await nameBox.fill(taken);
      await expect(page.getByText(`Another identity is already called ${taken}`)).toBeVisible();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("heading", { level: 1, name: taken })).toBeVisible();
      // Saved: the name is its own now, and the warning goes.
      await expect(page.getByText(/already called/)).toHaveCount(0);
      const { identity } = await service(endpoints["identities.get"], {
        params: { identityId: memberIdentity.identity.id },
      });
      expect(identity.identity.name).toBe(taken);
    });

    test("shows a short id beside identities of the same name in the picker and the lists", async ({
      signedIn: page,
      service,
      session,
      seededProject,
      created,
    }) => {
      const name = uniqueName("twin");
      const first = await createIdentity(service, session.organization.id, name, created);
      const second = await createIdentity(service, session.organization.id, name, created);
      const unique = await createIdentity(service, session.organization.id, `${name}-solo`, created);

      await openAccess(page, seededProject);
      await page.getByRole("button", { name: "Add identity" }).click();
      const dialog = page.getByRole("dialog", { name: "Add identity to project" });
      await dialog.getByRole("combobox", { name: "Identity" }).fill(name);
      await expect(dialog.getByRole("listbox").getByRole("option")).toHaveCount(3);
      for (const twin of [first, second]) {
        await expect(dialog.getByRole("option", { name: `${name}, id ${twin.id.slice(0, 8)}` })).toBeVisible();
      }
      await expect(dialog.getByRole("option", { name: unique.name, exact: true })).toBeVisible();

      await dialog.getByRole("option", { name: `${name}, id ${second.id.slice(0, 8)}` }).click();
      await expect(dialog.getByRole("combobox", { name: "Identity" })).toHaveAccessibleDescription(
        `Chosen: ${name}, id ${second.id.slice(0, 8)}`,
      );
      await dialog.getByRole("button", { name: "Add identity" }).click();
      await expect(dialog).toBeHidden();
      const { identityMemberships } = await service(endpoints["identityMemberships.list"], {
        params: { projectId: seededProject.id },
      });
      const members = identityMemberships.map((m) => m.identityId);
      expect(members).toContain(second.id);
      expect(members).not.toContain(first.id);

      // Both in the project: its identities table tells them apart, buttons included.
      await service(endpoints["identityMemberships.add"], {
        params: { projectId: seededProject.id, identityId: first.id },
        body: { roles: [{ role: "viewer", isTemporary: false }] },
      });
      await page.reload();
      const table = page.getByRole("table", { name: "Project identities" });
      for (const twin of [first, second]) {
        const label = `${name}, id ${twin.id.slice(0, 8)}`;
        await expect(table.getByRole("link", { name: label })).toBeVisible();
        await expect(
          table.getByRole("button", { name: `Edit roles of ${name} (${twin.id.slice(0, 8)})` }),
        ).toBeVisible();
      }

      await page.goto(`/identities?q=${name}`);
      const links = page.getByRole("table", { name: "Identities" }).getByRole("link");
      await expect(links).toHaveCount(3);
      for (const twin of [first, second]) {
        await expect(page.getByRole("link", { name: `${name}, id ${twin.id.slice(0, 8)}` })).toBeVisible();
      }
      await expect(page.getByRole("link", { name: unique.name, exact: true })).toBeVisible();
    });
  });
}

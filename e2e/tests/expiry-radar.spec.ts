import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { endpoints } from "@keyhold/contract";
import { expect, test, uniqueName } from "../support/fixtures.ts";

const HOUR = 60 * 60 * 1000;

test("extends a temporary privilege from the expiry radar, and the new end is stored", async ({
  signedIn: page,
  service,
  seededProject,
  memberIdentity,
}) => {
  const identity = memberIdentity.identity;
  const projectId = seededProject.id;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: { roles: [{ role: "viewer", isTemporary: false }] },
  });
  const slug = uniqueName("soon");
  const { privilege } = await service(endpoints["identityPrivileges.create"], {
    body: {
      identityId: identity.id,
      projectId,
      slug,
      permissions: [{ subject: "secrets", action: ["read"] }],
      type: {
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "2h",
        temporaryAccessStartTime: new Date().toISOString(),
      },
    },
  });
  const start = Date.parse(privilege.temporaryAccessStartTime ?? "");
  expect(Date.parse(privilege.temporaryAccessEndTime ?? "") - start).toBe(2 * HOUR);

  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /^Expir/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Expiry radar" })).toBeVisible();
  await page
    .getByRole("group", { name: "Show" })
    .getByRole("button", { name: /Within 24 h/ })
    .click();
  await expect(page).toHaveURL(/[?&]window=24h/);

  const row = page.getByRole("listitem", { name: `Temporary privilege ${slug} of ${identity.name}` });
  // A live countdown: under two hours, and it ticks.
  const countdown = row.locator("time");
  await expect(countdown).toHaveText(/^1h 5\dm \d\ds/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? "");

  await row.getByRole("button", { name: `Extend ${slug} of ${identity.name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Extend ${slug}` });
  await dialog.getByRole("radio", { name: "1 day" }).check();
  await dialog.getByRole("button", { name: "Extend", exact: true }).click();
  await expect(dialog).toBeHidden();

  // Now a day and about two hours away: out of the 24 h window, in the 7 day one.
  await expect(row).toBeHidden();
  await page
    .getByRole("group", { name: "Show" })
    .getByRole("button", { name: /Within 7 days/ })
    .click();
  await expect(row.locator("time")).toHaveText(/^1d 01h/);

  const { privilege: stored } = await service(endpoints["identityPrivileges.get"], { params: { id: privilege.id } });
  expect(stored).toMatchObject({ slug, isTemporary: true, temporaryRange: "26h" });
  expect(Date.parse(stored.temporaryAccessStartTime ?? "")).toBe(start);
  expect(Date.parse(stored.temporaryAccessEndTime ?? "")).toBe(start + 26 * HOUR);
  await expect(row.locator("time")).toHaveAttribute("datetime", new Date(start + 26 * HOUR).toISOString());
});

test("extends a temporary project role of an identity, keeping its other roles as they are", async ({
  signedIn: page,
  service,
  seededProject,
  memberIdentity,
}) => {
  const identity = memberIdentity.identity;
  const projectId = seededProject.id;
  const start = new Date().toISOString();
  await service(endpoints["identityMemberships.add"], {
    params: { projectId, identityId: identity.id },
    body: {
      roles: [
        { role: "viewer", isTemporary: false },
        {
          role: "member",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "3h",
          temporaryAccessStartTime: start,
        },
      ],
    },
  });

  await page.goto("/expiring?window=24h");
  const row = page.getByRole("listitem", { name: `Temporary role member of ${identity.name}` });
  await expect(row.locator("time")).toHaveText(/^2h 5\dm/);
  await row.getByRole("button", { name: `Extend member of ${identity.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Extend member" });
  await dialog.getByRole("radio", { name: "7 days" }).check();
  await dialog.getByRole("button", { name: "Extend", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeHidden();

  const { identityMembership } = await service(endpoints["identityMemberships.get"], {
    params: { projectId, identityId: identity.id },
  });
  const roles = identityMembership.roles.map((r) => ({
    role: r.role,
    isTemporary: r.isTemporary,
    range: r.temporaryRange ?? null,
    start: r.temporaryAccessStartTime ? Date.parse(r.temporaryAccessStartTime) : null,
    end: r.temporaryAccessEndTime ? Date.parse(r.temporaryAccessEndTime) : null,
  }));
  expect(roles).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ role: "viewer", isTemporary: false }),
      {
        role: "member",
        isTemporary: true,
        range: "171h",
        start: Date.parse(start),
        end: Date.parse(start) + 171 * HOUR,
      },
    ]),
  );
  expect(roles).toHaveLength(2);
});

test("the radar and its extend dialog have no serious accessibility violations", async ({
  signedIn: page,
  service,
  seededProject,
  memberIdentity,
}) => {
  const identity = memberIdentity.identity;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId: seededProject.id, identityId: identity.id },
    body: {
      roles: [
        {
          role: "viewer",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1d",
          temporaryAccessStartTime: new Date().toISOString(),
        },
      ],
    },
  });
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto("/expiring?window=all");
    const row = page.getByRole("listitem", { name: `Temporary role viewer of ${identity.name}` });
    await expect(row).toBeVisible();
    expect(await serious()).toEqual([]);
    await row.getByRole("button", { name: `Extend viewer of ${identity.name}` }).click();
    await expect(page.getByRole("dialog", { name: "Extend viewer" })).toBeVisible();
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    expect(await serious()).toEqual([]);
  }
});

test("exports the shown endings as an iCalendar file, one event per ending", async ({
  signedIn: page,
  service,
  seededProject,
  memberIdentity,
}) => {
  const identity = memberIdentity.identity;
  await service(endpoints["identityMemberships.add"], {
    params: { projectId: seededProject.id, identityId: identity.id },
    body: { roles: [{ role: "viewer", isTemporary: false }] },
  });
  const slug = uniqueName("cal");
  const { privilege } = await service(endpoints["identityPrivileges.create"], {
    body: {
      identityId: identity.id,
      projectId: seededProject.id,
      slug,
      permissions: [{ subject: "secrets", action: ["read"] }],
      type: {
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "5h",
        temporaryAccessStartTime: "2026-01-01T00:00:00.000Z",
      },
    },
  });

  await page.goto("/expiring?window=expired");
  await expect(page.getByRole("listitem", { name: `Temporary privilege ${slug} of ${identity.name}` })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export .ics" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("keyhold-expiring-expired.ics");
  const text = (await readFile(await download.path(), "utf8")).replace(/\r\n[ \t]/g, "");
  const event = text.split("BEGIN:VEVENT").find((part) => part.includes(`UID:privilege-${privilege.id}@keyhold`));
  expect(event).toContain("DTSTART:20260101T050000Z");
  expect(event).toContain(
    `SUMMARY:Temporary privilege ${slug} ends (${identity.name}\\, project ${seededProject.name})`,
  );
});

import { randomBytes } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { animationsSettled } from "../support/layout.ts";
import { expect, test } from "../support/fixtures.ts";
import { seedFolder, seedSecret } from "../support/secrets.ts";

/** The palette against the real service: what it finds was created through the API. */

async function openConsole(page: Page) {
  await page.goto("/identities");
  await expect(page.getByRole("heading", { level: 1, name: "Identities" })).toBeVisible();
}

async function openPalette(page: Page) {
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette.getByRole("combobox", { name: "Search the console" })).toBeFocused();
  return palette;
}

test("Ctrl-K finds a secret key by part of its name and opens that secret in its project, never reading a value", async ({
  signedIn: page,
  service,
  seededProject: project,
}) => {
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const key = `PALETTE_${tag}_DATABASE_URL`;
  const value = `postgres://app:${randomBytes(8).toString("hex")}@db`;
  await seedFolder(service, project, "app", "/", "prod");
  await seedSecret(service, project, { key, value, environment: "prod", secretPath: "/app" });
  await openConsole(page);

  const secretReads: Request[] = [];
  const record = (request: Request) => {
    if (new URL(request.url()).pathname.startsWith("/api/v3/secrets/raw")) secretReads.push(request);
  };
  page.on("request", record);
  const palette = await openPalette(page);
  await palette.getByRole("combobox").fill(`${tag}_data`);
  const option = palette.getByRole("option", { name: `${key} — ${project.name} · Production · /app`, exact: true });
  await expect(option).toBeVisible();
  // Names only: every list of secrets the palette read withheld values, and no value is on screen.
  expect(secretReads.length).toBeGreaterThan(0);
  for (const read of secretReads) {
    expect(new URL(read.url()).pathname).toBe("/api/v3/secrets/raw");
    expect(new URL(read.url()).searchParams.get("viewSecretValue")).toBe("false");
  }
  await expect(palette).not.toContainText(value);
  page.off("request", record);

  await option.click();
  await expect(palette).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/secrets\\?env=prod&path=%2Fapp&secret=${key}$`));
  const drawer = page.getByRole("dialog", { name: key, exact: true });
  await expect(drawer.getByLabel("Name", { exact: true })).toHaveValue(key);
});

test("the keyboard alone reaches an identity's auth methods from the palette's action", async ({
  signedIn: page,
  seededIdentity,
}) => {
  const name = seededIdentity.identity.name;
  await openConsole(page);
  const palette = await openPalette(page);
  await page.keyboard.type(`attach ${name}`);
  const option = palette.getByRole("option", { name: `Attach auth method to ${name}`, exact: true });
  await expect(option).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/identities/${seededIdentity.identity.id}#identity-auth-methods$`));
  await expect(page.getByRole("heading", { level: 2, name: "Auth methods" })).toBeFocused();
});

test("? lists the keyboard shortcuts, and Escape closes them", async ({ signedIn: page }) => {
  await openConsole(page);
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog.getByText("Open the command palette")).toBeVisible();
  await expect(dialog.getByText("Ctrl")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("the search button in the top bar opens the palette on a phone's screen", async ({ signedIn: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openConsole(page);
  await page.getByRole("button", { name: "Search (command palette)" }).click();
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette.getByRole("option", { name: "Projects", exact: true })).toBeVisible();
  // Measured at rest: the dialog grows into place.
  await animationsSettled(page);
  const box = await palette.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  expect(box?.x).toBeGreaterThanOrEqual(0);
});

for (const theme of ["light", "dark"] as const) {
  test(`the open palette has no serious accessibility violations in the ${theme} theme`, async ({
    signedIn: page,
    seededProject: project,
  }) => {
    await page.emulateMedia({ colorScheme: theme });
    await openConsole(page);
    const palette = await openPalette(page);
    await palette.getByRole("combobox").fill(project.name);
    await expect(palette.getByRole("option", { name: project.name, exact: true })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

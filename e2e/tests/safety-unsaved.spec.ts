import type { Locator, Page } from "@playwright/test";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { openSecrets, readSecret, secretRow, seedSecret } from "../support/secrets.ts";

/**
 * Unsaved input is never thrown away without asking: a drawer or dialog asks on Escape, Close,
 * Cancel; a page's form asks before the console leaves it; a reload makes the browser ask; an
 * inline edit asks on Escape. Pristine forms close at once.
 */

const question = (page: Page) => page.getByRole("alertdialog", { name: "Discard unsaved changes?" });

/**
 * Types into a field and presses Escape as a quick hand does: the key reaches the page before
 * anything the typing scheduled for later has run (the browser handles input ahead of such work),
 * though after the typing itself has been handled.
 */
async function typeThenEscape(field: Locator, text: string) {
  await field.evaluate(async (element: HTMLInputElement | HTMLTextAreaElement, typed) => {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), "value")?.set?.call(element, typed);
    element.dispatchEvent(new Event("input", { bubbles: true }));
    await Promise.resolve();
    element.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true }));
  }, text);
}

for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test("the secret drawer asks before Escape discards a changed comment", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedSecret(service, project, { key: "SMTP_PASSWORD", value: "hunter2", comment: "mail" });
      await openSecrets(page, project, "?env=dev");
      await page.getByRole("button", { name: "Open SMTP_PASSWORD", exact: true }).click();
      const drawer = page.getByRole("dialog", { name: "SMTP_PASSWORD", exact: true });
      const comment = drawer.getByLabel("Comment");
      await expect(comment).toHaveValue("mail");

      await typeThenEscape(comment, "outgoing mail");
      await expect(question(page)).toContainText("Your changes to SMTP_PASSWORD have not been saved.");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(question(page)).toBeHidden();
      await expect(comment).toHaveValue("outgoing mail");

      await drawer.getByRole("button", { name: "Close" }).click();
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      // Under the open question the drawer is outside the accessibility tree, where it counts as
      // hidden already: wait for the question to close first.
      await expect(question(page)).toBeHidden();
      await expect(drawer).toBeHidden();
      await expect(page).not.toHaveURL(/secret=/);
      expect((await readSecret(service, project, "SMTP_PASSWORD")).secretComment).toBe("mail");

      // Untouched, it closes at once.
      await page.getByRole("button", { name: "Open SMTP_PASSWORD", exact: true }).click();
      await expect(comment).toHaveValue("mail");
      await page.keyboard.press("Escape");
      await expect(drawer).toBeHidden();
      await expect(question(page)).toHaveCount(0);
    });

    test("the create-secret dialog asks on Escape, Close and Cancel, and a pristine one closes at once", async ({
      signedIn: page,
      seededProject: project,
    }) => {
      await openSecrets(page, project, "?env=dev");
      const create = page.getByRole("button", { name: "Create secret" });
      const dialog = page.getByRole("dialog", { name: "Create secret" });

      // The dialog's code arrives after the page's first paint: a person presses Escape once it shows.
      await create.click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(question(page)).toHaveCount(0);

      await create.click();
      await expect(dialog).toBeVisible();
      await dialog.getByLabel("Key").fill("API_TOKEN");
      await page.keyboard.press("Escape");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(dialog.getByLabel("Key")).toHaveValue("API_TOKEN");

      await dialog.getByRole("button", { name: "Cancel" }).click();
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(dialog.getByLabel("Key")).toHaveValue("API_TOKEN");

      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(question(page)).toContainText("Closing discards them.");
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      // Under the open question the dialog is outside the accessibility tree, where it counts as
      // hidden already: wait for the question to close first.
      await expect(question(page)).toBeHidden();
      await expect(dialog).toBeHidden();

      await create.click();
      await expect(dialog.getByLabel("Key")).toHaveValue("");
    });

    test("an inline value edit asks before Escape discards it", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedSecret(service, project, { key: "API_URL", value: "https://api.example.com" });
      await openSecrets(page, project, "?env=dev");
      const row = secretRow(page, "API_URL");
      const editor = row.getByRole("textbox", { name: "New value of API_URL" });

      await row.getByRole("button", { name: "Edit value of API_URL" }).click();
      await expect(editor).toHaveValue("https://api.example.com");
      await editor.press("Escape");
      await expect(editor).toBeHidden();
      await expect(question(page)).toHaveCount(0);

      await row.getByRole("button", { name: "Edit value of API_URL" }).click();
      await editor.fill("https://api.example.org");
      await editor.press("Escape");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(editor).toHaveValue("https://api.example.org");

      await editor.press("Escape");
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      // Under the open question the table is outside the accessibility tree, where it counts as
      // hidden already: wait for the question to close first.
      await expect(question(page)).toBeHidden();
      await expect(editor).toBeHidden();
      await expect(row.getByRole("button", { name: "Edit value of API_URL" })).toBeFocused();
      expect((await readSecret(service, project, "API_URL")).secretValue).toBe("https://api.example.com");
    });

    test("an inline value edit asks before another row's edit replaces it", async ({
      signedIn: page,
      service,
      seededProject: project,
    }) => {
      await seedSecret(service, project, { key: "API_URL", value: "https://api.example.com" });
      await seedSecret(service, project, { key: "CDN_URL", value: "https://cdn.example.com" });
      await openSecrets(page, project, "?env=dev");
      const editor = secretRow(page, "API_URL").getByRole("textbox", { name: "New value of API_URL" });
      const other = secretRow(page, "CDN_URL").getByRole("textbox", { name: "New value of CDN_URL" });
      const editOther = secretRow(page, "CDN_URL").getByRole("button", { name: "Edit value of CDN_URL" });

      await secretRow(page, "API_URL").getByRole("button", { name: "Edit value of API_URL" }).click();
      await expect(editor).toHaveValue("https://api.example.com");
      await editor.fill("https://api.example.org");
      await editOther.click();
      await expect(question(page)).toContainText("Your changes have not been saved.");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(question(page)).toBeHidden();
      await expect(editor).toHaveValue("https://api.example.org");
      await expect(other).toHaveCount(0);

      await editOther.click();
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      await expect(other).toHaveValue("https://cdn.example.com");
      await expect(editor).toHaveCount(0);
      expect((await readSecret(service, project, "API_URL")).secretValue).toBe("https://api.example.com");

      // Unchanged, the edit moves at once.
      await secretRow(page, "API_URL").getByRole("button", { name: "Edit value of API_URL" }).click();
      await expect(editor).toHaveValue("https://api.example.com");
      await expect(other).toHaveCount(0);
      await expect(question(page)).toHaveCount(0);
    });

    test("a page's form asks before the console leaves it", async ({ signedIn: page, seededIdentity }) => {
      const { id, name } = seededIdentity.identity;
      const projects = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Projects" });
      await page.goto(`/identities/${id}`);
      await page.getByRole("navigation", { name: "Identity sections" }).getByRole("link", { name: "Edit" }).click();
      const field = page.getByLabel("Name", { exact: true });
      await expect(field).toHaveValue(name);

      await field.fill(`${name}-renamed`);
      await projects.click();
      await expect(question(page)).toContainText("Leaving this page discards them.");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\/edit$/);
      await expect(field).toHaveValue(`${name}-renamed`);

      await page.goBack();
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\/edit$/);

      await projects.click();
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();

      // Untouched, it is left at once.
      await page.goto(`/identities/${id}/edit`);
      await expect(field).toHaveValue(name);
      await projects.click();
      await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
      await expect(question(page)).toHaveCount(0);
    });

    test("signing out asks before it discards a page's unsaved input", async ({
      signedIn: page,
      service,
      seededIdentity,
    }) => {
      const { id, name } = seededIdentity.identity;
      await page.goto(`/identities/${id}/edit`);
      const field = page.getByLabel("Name", { exact: true });
      await expect(field).toHaveValue(name);
      await field.fill(`${name}-renamed`);

      const signOut = async () => {
        await page.getByRole("button", { name: /^Account: / }).click();
        await page.getByRole("menuitem", { name: "Sign out" }).click();
      };
      await signOut();
      await expect(question(page)).toContainText("Your changes have not been saved.");
      await question(page).getByRole("button", { name: "Cancel" }).click();
      await expect(question(page)).toBeHidden();
      await expect(page).toHaveURL(/\/edit$/);
      await expect(field).toHaveValue(`${name}-renamed`);

      await signOut();
      await question(page).getByRole("button", { name: "Discard changes" }).click();
      await expect(page).toHaveURL(/\/sign-in/);
      await expect(page.getByRole("heading", { level: 1, name: "Sign in to Keyhold" })).toBeVisible();
      const { identity: membership } = await service(endpoints["identities.get"], { params: { identityId: id } });
      expect(membership.identity.name).toBe(name);
    });

    test("reloading or closing the tab with unsaved input makes the browser ask", async ({
      signedIn: page,
      seededIdentity,
    }) => {
      const { id, name } = seededIdentity.identity;
      const asked: string[] = [];
      page.on("dialog", (dialog) => {
        asked.push(dialog.type());
        void (asked.length === 1 ? dialog.dismiss() : dialog.accept());
      });
      await page.goto(`/identities/${id}/edit`);
      const field = page.getByLabel("Name", { exact: true });
      await expect(field).toHaveValue(name);

      // Untouched, a reload is not asked about.
      await page.reload();
      await expect(field).toHaveValue(name);
      expect(asked).toEqual([]);

      await field.click();
      await field.fill(`${name}-renamed`);
      // Dismissed: the tab stays, the input with it.
      await page.close({ runBeforeUnload: true });
      await expect.poll(() => asked).toEqual(["beforeunload"]);
      expect(page.isClosed()).toBe(false);
      await expect(field).toHaveValue(`${name}-renamed`);

      // Accepted: the reload goes ahead.
      await page.reload();
      expect(asked).toEqual(["beforeunload", "beforeunload"]);
      await expect(field).toHaveValue(name);
    });
  });
}

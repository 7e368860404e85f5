import { mkdirSync } from "node:fs";
import { endpoints } from "@keyhold/contract";
import { expect, test } from "../support/fixtures.ts";
import { sidewaysOverflow } from "../support/layout.ts";
import { startStreamReceiver } from "../support/stream-receiver.ts";

const dir = process.env.KEYHOLD_SCREENSHOT_DIR ?? new URL("../screenshots/", import.meta.url).pathname;
mkdirSync(dir, { recursive: true });

/**
 * The organisation's audit settings with a stream that delivers and one whose receiver fails,
 * after a test event and a verification, in both themes at a phone's width and a desktop's.
 */
for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1440] as const) {
    test(`audit settings in the ${theme} theme at ${width} px`, async ({ signedIn: page, service, seededProject }) => {
      const healthy = await startStreamReceiver();
      const failing = await startStreamReceiver();
      const created: { provider: string; streamId: string }[] = [];
      try {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width, height: 900 });
        for (const receiver of [healthy, failing]) {
          const { auditLogStream } = await service(endpoints["auditLogStreams.create"], {
            params: { provider: "custom" },
            body: { credentials: { url: receiver.url, headers: [{ key: "Authorization", value: "Bearer sample" }] } },
          });
          created.push({ provider: auditLogStream.provider, streamId: auditLogStream.id });
        }
        // The second receiver goes down after the ping: its deliveries fail from now on.
        await failing.close();
        await service(endpoints["projects.updateAuditLogsRetention"], {
          params: { projectId: seededProject.id },
          body: { auditLogsRetentionDays: 30 },
        });
        await service(endpoints["secrets.create"], {
          params: { secretName: "SCREENSHOT_EVENT" },
          body: { workspaceId: seededProject.id, environment: "dev", secretPath: "/", secretValue: "v" },
        });

        await page.goto("/settings");
        const streams = page.getByRole("region", { name: "Streams" });
        await expect(streams.getByRole("listitem")).toHaveCount(2);
        await streams.getByRole("button", { name: `Send test event to ${healthy.url}` }).click();
        await expect(streams.getByText(/^Test event delivered/)).toBeVisible();
        await expect(streams.getByText(/^Failing/)).toBeVisible({ timeout: 20_000 });
        await page.getByRole("button", { name: "Verify now" }).click();
        await expect(page.getByText("The chain holds")).toBeVisible();
        expect(await sidewaysOverflow(page)).toBe(0);
        // From the top: a full-page shot of a scrolled page shows the sticky top bar halfway down.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${dir}${theme}-${width}-audit-settings.png`, fullPage: true });

        await streams.getByRole("button", { name: `Edit stream ${healthy.url}` }).click();
        await expect(page.getByRole("dialog", { name: "Edit stream" })).toBeVisible();
        await page.screenshot({ path: `${dir}${theme}-${width}-audit-settings-edit-stream.png` });
      } finally {
        for (const params of created) await service(endpoints["auditLogStreams.delete"], { params });
        await healthy.close();
      }
    });
  }
}

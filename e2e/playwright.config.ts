import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * Chromium's headless shell: the same Debian build as /usr/bin/chromium without the windowed
 * browser's own interface (its WebUI renderer and browser-side work): the suites take a quarter to
 * a third less CPU time in it. `npm test` installs it; where it is missing, the
 * full browser runs headless instead.
 */
const headlessShell = "/usr/bin/chromium-headless-shell";
const chromium = existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium";

/**
 * The global setup starts a fresh service (temporary data dir, SQLite) and a BFF
 * serving the built console on free ports, and passes their addresses to the
 * tests through the environment.
 */
export default defineConfig({
  testDir: "tests",
  globalSetup: "./support/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.KEYHOLD_E2E_BASE_URL,
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot of
    // the page as it failed. No screencast in the trace: without one, a test that passes takes a
    // quarter to a third less CPU time.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});

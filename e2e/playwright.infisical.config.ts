import { defineConfig } from "@playwright/test";
import base from "./playwright.config.ts";

/**
 * The live suite: the console's flows against a real Infisical server (`pnpm test:infisical`).
 * The tests tagged `@live` in `tests/` hold against any Infisical-compatible server; the setup
 * puts a BFF in front of the server named by KEYHOLD_E2E_INFISICAL_URL. One worker: the tests
 * share one organisation on a server that is slower than ours.
 */
export default defineConfig({
  ...base,
  globalSetup: "./support/infisical-setup.ts",
  grep: process.env.KEYHOLD_E2E_LIVE_GREP ? new RegExp(process.env.KEYHOLD_E2E_LIVE_GREP) : /@live/,
  fullyParallel: false,
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 20_000 },
});

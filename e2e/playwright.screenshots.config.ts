import base from "./playwright.config.ts";

/** Screenshots of every page in both themes, into e2e/screenshots/, for people to look at. */
// A tour walks many pages in one test: it gets minutes, not the suites' one minute.
export default { ...base, testDir: "screenshot-tour", fullyParallel: false, workers: 1, timeout: 300_000 };

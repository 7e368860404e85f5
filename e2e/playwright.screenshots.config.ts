import base from "./playwright.config.ts";

/** Screenshots of every page in both themes, into e2e/screenshots/, for people to look at. */
export default { ...base, testDir: "screenshot-tour", fullyParallel: false, workers: 1 };

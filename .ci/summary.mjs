// Totals the vitest and Playwright JSON reports in a folder and prints one line,
// "N passed, N failed". A failed step that produced no report (typecheck, lint,
// build, a suite that crashed) counts as one failure. Exits 1 on any failure or
// when nothing ran.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [dir, ...failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;

for (const name of existsSync(dir) ? readdirSync(dir) : []) {
  if (!name.endsWith(".json")) continue;
  const report = JSON.parse(readFileSync(join(dir, name), "utf8"));
  if (name.startsWith("vitest-")) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A file that failed to load has no tests in it but still fails the suite.
    failed += report.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
  } else if (name === "e2e.json") {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    failed += report.errors?.length ?? 0;
  }
}

const reported = new Set((existsSync(dir) ? readdirSync(dir) : []).map((n) => n.replace(/^vitest-|\.json$/g, "")));
for (const step of failedSteps) {
  const suite = step.replace(/^tests: /, "");
  // A failing suite is already counted through its report; other steps count once.
  if (!(step.startsWith("tests: ") && reported.has(suite))) {
    console.log(`failed step: ${step}`);
    failed += 1;
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

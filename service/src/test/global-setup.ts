/** Says once, in every run's output, whether the PostgreSQL half of the suite runs. */
export default function setup(): void {
  if (process.env.KEYHOLD_TEST_DATABASE_URL) {
    console.warn("[keyhold/service] Running every database suite on SQLite and on PostgreSQL.");
  } else {
    console.warn(
      "[keyhold/service] PostgreSQL runs are SKIPPED: set KEYHOLD_TEST_DATABASE_URL to a postgres:// admin database URL to run them.",
    );
  }
}

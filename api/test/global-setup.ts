/**
 * Runs once before the API tests: says which database they run against. Each test file then
 * gets a database of its own (see harness.ts), so files run in parallel without sharing rows.
 */
export default function setup() {
  const url = process.env.TEST_DATABASE_URL;
  console.log(url ? `API tests on PostgreSQL (${new URL(url).host}), a fresh database per file` : 'API tests on PGlite, in memory, a fresh database per file');
}

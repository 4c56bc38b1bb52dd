// Run by test-postgres-root.test.ts from a copy of the package: starts the test PostgreSQL,
// creates a database, asks it one question and stops.
import { startTestPostgres } from '@macstats/testing';
import pg from 'pg';

const server = await startTestPostgres();
try {
  const client = new pg.Client({ connectionString: await server.createDatabase('under_0700') });
  await client.connect();
  const { rows } = await client.query('select 1 + 1 as sum');
  await client.end();
  console.log(`answered: ${rows[0].sum}`);
} finally {
  await server.close();
}

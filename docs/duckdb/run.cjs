// run.cjs runs a SQL file with DuckDB (npm @duckdb/node-api) in a folder
// and prints the rows of its last statement, tab-separated:
//
//   npm install --prefix /tmp/duckdb @duckdb/node-api
//   NODE_PATH=/tmp/duckdb/node_modules node docs/duckdb/run.cjs DIR docs/duckdb/counts.sql
//
// train/duckdb_test.go uses it (RPSHOGI_NODE_MODULES=/tmp/duckdb/node_modules).
const fs = require('fs');
const path = require('path');
const { DuckDBInstance } = require('@duckdb/node-api');

async function main() {
  const [dir, file] = process.argv.slice(2);
  const sql = fs.readFileSync(path.resolve(file), 'utf8');
  process.chdir(dir);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const reader = await conn.runAndReadAll(sql);
  for (const row of reader.getRows()) {
    process.stdout.write(row.map(String).join('\t') + '\n');
  }
}

main().catch((err) => {
  process.stderr.write(String(err && err.stack || err) + '\n');
  process.exit(1);
});

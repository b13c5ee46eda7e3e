// run.cjs runs a SQL file with DuckDB (npm @duckdb/node-api) in a folder
// and prints the rows of its last statement, tab-separated:
//
//   npm install -g @duckdb/node-api       # or: npm install @duckdb/node-api (in the repository)
//   node docs/duckdb/run.cjs DIR docs/duckdb/counts.sql
//
// It finds @duckdb/node-api wherever npm put it, with no NODE_PATH: in a
// node_modules folder at or above this script or the current folder
// (npm install without -g), in $RPSHOGI_NODE_MODULES or $NODE_PATH, or in
// npm's global folder (npm install -g; `npm root -g`).
// train/duckdb_test.go uses it (RPSHOGI_NODE_MODULES=/tmp/duckdb/node_modules
// after npm install --prefix /tmp/duckdb @duckdb/node-api).
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');
const { execFileSync } = require('child_process');

const pkg = '@duckdb/node-api';

// loadDuckDB returns the module, looking where npm installs it.
function loadDuckDB() {
  const tried = [];
  const attempt = (req, where) => {
    try {
      return req(pkg);
    } catch (err) {
      if (err.code !== 'MODULE_NOT_FOUND') throw err;
      tried.push(where);
      return null;
    }
  };
  let m = attempt(require, 'node_modules at or above ' + __dirname);
  if (m) return m;
  m = attempt(createRequire(path.join(process.cwd(), 'run.cjs')), 'node_modules at or above ' + process.cwd());
  if (m) return m;
  const dirs = [process.env.RPSHOGI_NODE_MODULES, ...(process.env.NODE_PATH || '').split(path.delimiter)].filter(Boolean);
  try {
    dirs.push(execFileSync('npm', ['root', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch (err) {
    // no npm: the other places only
  }
  for (const dir of dirs) {
    m = attempt(createRequire(path.join(dir, 'x.cjs')), dir);
    if (m) return m;
  }
  throw new Error('run.cjs needs npm\'s ' + pkg + ' and found it in none of: ' + tried.join('; ') +
    '\ninstall it with: npm install -g ' + pkg + '   (or npm install ' + pkg + ' in the repository)');
}

async function main() {
  const [dir, file] = process.argv.slice(2);
  if (!dir || !file) {
    throw new Error('usage: node docs/duckdb/run.cjs DIR FILE.sql');
  }
  const { DuckDBInstance } = loadDuckDB();
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

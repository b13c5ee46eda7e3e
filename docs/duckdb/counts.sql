-- The category counts of the probabilities view, recomputed by DuckDB
-- from the Parquet files that `rpshogi train --arrow DIR` writes (run it
-- in DIR): n_p and n_c count the positions whose played move, or some
-- legal move, has the category (positions.parquet); the names come from
-- counts.parquet. One row per category, in id order, as
--   sqlite3 rp.sqlite 'SELECT name, n_p, n_c FROM probabilities ORDER BY id'
-- prints them. With the DuckDB CLI: cd DIR && duckdb -csv < counts.sql
-- (train/duckdb_test.go runs it through npm's @duckdb/node-api and
-- compares it with the database.)
SELECT c.name, coalesce(p.n, 0) AS n_p, coalesce(q.n, 0) AS n_c
FROM 'counts.parquet' c
LEFT JOIN (SELECT id, count(*) AS n FROM (SELECT unnest(played_categories) AS id FROM 'positions.parquet') GROUP BY id) p USING (id)
LEFT JOIN (SELECT id, count(*) AS n FROM (SELECT unnest(present_categories) AS id FROM 'positions.parquet') GROUP BY id) q USING (id)
ORDER BY c.id;

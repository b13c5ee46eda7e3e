package ingest

import (
	"context"
	"database/sql"
)

// RunDB runs Run on paths into the database at path, in one transaction
// (WithDB) that is committed only if the run completed and its report
// adds up (Report.Check): a failed or interrupted run leaves the database
// as it was. It returns the report and what the store added.
func RunDB(ctx context.Context, path string, opts Options, paths []string) (*Report, StoreStats, error) {
	var rep *Report
	var stats StoreStats
	err := WithDB(ctx, path, func(tx *sql.Tx) error {
		st, err := NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		rep, err = Run(ctx, opts, paths, st)
		stats = st.Stats()
		if err != nil {
			return err
		}
		return rep.Check() // never commit a run that does not add up
	})
	return rep, stats, err
}

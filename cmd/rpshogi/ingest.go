package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"

	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/cmd/internal/recflags"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// recordFlags are the flags that choose and filter game records, shared
// by the commands that read records (recflags.Flags).
type recordFlags recflags.Flags

// register adds the flags to fs.
func (f *recordFlags) register(fs *pflag.FlagSet) { (*recflags.Flags)(f).Register(fs) }

// options checks the flags and returns the ingest options they give; a
// bad value is a usage error.
func (f *recordFlags) options() (ingest.Options, error) {
	opts, err := (*recflags.Flags)(f).Options()
	if err != nil {
		return opts, &usageError{err}
	}
	return opts, nil
}

type ingestOptions struct {
	IO    *iostreams
	Paths []string
	DB    string
	Flags recordFlags
	Quiet bool
	JSON  bool
	// Ingest is what Flags give, checked.
	Ingest ingest.Options
}

func newIngestCmd(ios *iostreams, runF func(context.Context, *ingestOptions) error) *cobra.Command {
	opts := &ingestOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "ingest PATH... --db FILE",
		Short: "Read game records into a database: distinct replayed games, every file accounted for",
		Long: `ingest reads game records (KIF, KI2, CSA, SFEN lists) from files, folders
(recursively), glob patterns, zip/tar/tar.gz archives, or standard input
("-"), replays every game, drops duplicates (the same start position and
moves, in any format) and filters, and stores the games in the SQLite
database FILE (tables games, duplicates, rejects, meta).

Every record is accounted for: accepted, duplicate, filtered or rejected,
and each rejected one is listed with its file, line and reason. A game
whose moves stop at an illegal move is rejected, never shortened silently;
with --partial its legal moves are kept, its ending recorded as illegal,
and the report counts it as accepted-partial with the file and line of the
move. The run is one transaction: if it fails or is interrupted (Ctrl-C),
the database is left as it was. Ingesting the same records again adds
nothing.

In folders (and glob matches, and archives) only record files and
archives are read; other files, symbolic links inside a folder (never
followed) and named pipes (never opened) are skipped and counted by
reason. A path that gives no record file to read (an empty folder, a
folder or pattern of other files) stops the run before anything is read,
as a pattern that matches nothing does, saying what was looked for; so
does a run whose only inputs are archives without a record file.

Hostile or broken inputs are bounded: a file or archive member larger
than --max-file-size, a record file with a line longer than --max-line,
an archive nested deeper than --max-depth, and the rest of an archive
past --max-total decompressed bytes are rejected with the bound and the
member's path inside the archive chain.

The exit status is 0 when the run completed, even if files were rejected,
1 when it could not run (a path that gives no record file included), 2
for a bad command line and 130 when interrupted.`,
		Example: `  rpshogi ingest ~/kifu --db rp.sqlite
  rpshogi ingest games.zip 'more/*.kif' --db rp.sqlite --handicap include --min-plies 30
  rpshogi ingest ~/kifu --db rp.sqlite --since 2015 --player 羽生 --result resign,mate --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("ingest takes at least one PATH")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.DB == "" {
				return usageErrorf("--db FILE is required")
			}
			var err error
			if opts.Ingest, err = opts.Flags.options(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runIngest(cmd.Context(), opts)
		},
	}
	opts.Flags.register(cmd.Flags())
	cmd.Flags().StringVar(&opts.DB, "db", "", "SQLite database to write (created if missing; required)")
	cmd.Flags().BoolVarP(&opts.Quiet, "quiet", "q", false, "print no progress bar and no report (errors only; --json still prints its report)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON on standard output")
	return cmd
}

// ingestJSON is the --json output.
type ingestJSON struct {
	DB       string            `json:"db"`
	Database ingest.StoreStats `json:"database"`
	Report   *ingest.Report    `json:"report"`
}

func runIngest(ctx context.Context, opts *ingestOptions) error {
	if err := checkWritable("ingest", opts.DB); err != nil {
		return err
	}
	existed := exists(opts.DB)
	iopts := opts.Ingest
	iopts.Stdin = cancelableReader(ctx, opts.IO.In)
	var bar *progressbar.ProgressBar
	if !opts.Quiet && isTerminal(opts.IO.ErrOut) {
		bar = newInputBar(opts.IO.ErrOut, "ingest", opts.Paths, opts.Ingest.AllFiles)
		iopts.Progress = func(p ingest.Progress) {
			bar.Describe(fmt.Sprintf("%d files, %d games", p.Files, p.Accepted))
			bar.Set64(p.Bytes)
		}
	}
	var rep *ingest.Report
	var stats ingest.StoreStats
	err := ingest.WithDB(ctx, opts.DB, func(tx *sql.Tx) error {
		st, err := ingest.NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		rep, err = ingest.Run(ctx, iopts, opts.Paths, st)
		stats = st.Stats()
		if err != nil {
			return err
		}
		return rep.Check() // never commit a run that does not add up
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return interrupted(ctx, err, rolledBack(opts.DB, existed))
	}
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(ingestJSON{DB: opts.DB, Database: stats, Report: rep})
	}
	if opts.Quiet {
		return nil
	}
	if err := rep.WriteText(opts.IO.Out); err != nil {
		return err
	}
	_, err = fmt.Fprintf(opts.IO.Out, "database %s: %d games added (%d already there), %d duplicates and %d rejects recorded\n",
		opts.DB, stats.GamesAdded, stats.GamesKnown, stats.DuplicatesAdded, stats.RejectsAdded)
	return err
}

// newIngestBar returns a progress bar of unknown length that shows bytes
// read, files and games.
func newIngestBar(w io.Writer) *progressbar.ProgressBar {
	return progress.Bar(w, "ingest", -1, true)
}

// newInputBar returns a progress bar of the bytes of record files read
// from paths, with the total and the time left when the total is known
// before reading (progress.InputBytes), a spinner otherwise.
func newInputBar(w io.Writer, desc string, paths []string, allFiles bool) *progressbar.ProgressBar {
	exts := ingest.RecordExts
	if allFiles {
		exts = nil
	}
	return progress.Bar(w, desc, progress.InputBytes(paths, exts), true)
}

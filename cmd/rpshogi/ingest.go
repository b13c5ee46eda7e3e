package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/cmd/internal/progress"
	"github.com/rpshogi/rpshogi/ingest"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// recordFlags are the flags that choose and filter game records, shared
// by the commands that ingest (ingest, train).
type recordFlags struct {
	Workers  int
	MinPlies int
	Handicap string
	Since    string
	Until    string
	Player   string
	Results  string
	AllFiles bool
	Partial  bool
	// Limits, as given (sizes like 16MiB, 16M, 65536; "" and 0 for the
	// defaults of ingest.Limits).
	MaxFileSize string
	MaxLine     string
	MaxTotal    string
	MaxDepth    int
}

// register adds the flags to fs.
func (f *recordFlags) register(fs *pflag.FlagSet) {
	fs.IntVar(&f.Workers, "workers", 0, "goroutines that read records (0: one per CPU); the output does not depend on it")
	fs.IntVar(&f.MinPlies, "min-plies", 0, "skip games with fewer main-line moves")
	fs.StringVar(&f.Handicap, "handicap", "exclude", "handicap games: exclude (even games only), include, or only (any start but the even game)")
	fs.StringVar(&f.Since, "since", "", "keep games played on or after DATE (yyyy-mm-dd, yyyy-mm or yyyy); games without a date are skipped")
	fs.StringVar(&f.Until, "until", "", "keep games played on or before DATE (yyyy-mm-dd, yyyy-mm or yyyy); games without a date are skipped")
	fs.StringVar(&f.Player, "player", "", "keep games in which either player's name contains NAME (ignoring case and width)")
	fs.StringVar(&f.Results, "result", "", "keep games that ended in one of these ways, comma-separated: resign, mate, repetition, jishogi, time-up, illegal, declare-win, interrupt, none, ...")
	fs.BoolVar(&f.AllFiles, "all-files", false, "read every file in folders and archives, not only .kif .kifu .ki2 .ki2u .csa .sfen .usi")
	fs.BoolVar(&f.Partial, "partial", false, "keep the legal moves of a game cut short by an illegal move (its ending recorded as illegal) instead of rejecting it")
	fs.StringVar(&f.MaxFileSize, "max-file-size", "", "reject a file or archive member larger than SIZE (default 16MiB)")
	fs.StringVar(&f.MaxLine, "max-line", "", "reject a record file with a line longer than SIZE (default 64KiB)")
	fs.StringVar(&f.MaxTotal, "max-total", "", "stop reading an archive (nested ones included) past SIZE decompressed (default 4GiB)")
	fs.IntVar(&f.MaxDepth, "max-depth", 0, "do not open archives nested more than N deep; an archive in an archive is 2 (default 8)")
}

// parseSize reads a size in bytes: a number with an optional unit k, M,
// G (or KiB, MiB, GiB; powers of 1024), case-insensitive; "" is 0 (the
// default).
func parseSize(flag, s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.ToLower(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "b"), "i")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k':
			mult = 1 << 10
		case 'm':
			mult = 1 << 20
		case 'g':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(t), 10, 64)
	if err != nil || v <= 0 || v > math.MaxInt64/mult {
		return 0, usageErrorf("--%s: want a size like 64MiB, 512k or 65536, got %q", flag, s)
	}
	return v * mult, nil
}

// options checks the flags and returns the ingest options they give; a
// bad value is a usage error.
func (f *recordFlags) options() (ingest.Options, error) {
	opts := ingest.Options{Workers: f.Workers, AllFiles: f.AllFiles, Partial: f.Partial}
	if f.Workers < 0 {
		return opts, usageErrorf("--workers must be 0 or more")
	}
	var err error
	lim := &opts.Limits
	if lim.MaxFileBytes, err = parseSize("max-file-size", f.MaxFileSize); err != nil {
		return opts, err
	}
	line, err := parseSize("max-line", f.MaxLine)
	if err != nil {
		return opts, err
	}
	if line > math.MaxInt32 {
		return opts, usageErrorf("--max-line %s is more than 2GiB", f.MaxLine)
	}
	lim.MaxLineBytes = int(line)
	if lim.MaxTotalBytes, err = parseSize("max-total", f.MaxTotal); err != nil {
		return opts, err
	}
	if f.MaxDepth < 0 {
		return opts, usageErrorf("--max-depth must be 1 or more")
	}
	lim.MaxDepth = f.MaxDepth
	if f.MinPlies < 0 {
		return opts, usageErrorf("--min-plies must be 0 or more")
	}
	flt := &opts.Filter
	flt.MinPlies = f.MinPlies
	flt.Player = f.Player
	if flt.Handicap, err = ingest.ParseHandicapMode(f.Handicap); err != nil {
		return opts, usageErrorf("--handicap: want include, exclude or only, got %q", f.Handicap)
	}
	if f.Since != "" {
		if flt.Since, err = ingest.ParseDateBound(f.Since, false); err != nil {
			return opts, usageErrorf("--since: want yyyy-mm-dd, yyyy-mm or yyyy, got %q", f.Since)
		}
	}
	if f.Until != "" {
		if flt.Until, err = ingest.ParseDateBound(f.Until, true); err != nil {
			return opts, usageErrorf("--until: want yyyy-mm-dd, yyyy-mm or yyyy, got %q", f.Until)
		}
	}
	if flt.Since != "" && flt.Until != "" && flt.Since > flt.Until {
		return opts, usageErrorf("--since %s is after --until %s", flt.Since, flt.Until)
	}
	if flt.Results, err = ingest.ParseEndKinds(f.Results); err != nil {
		return opts, usageErrorf("--result: %s", strings.TrimPrefix(err.Error(), "ingest: "))
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

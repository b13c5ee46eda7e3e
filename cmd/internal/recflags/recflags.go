// Package recflags holds the command-line flags that choose and filter
// game records (workers, filters, input limits), shared by every rpshogi
// command that reads records, and turns them into ingest.Options.
package recflags

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/spf13/pflag"
)

// Flags are the flags that choose and filter game records, shared by the
// commands that read records (ingest, train, evaluate, match, ...).
type Flags struct {
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

// Register adds the flags to fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.IntVar(&f.Workers, "workers", 0, "goroutines that read records (0: one per CPU); the output does not depend on it")
	fs.IntVar(&f.MinPlies, "min-plies", 0, "skip games with fewer main-line moves")
	fs.StringVar(&f.Handicap, "handicap", "exclude", "handicap games: exclude (even games only), include, or only (any start but the even game)")
	fs.StringVar(&f.Since, "since", "", "keep games played on or after DATE (yyyy-mm-dd, yyyy-mm or yyyy); games without a date are skipped")
	fs.StringVar(&f.Until, "until", "", "keep games played on or before DATE (yyyy-mm-dd, yyyy-mm or yyyy); games without a date are skipped")
	fs.StringVar(&f.Player, "player", "", "keep games in which either player's name contains NAME (ignoring case and width)")
	fs.StringVar(&f.Results, "result", "", "keep games that ended in one of these ways, comma-separated: resign, mate, repetition, jishogi, time-up, illegal, declare-win, interrupt, none, ...")
	fs.BoolVar(&f.AllFiles, "all-files", false, "read every file in folders and archives, not only .kif .kifu .ki2 .ki2u .csa .sfen .usi .jkf")
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
		return 0, fmt.Errorf("--%s: want a size like 64MiB, 512k or 65536, got %q", flag, s)
	}
	return v * mult, nil
}

// Options checks the flags and returns the ingest options they give; an
// error names the bad flag and value.
func (f *Flags) Options() (ingest.Options, error) {
	opts := ingest.Options{Workers: f.Workers, AllFiles: f.AllFiles, Partial: f.Partial}
	if f.Workers < 0 {
		return opts, fmt.Errorf("--workers must be 0 or more")
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
		return opts, fmt.Errorf("--max-line %s is more than 2GiB", f.MaxLine)
	}
	lim.MaxLineBytes = int(line)
	if lim.MaxTotalBytes, err = parseSize("max-total", f.MaxTotal); err != nil {
		return opts, err
	}
	if f.MaxDepth < 0 {
		return opts, fmt.Errorf("--max-depth must be 1 or more")
	}
	lim.MaxDepth = f.MaxDepth
	if f.MinPlies < 0 {
		return opts, fmt.Errorf("--min-plies must be 0 or more")
	}
	flt := &opts.Filter
	flt.MinPlies = f.MinPlies
	flt.Player = f.Player
	if flt.Handicap, err = ingest.ParseHandicapMode(f.Handicap); err != nil {
		return opts, fmt.Errorf("--handicap: want include, exclude or only, got %q", f.Handicap)
	}
	if f.Since != "" {
		if flt.Since, err = ingest.ParseDateBound(f.Since, false); err != nil {
			return opts, fmt.Errorf("--since: want yyyy-mm-dd, yyyy-mm or yyyy, got %q", f.Since)
		}
	}
	if f.Until != "" {
		if flt.Until, err = ingest.ParseDateBound(f.Until, true); err != nil {
			return opts, fmt.Errorf("--until: want yyyy-mm-dd, yyyy-mm or yyyy, got %q", f.Until)
		}
	}
	if flt.Since != "" && flt.Until != "" && flt.Since > flt.Until {
		return opts, fmt.Errorf("--since %s is after --until %s", flt.Since, flt.Until)
	}
	if flt.Results, err = ingest.ParseEndKinds(f.Results); err != nil {
		return opts, fmt.Errorf("--result: %s", strings.TrimPrefix(err.Error(), "ingest: "))
	}
	return opts, nil
}

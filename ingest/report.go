package ingest

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxReportRejects and MaxReportWarnings bound the rejects and warnings
// listed in a Report (all are counted, and a Sink such as Store gets
// every reject).
const (
	MaxReportRejects  = 1000
	MaxReportWarnings = 1000
)

// Report accounts for every input of a run. Every record read is
// accepted, a duplicate, filtered or rejected (see Check): a file that
// cannot be read at all, and an empty file, count as one rejected record.
type Report struct {
	Files   int   `json:"files"` // inputs: files and archive members
	Bytes   int64 `json:"bytes"` // bytes read (archive members uncompressed)
	Records int   `json:"records"`
	// Accepted counts distinct games passed to Sink.Game; AlreadyStored
	// counts those of them that the sink found already stored by an
	// earlier run (Game.Known).
	Accepted      int `json:"accepted"`
	AlreadyStored int `json:"already_stored"`
	// AcceptedPartial counts the accepted games cut short at an illegal
	// move and kept (Options.Partial); each is also a warning naming the
	// file and line of the move.
	AcceptedPartial int `json:"accepted_partial"`
	Duplicates      int `json:"duplicates"`
	// Filtered counts filtered games by reason (FilterHandicap, ...).
	Filtered map[string]int `json:"filtered"`
	Rejected int            `json:"rejected"`
	// RejectedBy counts rejected records by kind; Rejects lists the
	// first MaxReportRejects of them.
	RejectedBy map[RejectKind]int `json:"rejected_by_kind"`
	Rejects    []*Reject          `json:"rejects"`
	// Warnings counts records used in spite of something odd; the first
	// MaxReportWarnings are listed.
	Warnings    int        `json:"warnings"`
	WarningList []*Warning `json:"warning_list"`
	// Formats and Encodings count input files by the format and encoding
	// they were read as ("unknown" when not reached).
	// Skipped counts the files found and not read (not records, links
	// and pipes inside folders, archives with no record file) by reason
	// (Skip*); they are not records. SkippedList names the first
	// MaxReportWarnings of them, except files skipped for their
	// extension. LookedFor says what the walk read in folders and
	// archives.
	Skipped     int            `json:"skipped"`
	SkippedBy   map[string]int `json:"skipped_by_reason"`
	SkippedList []*Warning     `json:"skipped_list"`
	LookedFor   string         `json:"looked_for"`
	Formats     map[string]int `json:"formats"`
	Encodings   map[string]int `json:"encodings"`
	Workers     int            `json:"workers"`
	Elapsed     time.Duration  `json:"-"`
}

func newReport() *Report {
	return &Report{Filtered: map[string]int{}, RejectedBy: map[RejectKind]int{},
		Formats: map[string]int{}, Encodings: map[string]int{}, Rejects: []*Reject{}, WarningList: []*Warning{},
		SkippedBy: map[string]int{}, SkippedList: []*Warning{}}
}

func (r *Report) addSkip(name, reason string) {
	r.Skipped++
	r.SkippedBy[reason]++
	if reason != SkipNotRecord && len(r.SkippedList) < MaxReportWarnings {
		r.SkippedList = append(r.SkippedList, &Warning{Source: name, Reason: reason})
	}
}

func (r *Report) addReject(rj *Reject) {
	r.Rejected++
	r.RejectedBy[rj.Kind]++
	if len(r.Rejects) < MaxReportRejects {
		r.Rejects = append(r.Rejects, rj)
	}
}

func (r *Report) addWarning(w *Warning) {
	r.Warnings++
	if len(r.WarningList) < MaxReportWarnings {
		r.WarningList = append(r.WarningList, w)
	}
}

// FilteredTotal returns the number of filtered games.
func (r *Report) FilteredTotal() int {
	n := 0
	for _, v := range r.Filtered {
		n += v
	}
	return n
}

// Check verifies that the report accounts for every record:
// accepted + duplicates + filtered + rejected = records, and that the
// counts by kind add up.
func (r *Report) Check() error {
	sum := r.Accepted + r.Duplicates + r.FilteredTotal() + r.Rejected
	if sum != r.Records {
		return fmt.Errorf("ingest: the report does not add up: accepted %d + duplicates %d + filtered %d + rejected %d = %d, but %d records were read",
			r.Accepted, r.Duplicates, r.FilteredTotal(), r.Rejected, sum, r.Records)
	}
	byKind := 0
	for _, v := range r.RejectedBy {
		byKind += v
	}
	files := 0
	for _, v := range r.Formats {
		files += v
	}
	switch {
	case byKind != r.Rejected:
		return fmt.Errorf("ingest: the report does not add up: %d rejects by kind, %d rejected", byKind, r.Rejected)
	case files != r.Files:
		return fmt.Errorf("ingest: the report does not add up: %d files by format, %d files", files, r.Files)
	case r.Records < r.Files:
		return fmt.Errorf("ingest: the report does not add up: %d records from %d files (each file is at least one)", r.Records, r.Files)
	case r.AlreadyStored > r.Accepted:
		return fmt.Errorf("ingest: the report does not add up: %d already stored of %d accepted", r.AlreadyStored, r.Accepted)
	}
	return nil
}

// MarshalJSON writes the report with elapsed_seconds and sum_ok (the
// result of Check) added.
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	return json.Marshal(struct {
		*plain
		FilteredTotal  int     `json:"filtered_total"`
		ElapsedSeconds float64 `json:"elapsed_seconds"`
		SumOK          bool    `json:"sum_ok"`
	}{(*plain)(r), r.FilteredTotal(), r.Elapsed.Seconds(), r.Check() == nil})
}

// WriteText writes the report as a table for people: the counts, then
// every listed reject and warning.
func (r *Report) WriteText(out io.Writer) error {
	w := &errWriter{w: out}
	row := func(label string, n int, note string) {
		fmt.Fprintf(w, "%-14s %8d%s\n", label, n, note)
	}
	row("files", r.Files, fmt.Sprintf(" %s read", sizeString(r.Bytes)))
	row("records", r.Records, "")
	known := ""
	if r.AlreadyStored > 0 {
		known = fmt.Sprintf(" %d of them already in the database", r.AlreadyStored)
	}
	row("accepted", r.Accepted, known)
	if r.AcceptedPartial > 0 {
		row("  partial", r.AcceptedPartial, " cut at an illegal move, legal moves kept (--partial)")
	}
	row("duplicates", r.Duplicates, "")
	row("filtered", r.FilteredTotal(), "")
	for _, k := range slices.Sorted(maps.Keys(r.Filtered)) {
		row("  "+k, r.Filtered[k], "")
	}
	row("rejected", r.Rejected, "")
	for _, k := range slices.Sorted(maps.Keys(r.RejectedBy)) {
		row("  "+string(k), r.RejectedBy[k], "")
	}
	row("warnings", r.Warnings, "")
	row("skipped", r.Skipped, " files found and not read")
	for _, k := range slices.Sorted(maps.Keys(r.SkippedBy)) {
		row("  "+k, r.SkippedBy[k], "")
	}
	check := "ok"
	if err := r.Check(); err != nil {
		check = err.Error()
	}
	fmt.Fprintf(w, "sum check: accepted + duplicates + filtered + rejected = %d + %d + %d + %d = records %d: %s\n",
		r.Accepted, r.Duplicates, r.FilteredTotal(), r.Rejected, r.Records, check)
	fmt.Fprintf(w, "formats: %s\n", countList(r.Formats))
	fmt.Fprintf(w, "encodings: %s\n", countList(r.Encodings))
	if r.LookedFor != "" && (r.Skipped > 0 || r.Records == 0) {
		fmt.Fprintf(w, "looked for: %s\n", r.LookedFor)
	}
	secs := r.Elapsed.Seconds()
	if secs > 0 {
		fmt.Fprintf(w, "elapsed: %.2fs with %d workers (%.0f records/s, %.1f MB/s)\n",
			secs, r.Workers, float64(r.Records)/secs, float64(r.Bytes)/1e6/secs)
	}
	if len(r.Rejects) > 0 {
		fmt.Fprintln(w, "rejected:")
		for _, rj := range r.Rejects {
			fmt.Fprintf(w, "  %s [%s]\n", rj, rj.Kind)
		}
		if n := r.Rejected - len(r.Rejects); n > 0 {
			fmt.Fprintf(w, "  ... and %d more (all are in the rejects table)\n", n)
		}
	}
	if len(r.WarningList) > 0 {
		fmt.Fprintln(w, "warnings:")
		for _, wn := range r.WarningList {
			fmt.Fprintf(w, "  %s\n", wn)
		}
		if n := r.Warnings - len(r.WarningList); n > 0 {
			fmt.Fprintf(w, "  ... and %d more\n", n)
		}
	}
	if len(r.SkippedList) > 0 {
		fmt.Fprintln(w, "skipped:")
		for _, sk := range r.SkippedList {
			fmt.Fprintf(w, "  %s\n", sk)
		}
		if n := r.Skipped - r.SkippedBy[SkipNotRecord] - len(r.SkippedList); n > 0 {
			fmt.Fprintf(w, "  ... and %d more\n", n)
		}
	}
	return w.err
}

// QuoteName returns a name (a file name, a stored text) as it is, or
// quoted like strconv.Quote when it holds a control or format character
// or bytes that are not UTF-8: printed as it is, such a name could forge
// lines of a report ("\nsum check: ... ok") or send escape sequences to
// the terminal. The report uses it, and so does "rpshogi sql"'s table.
func QuoteName(s string) string { return quoteName(s) }

func quoteName(s string) string {
	if strings.ContainsFunc(s, unsafeRune) {
		return strconv.Quote(s)
	}
	return s
}

// escapeText returns s with every control or format character, and every
// byte that is not UTF-8, written as a Go escape (\n, \x1b, \u202e).
func escapeText(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case unsafeRune(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// unsafeRune reports whether r may not be printed raw to a terminal: a
// control or format character, a line or paragraph separator, or the
// replacement of a byte that is not UTF-8.
func unsafeRune(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func countList(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

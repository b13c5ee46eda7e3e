package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/ingest"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/spf13/cobra"
)

func TestIngestFlags(t *testing.T) {
	defaults := recordFlags{Handicap: "exclude"}
	tests := []struct {
		name   string
		args   []string
		want   ingestOptions // IO and Ingest are not compared
		ingest ingest.Options
		err    string
	}{
		{"defaults", []string{"a", "--db", "x.sqlite"},
			ingestOptions{Paths: []string{"a"}, DB: "x.sqlite", Flags: defaults}, ingest.Options{}, ""},
		{"all flags", []string{"a", "b.zip", "-", "--db", "x.sqlite", "--workers", "8", "--min-plies", "30", "--handicap", "include",
			"--since", "2015", "--until", "2016-02", "--player", "羽生", "--result", "resign,mate", "--quiet", "--json", "--all-files"},
			ingestOptions{Paths: []string{"a", "b.zip", "-"}, DB: "x.sqlite", Quiet: true, JSON: true,
				Flags: recordFlags{Workers: 8, MinPlies: 30, Handicap: "include", Since: "2015", Until: "2016-02",
					Player: "羽生", Results: "resign,mate", AllFiles: true}},
			ingest.Options{Workers: 8, AllFiles: true, Filter: ingest.Filter{Handicap: ingest.HandicapInclude, MinPlies: 30,
				Since: "2015-01-01", Until: "2016-02-29", Player: "羽生", Results: []kifu.EndKind{kifu.EndResign, kifu.EndMate}}}, ""},
		{"partial and limits", []string{"a", "--db", "x", "--partial", "--max-file-size", "1M", "--max-line", "512k", "--max-total", "2GiB", "--max-depth", "3"},
			ingestOptions{Paths: []string{"a"}, DB: "x", Flags: recordFlags{Handicap: "exclude", Partial: true, MaxFileSize: "1M", MaxLine: "512k", MaxTotal: "2GiB", MaxDepth: 3}},
			ingest.Options{Partial: true, Limits: ingest.Limits{MaxFileBytes: 1 << 20, MaxLineBytes: 512 << 10, MaxTotalBytes: 2 << 30, MaxDepth: 3}}, ""},
		{"bad size", []string{"a", "--db", "x", "--max-file-size", "big"}, ingestOptions{}, ingest.Options{}, "--max-file-size"},
		{"zero size", []string{"a", "--db", "x", "--max-total", "0"}, ingestOptions{}, ingest.Options{}, "--max-total"},
		{"bad depth", []string{"a", "--db", "x", "--max-depth", "-1"}, ingestOptions{}, ingest.Options{}, "--max-depth"},
		{"only handicaps", []string{"a", "--db", "x", "--handicap", "only", "-q"},
			ingestOptions{Paths: []string{"a"}, DB: "x", Quiet: true, Flags: recordFlags{Handicap: "only"}},
			ingest.Options{Filter: ingest.Filter{Handicap: ingest.HandicapOnly}}, ""},
		{"no path", []string{"--db", "x"}, ingestOptions{}, ingest.Options{}, "at least one PATH"},
		{"no db", []string{"a"}, ingestOptions{}, ingest.Options{}, "--db FILE is required"},
		{"bad handicap", []string{"a", "--db", "x", "--handicap", "some"}, ingestOptions{}, ingest.Options{}, "--handicap"},
		{"bad since", []string{"a", "--db", "x", "--since", "2020-13"}, ingestOptions{}, ingest.Options{}, "--since"},
		{"bad until", []string{"a", "--db", "x", "--until", "soon"}, ingestOptions{}, ingest.Options{}, "--until"},
		{"empty range", []string{"a", "--db", "x", "--since", "2021", "--until", "2020"}, ingestOptions{}, ingest.Options{}, "is after"},
		{"bad result", []string{"a", "--db", "x", "--result", "resign,toryo"}, ingestOptions{}, ingest.Options{}, `"toryo"`},
		{"bad workers", []string{"a", "--db", "x", "--workers", "-1"}, ingestOptions{}, ingest.Options{}, "--workers"},
		{"bad min plies", []string{"a", "--db", "x", "--min-plies", "-3"}, ingestOptions{}, ingest.Options{}, "--min-plies"},
		{"unknown flag", []string{"a", "--db", "x", "--fast"}, ingestOptions{}, ingest.Options{}, "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *ingestOptions
			cmd := newIngestCmd(&iostreams{}, func(_ context.Context, o *ingestOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
			err := cmd.Execute()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				if _, ok := err.(*usageError); !ok {
					t.Errorf("error %v is not a usage error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			gotIngest := got.Ingest
			got.IO, got.Ingest = nil, ingest.Options{}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
			if !reflect.DeepEqual(gotIngest, tt.ingest) {
				t.Errorf("ingest options %+v, want %+v", gotIngest, tt.ingest)
			}
		})
	}
}

// TestIngestRun runs the command on the test records with buffered I/O:
// it completes with rejects (exit 0), prints the report, and a second
// run adds nothing.
func TestIngestRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	code, out, errOut := runCmd("ingest", testdata, "--db", db, "--handicap", "include", "--workers", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"files ", "accepted ", "rejected ", "sum check:", ": ok", "illegal-stop.kif:", "database " + db} {
		if !strings.Contains(out, want) {
			t.Errorf("the report has no %q:\n%s", want, out)
		}
	}
	if errOut != "" {
		t.Errorf("stderr is not a terminal, yet got %q", errOut)
	}
	code, out, errOut = runCmd("ingest", testdata, "--db", db, "--handicap", "include")
	if code != exitOK || !strings.Contains(out, "0 games added") || !strings.Contains(out, "already in the database") {
		t.Errorf("second run: exit %d, %s%s", code, out, errOut)
	}
	code, out, _ = runCmd("ingest", testdata, "--db", db, "--quiet")
	if code != exitOK || out != "" {
		t.Errorf("--quiet: exit %d, output %q", code, out)
	}
}

// TestIngestJSON checks the shape of the --json report.
func TestIngestJSON(t *testing.T) {
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	code, out, errOut := runCmd("ingest", testdata, "--db", db, "--json", "--min-plies", "5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		DB       string
		Database map[string]int
		Report   map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	for _, key := range []string{"files", "bytes", "records", "accepted", "already_stored", "duplicates", "filtered", "filtered_total",
		"rejected", "rejected_by_kind", "rejects", "warnings", "warning_list", "formats", "encodings", "workers", "elapsed_seconds", "sum_ok",
		"accepted_partial", "skipped", "skipped_by_reason", "skipped_list", "looked_for"} {
		if _, ok := got.Report[key]; !ok {
			t.Errorf("the report has no %q", key)
		}
	}
	var rep struct {
		Files, Records, Accepted, Duplicates, Rejected, FilteredTotal int
		Filtered                                                      map[string]int
		Rejects                                                       []map[string]any
		SumOK                                                         bool `json:"sum_ok"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, `"report"`)+len(`"report":`):strings.LastIndex(out, "}")]), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.SumOK || rep.Accepted+rep.Duplicates+rep.Rejected+rep.Filtered["handicap"]+rep.Filtered["min-plies"] != rep.Records ||
		rep.Files < 15 || rep.Filtered["min-plies"] == 0 || len(rep.Rejects) != rep.Rejected || rep.Rejected == 0 {
		t.Errorf("report %+v", rep)
	}
	for _, k := range []string{"source", "index", "kind", "reason"} {
		if _, ok := rep.Rejects[0][k]; !ok {
			t.Errorf("a reject has no %q: %v", k, rep.Rejects[0])
		}
	}
	if got.DB != db || got.Database["games_added"] != rep.Accepted {
		t.Errorf("db %q, database %v", got.DB, got.Database)
	}
}

// TestIngestCannotRun: a run that cannot start exits 1 and leaves no
// database behind; an interrupted one exits 130.
func TestIngestCannotRun(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "rp.sqlite")
	notDB := filepath.Join(dir, "records.kifu")
	if err := os.WriteFile(notDB, []byte("手合割：平手\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code exitCode
		want string
	}{
		{"missing path", []string{"ingest", testdata, filepath.Join(dir, "missing"), "--db", db}, exitError, "no such file"},
		{"empty folder", []string{"ingest", testdata, filepath.Join(dir, "empty"), "--db", db}, exitError, "gives no record file to read: looked for .csa"},
		{"db in a missing folder", []string{"ingest", testdata, "--db", filepath.Join(dir, "no", "rp.sqlite")}, exitError, "rp.sqlite"},
		{"not a database", []string{"ingest", testdata, "--db", notDB}, exitError, "not a database"},
		{"usage", []string{"ingest", testdata}, exitUsage, "--db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runCmd(tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
			if _, err := os.Stat(db); !os.IsNotExist(err) {
				t.Errorf("%s left behind", db)
			}
		})
	}
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errOut bytes.Buffer
		code := execute(ctx, &iostreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, []string{"ingest", testdata, "--db", db})
		if code != exitCanceled {
			t.Errorf("exit %d: %s", code, errOut.String())
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("%s left behind", db)
		}
	})
}

// TestIngestStdin reads a record from standard input.
func TestIngestStdin(t *testing.T) {
	b, err := os.ReadFile(testdata + "csa/v22.csa")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	db := filepath.Join(t.TempDir(), "rp.sqlite")
	code := execute(context.Background(), &iostreams{In: bytes.NewReader(b), Out: &out, ErrOut: &errOut}, []string{"ingest", "-", "--db", db, "--handicap", "include"})
	if code != exitOK || !strings.Contains(out.String(), "1 games added") {
		t.Errorf("exit %d: %s%s", code, out.String(), errOut.String())
	}
}

// TestIngestTrainPartial: ingest and train reject a game cut short by an
// illegal move by default; with --partial they keep its legal moves, and
// the report counts it as accepted-partial with the file and line.
func TestIngestTrainPartial(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(testdata, "kif", "illegal-stop.kif")
	code, out, errOut := runCmd("ingest", rec, "--db", filepath.Join(dir, "strict.sqlite"))
	row := func(label string, n int) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + label + ` +` + strconv.Itoa(n) + `\b`)
	}
	if code != exitOK || !row("accepted", 0).MatchString(out) || !strings.Contains(out, "illegal-stop.kif:12: main line ply 9") {
		t.Errorf("strict ingest: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("ingest", rec, "--db", filepath.Join(dir, "partial.sqlite"), "--partial")
	if code != exitOK || !row("accepted", 1).MatchString(out) || !row("  partial", 1).MatchString(out) ||
		!strings.Contains(out, "illegal-stop.kif:12: accepted-partial: main line ply 9") {
		t.Errorf("ingest --partial: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("train", rec, "--db", filepath.Join(dir, "train.sqlite"), "--partial")
	if code != exitOK || !row("games counted", 1).MatchString(out) {
		t.Errorf("train --partial: exit %d\n%s%s", code, out, errOut)
	}
}

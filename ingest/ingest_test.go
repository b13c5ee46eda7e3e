package ingest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/kifu/kifutest"
)

// runDB ingests paths into the database file db through WithDB and a
// Store, and checks the report adds up.
func runDB(t testing.TB, ctx context.Context, db string, opts Options, sinks []Sink, paths ...string) (*Report, StoreStats, error) {
	t.Helper()
	var rep *Report
	var stats StoreStats
	err := WithDB(ctx, db, func(tx *sql.Tx) error {
		st, err := NewStore(ctx, tx)
		if err != nil {
			return err
		}
		defer st.Close()
		rep, err = Run(ctx, opts, paths, Tee(append([]Sink{st}, sinks...)...))
		stats = st.Stats()
		return err
	})
	if rep != nil {
		if cerr := rep.Check(); cerr != nil {
			t.Error(cerr)
		}
	}
	return rep, stats, err
}

func strMap(files map[string][]byte) map[string]string {
	m := map[string]string{}
	for k, v := range files {
		m[k] = string(v)
	}
	return m
}

// sameReport compares two reports but for timing and worker count.
func sameReport(t *testing.T, a, b *Report) {
	t.Helper()
	x, y := *a, *b
	x.Elapsed, y.Elapsed, x.Workers, y.Workers = 0, 0, 0, 0
	if !reflect.DeepEqual(x, y) {
		t.Errorf("reports differ:\n%+v\n%+v", x, y)
	}
}

// TestWorkersSameDatabase ingests the same inputs with 1 and 8 workers and
// compares full dumps of the databases: a small collection alone, and
// with the shared corpus (skipped when it is absent, see kifutest).
func TestWorkersSameDatabase(t *testing.T) {
	for _, tc := range []struct {
		name   string
		shared bool
	}{{"small", false}, {"small+shared", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCollection(t, filepath.Join(dir, "in"), smallCollection(t))
			paths := []string{filepath.Join(dir, "in")}
			if tc.shared {
				paths = append(paths, kifutest.SharedDir(t))
			}
			var dumps []string
			var reps []*Report
			for _, workers := range []int{1, 8} {
				db := filepath.Join(dir, fmt.Sprintf("w%d.sqlite", workers))
				rep, _, err := runDB(t, context.Background(), db, Options{Workers: workers, Filter: Filter{Handicap: HandicapInclude}}, nil, paths...)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Accepted == 0 || rep.Duplicates == 0 || rep.Rejected == 0 {
					t.Fatalf("the inputs should give games, duplicates and rejects: %+v", rep)
				}
				reps = append(reps, rep)
				dumps = append(dumps, dumpDB(t, db))
			}
			if dumps[0] != dumps[1] {
				t.Errorf("1 and 8 workers give different databases:\n%s", firstDiff(dumps[0], dumps[1]))
			}
			sameReport(t, reps[0], reps[1])
		})
	}
}

// firstDiff shows the first differing line of two dumps.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines vs %d lines", len(la), len(lb))
}

// TestFolderZipTarSameGames ingests one collection as a folder, a zip and
// a tar.gz: the games, duplicates and rejects tables are the same but for
// the source prefix.
func TestFolderZipTarSameGames(t *testing.T) {
	dir := t.TempDir()
	files := smallCollection(t)
	folder := filepath.Join(dir, "folder")
	writeCollection(t, folder, files)
	writeZip(t, filepath.Join(dir, "c.zip"), strMap(files))
	writeTarGz(t, filepath.Join(dir, "c.tar.gz"), strMap(files))
	inputs := []struct{ path, prefix string }{
		{folder, folder + string(filepath.Separator)},
		{filepath.Join(dir, "c.zip"), filepath.Join(dir, "c.zip") + "!"},
		{filepath.Join(dir, "c.tar.gz"), filepath.Join(dir, "c.tar.gz") + "!"},
	}
	var want string
	for i, in := range inputs {
		db := filepath.Join(dir, fmt.Sprintf("%d.sqlite", i))
		if _, _, err := runDB(t, context.Background(), db, Options{}, nil, in.path); err != nil {
			t.Fatal(err)
		}
		h, err := OpenDB(db)
		if err != nil {
			t.Fatal(err)
		}
		got := dumpQuery(t, h, `SELECT id, digest, record_index, format, encoding, black, white, event, date, handicap,
			start_sfen, moves, plies, result, termination FROM games ORDER BY id`)
		got += dumpQuery(t, h, `SELECT id, replace(source, '`+in.prefix+`', ''), record_index FROM games ORDER BY id`)
		got += dumpQuery(t, h, `SELECT game_id, replace(source, '`+in.prefix+`', ''), record_index FROM duplicates ORDER BY rowid`)
		got += dumpQuery(t, h, `SELECT id, replace(source, '`+in.prefix+`', ''), record_index, line, reason FROM rejects ORDER BY id`)
		h.Close()
		if strings.Count(got, "\n") < 40 {
			t.Fatalf("%s: too few rows:\n%s", in.path, got)
		}
		if i == 0 {
			want = got
		} else if got != want {
			t.Errorf("%s differs from the folder:\n%s", in.path, firstDiff(want, got))
		}
	}
}

// outcome is what became of one input file.
type outcome struct {
	games, dups int
	rejects     []*Reject
}

// collect runs paths with opts, recording the outcome of each source.
func collect(t *testing.T, opts Options, paths ...string) (*Report, map[string]*outcome) {
	t.Helper()
	out := map[string]*outcome{}
	get := func(s string) *outcome {
		if out[s] == nil {
			out[s] = &outcome{}
		}
		return out[s]
	}
	sink := Funcs{
		GameFunc:      func(g *Game) error { get(g.Source).games++; return nil },
		DuplicateFunc: func(d *Duplicate) error { get(d.Source).dups++; return nil },
		RejectFunc:    func(r *Reject) error { o := get(r.Source); o.rejects = append(o.rejects, r); return nil },
	}
	rep, err := Run(context.Background(), opts, paths, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Check(); err != nil {
		t.Fatal(err)
	}
	return rep, out
}

// goodKIF is a short legal game in UTF-8 KIF.
func goodKIF(t testing.TB, seed uint64) []byte {
	return recordBytes(t, kifu.FormatKIF, randomRecord(t, seed, 30, kifu.StartSFEN))
}

// TestBadInputs puts bad files beside good ones: each bad one is reported
// with file, line (where meaningful) and reason, and every good one is
// ingested.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	good := map[string]bool{}
	addGood := func(name string, data []byte) {
		writeFile(t, in, name, data)
		good[filepath.Join(in, filepath.FromSlash(name))] = true
	}
	addGood("good/a.kif", goodKIF(t, 101))
	addGood("good/b.csa", recordBytes(t, kifu.FormatCSA, randomRecord(t, 102, 50, kifu.StartSFEN)))
	addGood("good/c.ki2", recordBytes(t, kifu.FormatKI2, randomRecord(t, 103, 50, kifu.StartSFEN)))

	// A KIF cut inside a move line, in the middle of a UTF-8 character.
	full := goodKIF(t, 104)
	cut := bytes.Index(full, []byte("  15 ")) + 6
	writeFile(t, in, "bad/truncated.kif", full[:cut])
	// A KIF cut inside a move, on a character boundary (after the
	// file digit of the destination).
	cut2 := bytes.Index(full, []byte("  16 ")) + 5 + len("７")
	writeFile(t, in, "bad/truncated2.kif", full[:cut2])
	// Binary junk.
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i * 7919 >> 3)
	}
	writeFile(t, in, "bad/junk.csa", junk)
	// A declared encoding that the bytes contradict, but readable as
	// Shift_JIS: used, with a warning.
	sjis, err := os.ReadFile("../kifu/testdata/kif/sjis-crlf.kif")
	if err != nil {
		t.Fatal(err)
	}
	addGood("bad/declared-utf8-but-sjis.kif", append([]byte("#KIF version=2.0 encoding=UTF-8\r\n"), sjis...))
	// A declared encoding, and bytes that are no Japanese text at all.
	writeFile(t, in, "bad/declared-sjis-but-junk.kif", []byte("#KIF version=2.0 encoding=Shift_JIS\n手合割：平手\n\x80\x80\x80\xa0\xfd\xfe\xff\n"))
	writeFile(t, in, "bad/empty.kif", nil)
	writeFile(t, in, "bad/blank.csa", []byte("\r\n \n\t\n"))
	// 12 MB of garbage (under the 16 MB file limit).
	big := make([]byte, 12<<20)
	for i := range big {
		big[i] = byte(uint32(i) * 2654435761 >> 24)
	}
	writeFile(t, in, "bad/garbage-12mb.kif", big)
	// 8 MB of text garbage (printable, with line ends): the KIF reader
	// skips lines it does not know, and finds no move.
	big = big[:8<<20]
	for i := range big {
		big[i] = "abcdefghij klmnopqrstuvwxyz0123456789\n"[uint32(i)*2654435761>>24%38]
	}
	writeFile(t, in, "bad/garbage-8mb-text.kif", big)
	big = nil
	// An illegal move in the middle of a game (a second pawn on a file,
	// 二歩, at move 9 of 12).
	writeFile(t, in, "bad/illegal-middle.kif", []byte(strings.Join([]string{
		"手合割：平手", "手数----指手---------消費時間--",
		"   1 ２六歩(27)", "   2 ８四歩(83)", "   3 ２五歩(26)", "   4 ８五歩(84)", "   5 ２四歩(25)",
		"   6 同　歩(23)", "   7 同　飛(28)", "   8 ２三歩打", "   9 ７五歩打", "  10 ８六歩(85)",
		"  11 同　歩(87)", "  12 同　飛(82)", ""}, "\n")))
	// A CSA file whose second game has a syntax error: the first is used
	// (checked below).
	csa2 := recordBytes(t, kifu.FormatCSA, randomRecord(t, 105, 20, kifu.StartSFEN))
	csa2Line := bytes.Count(csa2, []byte("\n")) + 7
	csa2 = append(csa2, "/\nV2.2\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n"...)
	writeFile(t, in, "bad/second-game-broken.csa", csa2)
	// A zip with a corrupt member between two good ones.
	zipPath := filepath.Join(in, "bad", "archive.zip")
	writeZip(t, zipPath, map[string]string{"1.kif": string(goodKIF(t, 106)), "2.kif": string(goodKIF(t, 107)), "3.kif": string(goodKIF(t, 108))})
	corruptZipMember(t, zipPath, "2.kif")
	good[zipPath+"!1.kif"], good[zipPath+"!3.kif"] = true, true
	// A file named explicitly whose format cannot be told.
	notes := writeFile(t, dir, "notes.dat", []byte("these are not the games you are looking for\n"))

	rep, out := collect(t, Options{}, in, notes)
	for src := range good {
		o := out[src]
		if o == nil || o.games != 1 || len(o.rejects) != 0 {
			t.Errorf("%s: good file not ingested: %+v", src, o)
		}
	}
	bad := []struct {
		name string
		kind RejectKind
		line bool // a line is meaningful
		want string
	}{
		{"bad/truncated.kif", RejectDecode, true, "truncated"},
		{"bad/truncated2.kif", RejectParse, true, "move"},
		{"bad/junk.csa", RejectDecode, true, "binary"},
		{"bad/declared-sjis-but-junk.kif", RejectDecode, true, "neither UTF-8, Shift_JIS"},
		{"bad/empty.kif", RejectEmpty, false, "empty file"},
		{"bad/blank.csa", RejectEmpty, false, "empty file"},
		{"bad/garbage-12mb.kif", RejectDecode, true, "binary"},
		{"bad/garbage-8mb-text.kif", RejectParse, true, "no move read, and this line is not KIF"},
		{"bad/illegal-middle.kif", RejectReplay, true, "ply 9"},
		{"bad/second-game-broken.csa", RejectParse, true, "XX"},
		{"bad/archive.zip!2.kif", RejectRead, false, "corrupt zip member"},
		{"../notes.dat", RejectParse, true, "unknown record format"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			src := filepath.Join(in, filepath.FromSlash(b.name))
			o := out[src]
			if o == nil || len(o.rejects) != 1 {
				t.Fatalf("want one reject, got %+v", o)
			}
			r := o.rejects[0]
			t.Logf("%s [%s]", r, r.Kind)
			if r.Kind != b.kind || !strings.Contains(r.Reason, b.want) || (r.Line > 0) != b.line || r.Source != src {
				t.Errorf("got %s [%s] line %d, want kind %s, a reason with %q, line given %v", r, r.Kind, r.Line, b.kind, b.want, b.line)
			}
		})
	}
	if o := out[filepath.Join(in, "bad", "illegal-middle.kif")]; len(o.rejects) != 1 || o.rejects[0].Line != 11 {
		t.Errorf("the illegal move is on line 11: %+v", o)
	}
	if o := out[filepath.Join(in, "bad", "second-game-broken.csa")]; o.games != 1 || len(o.rejects) != 1 || o.rejects[0].Index != 1 || o.rejects[0].Line != csa2Line {
		t.Errorf("want the first game of second-game-broken.csa and a reject of the second at line %d: %+v", csa2Line, o)
	}
	if rep.Warnings != 1 || !strings.Contains(rep.WarningList[0].Reason, "declares encoding=utf-8") {
		t.Errorf("want one warning about the encoding declaration, got %+v", rep.WarningList)
	}
	if rep.Rejected != len(bad) || rep.Accepted != len(good)+1 {
		t.Errorf("rejected %d accepted %d, want %d and %d", rep.Rejected, rep.Accepted, len(bad), len(good)+1)
	}
}

// corruptZipMember flips bytes in the compressed data of member name.
func corruptZipMember(t *testing.T, zipPath, name string) {
	t.Helper()
	b, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	// The local header: signature, 26 bytes of fields, the name, then
	// the data.
	i := bytes.Index(b, append([]byte("PK\x03\x04"), b[4:4]...))
	for i >= 0 {
		nameLen := int(b[i+26]) | int(b[i+27])<<8
		if string(b[i+30:i+30+nameLen]) == name {
			data := i + 30 + nameLen + int(b[i+28]) | int(b[i+29])<<8
			for k := data + 2; k < data+40; k++ {
				b[k] ^= 0x55
			}
			if err := os.WriteFile(zipPath, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		j := bytes.Index(b[i+4:], []byte("PK\x03\x04"))
		if j < 0 {
			break
		}
		i += 4 + j
	}
	t.Fatalf("no member %s in %s", name, zipPath)
}

// TestCancelLeavesDatabase cancels runs in the middle: the database is
// exactly as before them, and a database created by a cancelled run is
// removed.
func TestCancelLeavesDatabase(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	writeCollection(t, first, smallCollection(t))
	more := filepath.Join(dir, "more")
	for i := range 200 {
		writeFile(t, more, fmt.Sprintf("%03d.kif", i), goodKIF(t, uint64(1000+i)))
	}
	db := filepath.Join(dir, "db.sqlite")
	if _, _, err := runDB(t, context.Background(), db, Options{}, nil, first); err != nil {
		t.Fatal(err)
	}
	before := dumpDB(t, db)
	tests := []struct {
		name   string
		cancel func(cancel context.CancelFunc) (Options, Sink)
	}{
		{"from the sink", func(cancel context.CancelFunc) (Options, Sink) {
			n := 0
			return Options{Workers: 2}, Funcs{GameFunc: func(*Game) error {
				if n++; n == 50 {
					cancel()
				}
				return nil
			}}
		}},
		{"from outside", func(cancel context.CancelFunc) (Options, Sink) {
			return Options{Workers: 2, Progress: func(p Progress) {
				if p.Files == 100 {
					cancel()
				}
			}}, Discard
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range []string{db, filepath.Join(dir, "new.sqlite")} {
				ctx, cancel := context.WithCancel(context.Background())
				opts, sink := tt.cancel(cancel)
				rep, stats, err := runDB(t, ctx, target, opts, []Sink{sink}, more)
				cancel()
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want context.Canceled", err)
				}
				if stats.GamesAdded < 50 || rep.Files >= 200 {
					t.Fatalf("not cancelled in the middle: %+v, %d files", stats, rep.Files)
				}
				if target == db {
					if after := dumpDB(t, db); after != before {
						t.Errorf("the cancelled run changed the database:\n%s", firstDiff(before, after))
					}
				} else if _, err := os.Stat(target); !os.IsNotExist(err) {
					t.Errorf("a cancelled first run left %s behind (%v)", target, err)
				}
			}
		})
	}
}

// TestReingest ingests the same inputs twice into one database: the second
// run adds nothing and reports the games as already stored.
func TestReingest(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	writeCollection(t, in, smallCollection(t))
	db := filepath.Join(dir, "db.sqlite")
	rep1, st1, err := runDB(t, context.Background(), db, Options{}, nil, in)
	if err != nil {
		t.Fatal(err)
	}
	once := dumpDB(t, db)
	rep2, st2, err := runDB(t, context.Background(), db, Options{Workers: 3}, nil, in)
	if err != nil {
		t.Fatal(err)
	}
	if twice := dumpDB(t, db); twice != once {
		t.Errorf("a second ingest changed the database:\n%s", firstDiff(once, twice))
	}
	if st1.GamesAdded != rep1.Accepted || st1.DuplicatesAdded != rep1.Duplicates || st1.RejectsAdded != rep1.Rejected || rep1.AlreadyStored != 0 {
		t.Errorf("first run: stats %+v, report %+v", st1, rep1)
	}
	if (st2 != StoreStats{GamesKnown: rep1.Accepted}) || rep2.AlreadyStored != rep1.Accepted || rep2.Accepted != rep1.Accepted {
		t.Errorf("second run: stats %+v, already stored %d of %d", st2, rep2.AlreadyStored, rep2.Accepted)
	}
	var buf bytes.Buffer
	rep2.WriteText(&buf)
	if !strings.Contains(buf.String(), "already in the database") {
		t.Errorf("the report does not say the games were already stored:\n%s", buf.String())
	}
}

// TestKnownGameNewSource ingests B, then A and B where A holds B's game:
// the game stays B's row, A's copy is reported known, and B's record is
// not listed as a duplicate of itself.
func TestKnownGameNewSource(t *testing.T) {
	dir := t.TempDir()
	game := goodKIF(t, 7)
	a := writeFile(t, dir, "a.kif", game)
	b := writeFile(t, dir, "b.kif", game)
	db := filepath.Join(dir, "db.sqlite")
	if _, _, err := runDB(t, context.Background(), db, Options{}, nil, b); err != nil {
		t.Fatal(err)
	}
	rep, st, err := runDB(t, context.Background(), db, Options{}, nil, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 1 || rep.AlreadyStored != 1 || rep.Duplicates != 1 || st.DuplicatesAdded != 0 {
		t.Errorf("report %+v, stats %+v", rep, st)
	}
	h, err := OpenDB(db)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got := dumpQuery(t, h, "SELECT source FROM games UNION ALL SELECT source FROM duplicates"); got != b+"\n" {
		t.Errorf("rows: %q, want only %s in games", got, b)
	}
}

// TestDuplicates checks what a duplicate says it repeats.
func TestDuplicates(t *testing.T) {
	dir := t.TempDir()
	rec := randomRecord(t, 11, 60, kifu.StartSFEN)
	a := writeFile(t, dir, "1/a.kif", recordBytes(t, kifu.FormatKIF, rec))
	b := writeFile(t, dir, "2/b.csa", recordBytes(t, kifu.FormatCSA, rec))
	// Two games in one CSA file, the second a repeat of the first.
	c := writeFile(t, dir, "3/c.csa", append(append(recordBytes(t, kifu.FormatCSA, randomRecord(t, 12, 10, kifu.StartSFEN)), "/\n"...),
		recordBytes(t, kifu.FormatCSA, randomRecord(t, 12, 10, kifu.StartSFEN))...))
	var dups []Duplicate
	var games []*Game
	rep, err := Run(context.Background(), Options{}, []string{dir}, Funcs{
		GameFunc:      func(g *Game) error { games = append(games, g); return nil },
		DuplicateFunc: func(d *Duplicate) error { dups = append(dups, *d); return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Duplicate{
		{Seq: 1, Index: 0, Source: b, Digest: games[0].Digest, OfSeq: 0, OfIndex: 0},
		{Seq: 2, Index: 1, Source: c, Digest: games[1].Digest, OfSeq: 2, OfIndex: 0},
	}
	if games[0].Seq != 0 || games[0].Source != a || games[1].Seq != 2 || games[1].Source != c {
		t.Errorf("games %s (seq %d) and %s (seq %d), want %s (0) and %s (2)", games[0].Source, games[0].Seq, games[1].Source, games[1].Seq, a, c)
	}
	if !reflect.DeepEqual(dups, want) || rep.Accepted != 2 {
		t.Errorf("duplicates %+v, want %+v", dups, want)
	}
	d, moves, err := GameDigest(rec)
	if err != nil || d != games[0].Digest || games[0].Moves != moves || games[0].Plies != 60 {
		t.Errorf("GameDigest = %s, %q, %v; game %+v", d, moves, err, games[0])
	}
}

// TestGameDigest pins the digest definition: the same game from two start
// position spellings (move number 1 and 9) has one digest.
func TestGameDigest(t *testing.T) {
	recs, err := kifu.ParseText(kifu.FormatSFEN, "x.sfen", "startpos moves 7g7f 3c3d\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 9 moves 7g7f 3c3d\n")
	if err != nil || len(recs) != 2 {
		t.Fatal(recs, err)
	}
	// printf 'sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f 3c3d' | sha256sum
	const want = "bfaead2e496db05668400942be431b40935a61b858a0e74ad97542277be322fb"
	for _, rec := range recs {
		if d, moves, err := GameDigest(rec); d != want || moves != "7g7f 3c3d" || err != nil {
			t.Errorf("GameDigest = %s, %q, %v; want %s", d, moves, err, want)
		}
	}
}

// TestStdin reads records from standard input.
func TestStdin(t *testing.T) {
	stdin := bytes.NewReader(recordBytes(t, kifu.FormatCSA, randomRecord(t, 3, 30, kifu.StartSFEN)))
	var src string
	rep, err := Run(context.Background(), Options{Stdin: stdin}, []string{"-"}, Funcs{GameFunc: func(g *Game) error { src = g.Source; return nil }})
	if err != nil || rep.Accepted != 1 || src != "-" || rep.Formats["csa"] != 1 {
		t.Errorf("report %+v, source %q, err %v", rep, src, err)
	}
}

// TestRunErrors: a run that cannot start reads nothing.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	ok := writeFile(t, dir, "a.kif", goodKIF(t, 1))
	tests := []struct {
		name  string
		opts  Options
		sink  Sink
		paths []string
		want  string
	}{
		{"missing path", Options{}, Discard, []string{ok, filepath.Join(dir, "missing.kif")}, "no such file"},
		{"empty pattern", Options{}, Discard, []string{ok, filepath.Join(dir, "*.csa")}, "matches no file"},
		{"nil sink", Options{}, nil, []string{ok}, "nil Sink"},
		{"bad since", Options{Filter: Filter{Since: "2020/1/1"}}, Discard, []string{ok}, "Filter.Since"},
		{"empty range", Options{Filter: Filter{Since: "2021-01-01", Until: "2020-01-01"}}, Discard, []string{ok}, "empty"},
		{"negative workers", Options{Workers: -1}, Discard, []string{ok}, "workers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(context.Background(), tt.opts, tt.paths, tt.sink)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "ingest: ") {
				t.Fatalf("err = %v, want one with %q", err, tt.want)
			}
			if rep.Files != 0 {
				t.Errorf("%d files read before failing", rep.Files)
			}
		})
	}
}

// TestSinkError stops a run at the first sink error.
func TestSinkError(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		writeFile(t, dir, fmt.Sprintf("%02d.kif", i), goodKIF(t, uint64(i)))
	}
	boom := errors.New("disk full")
	n := 0
	_, err := Run(context.Background(), Options{}, []string{dir}, Funcs{GameFunc: func(*Game) error {
		if n++; n == 5 {
			return boom
		}
		return nil
	}})
	if !errors.Is(err, boom) || n != 5 {
		t.Errorf("err = %v after %d games", err, n)
	}
}

// TestReportCheck: Check catches reports that do not add up.
func TestReportCheck(t *testing.T) {
	good := func() *Report {
		r := newReport()
		r.Files, r.Records, r.Accepted, r.Duplicates, r.Rejected = 3, 4, 1, 1, 1
		r.Filtered[FilterHandicap] = 1
		r.RejectedBy[RejectParse] = 1
		r.Formats["kif"] = 3
		return r
	}
	tests := []struct {
		name  string
		spoil func(r *Report)
	}{
		{"records", func(r *Report) { r.Records++ }},
		{"filtered", func(r *Report) { r.Filtered[FilterDate] = 1 }},
		{"kinds", func(r *Report) { r.RejectedBy[RejectEmpty] = 1 }},
		{"formats", func(r *Report) { r.Formats["csa"] = 1 }},
		{"known", func(r *Report) { r.AlreadyStored = 2 }},
	}
	if err := good().Check(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good()
			tt.spoil(r)
			if err := r.Check(); err == nil {
				t.Error("Check passed a report that does not add up")
			}
		})
	}
}

// TestVariationError: a broken variation (変化) does not reject the game
// (its main line is whole) but is reported as a warning.
func TestVariationError(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "v.kif", []byte(strings.Join([]string{
		"手合割：平手", "手数----指手---------消費時間--",
		"   1 ７六歩(77)", "   2 ３四歩(33)+", "   3 ２六歩(27)", "   4 投了",
		"", "変化：2手", "   2 ８四歩(83)", "   3 ７六歩(77)", ""}, "\n")))
	var plies int
	rep, err := Run(context.Background(), Options{}, []string{dir}, Funcs{GameFunc: func(g *Game) error { plies = g.Plies; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 1 || plies != 3 || rep.Warnings != 1 || rep.WarningList[0].Line != 10 ||
		!strings.Contains(rep.WarningList[0].Reason, "variation ply 3") {
		t.Errorf("accepted %d (%d plies), warnings %+v", rep.Accepted, plies, rep.WarningList)
	}
}

// TestAllFiles: files without a record extension inside a folder are
// skipped, or read (and rejected if they are no record) with AllFiles.
func TestAllFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.kif", goodKIF(t, 1))
	writeFile(t, dir, "README.txt", []byte("a collection of games\n"))
	writeFile(t, dir, "game.txt", recordBytes(t, kifu.FormatCSA, randomRecord(t, 2, 20, kifu.StartSFEN)))
	tests := []struct {
		all                       bool
		files, accepted, rejected int
	}{{false, 1, 1, 0}, {true, 3, 2, 1}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.all), func(t *testing.T) {
			rep, err := Run(context.Background(), Options{AllFiles: tt.all}, []string{dir}, Discard)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Files != tt.files || rep.Accepted != tt.accepted || rep.Rejected != tt.rejected {
				t.Errorf("files %d accepted %d rejected %d, want %d %d %d", rep.Files, rep.Accepted, rep.Rejected, tt.files, tt.accepted, tt.rejected)
			}
		})
	}
}

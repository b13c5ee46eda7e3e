package kifu

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// manifestRow is one row of the shared corpus's MANIFEST.tsv.
type manifestRow struct {
	Path, Kind, Format, Encoding string
	Games, Moves                 int
	End                          string
}

func readManifest(t testing.TB, dir string) []manifestRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	head := strings.Split(lines[0], "\t")
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	for _, c := range []string{"path", "kind", "format", "encoding", "games", "moves", "end"} {
		if _, ok := col[c]; !ok {
			t.Fatalf("MANIFEST.tsv has no %q column", c)
		}
	}
	var rows []manifestRow
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		games, err1 := strconv.Atoi(f[col["games"]])
		moves, err2 := strconv.Atoi(f[col["moves"]])
		if err1 != nil || err2 != nil {
			t.Fatalf("MANIFEST.tsv: bad row %q", l)
		}
		rows = append(rows, manifestRow{Path: f[col["path"]], Kind: f[col["kind"]], Format: f[col["format"]],
			Encoding: f[col["encoding"]], Games: games, Moves: moves, End: f[col["end"]]})
	}
	return rows
}

// corpusTruth lists the MANIFEST rows whose moves or end columns disagree
// with what the record really says (the manifest was written by a quick
// survey script; these were checked by reading the files).
var corpusTruth = map[string]struct {
	Moves  int    // legal main-line moves
	End    string // the ending word as kept (Ending.Word)
	Why    string
	ErrPly int             // a *ReplayError is expected at this ply
	Kind   IllegalMoveKind // the rule broken (ReplayError, or the illegal move kept in a foul ending)
}{
	"kifu-for-js/kif/meijinsen_20180508_M7_10034.kif": {Moves: 52, End: "封じ手",
		Why: "line 53 is the special move 封じ手 (sealed move), not a move; まで52手で封じ手"},
	"kifu-viewer-marmooo/test-kyokumenzu2.kif": {Moves: 13, End: "投了",
		Why: "13 moves after the board diagram; line 14 is 投了"},
	"mog-core-scala/kif/game/002.kif": {Moves: 193, End: "Time-up",
		Why: "line 194 holds the unknown special word Time-up, kept as an opaque terminal"},
	"mog-core-scala/kif/game/007.kif": {Moves: 13, End: "",
		Why: "a tsume record with 13 numbered moves after the board diagram (the rest are 変化 blocks)"},
	"mog-core-scala/kif/game/012.kif": {Moves: 121, End: "投了",
		Why: "122 投了 is followed by 123 中断: the game ends at the first special move"},
	"mog-core-scala/kif/game/013.kif": {Moves: 0, End: "",
		Why: "a board diagram with no move line"},
	"mog-core-scala/kif/game/014.kif": {Moves: 156, End: "", ErrPly: 157, Kind: IllegalIgnoresCheck,
		Why: "move 157 ５三角打 leaves Black's king in check (comment 反則手にて終局, no foul terminal)"},
	"mog-core-scala/kif/game/015.kif": {Moves: 82, End: "", ErrPly: 83, Kind: IllegalSelfCheck,
		Why: "move 83 １七玉(28) walks into check (comment 反則手にて終局, no foul terminal)"},
	"mog-core-scala/kif/game/017.kif": {Moves: 26, End: "反則勝ち", Kind: IllegalSelfCheck,
		Why: "move 27 ４五桂(37) moves a knight pinned by the horse on ２六 (the comment says 王手放置) and 反則勝ち follows: the game ends by that foul, the move is kept in the ending"},
	"shogi-player/BOD_LIKE_SAMPLE1.kif": {Moves: 4, End: "投了",
		Why: "4 moves after the board diagram; line 5 is 投了"},
	"shogi-player/illegal_check.kif": {Moves: 0, End: "",
		Why: "a board diagram with no move line"},
	"ragnarok/Ki2_Illegal.KI2": {Moves: 108, End: "まで109手で後手の反則勝ち", Kind: IllegalNifu,
		Why: "move 109 ▲２九歩 is a second pawn on the file (二歩) and the まで line gives the foul: the move is kept in the ending"},
}

// corpusRepetitions lists the corpus records whose main line reaches a
// fourfold repetition (千日手): each ends there (none goes on past it) and
// the game ends by it. Four have no terminal after the repetition: the
// ending is the rule's (Ending.Word stays empty): a draw, or for the
// shogi-server perpetual-check tests a loss for the side giving check.
var corpusRepetitions = map[string]struct {
	Kind   EndKind
	Result Result
}{
	"kifu-viewer-marmooo/test-endless.kif": {EndRepetition, Draw},
	"mog-core-scala/kif/game/009.kif":      {EndRepetition, Draw},
	"sunfish4/pro10/kifu20023.csa":         {EndRepetition, Draw},  // no terminal
	"shogi-server/oute_sennichite.csa":     {EndIllegal, WhiteWin}, // no terminal: Black checked every move
	"shogi-server/oute_sennichite2.csa":    {EndIllegal, BlackWin}, // no terminal: White checked every move
	"shogi-server/oute_sennichite3.csa":    {EndIllegal, WhiteWin}, // no terminal: Black checked every move
}

// TestCorpus reads and replays every file of the shared corpus and checks
// its encoding, number of main-line moves and ending against MANIFEST.tsv
// (or against corpusTruth where the manifest is wrong).
func TestCorpus(t *testing.T) {
	dir := sharedDir(t)
	rows := readManifest(t, dir)
	if len(rows) < 900 {
		t.Fatalf("MANIFEST.tsv has %d rows, want the whole corpus (932)", len(rows))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		t.Run(row.Path, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, row.Path))
			if err != nil {
				t.Fatal(err)
			}
			text, enc, err := DecodeText(row.Path, b)
			if err != nil {
				t.Fatalf("DecodeText: %v", err)
			}
			if enc.String() != row.Encoding {
				t.Errorf("encoding %s, manifest says %s", enc, row.Encoding)
			}
			if f := DetectFormat(row.Path, text); f.String() != row.Format {
				t.Errorf("format %s, manifest says %s", f, row.Format)
			}
			recs, err := ParseRecords(row.Path, text)
			want, fixed := corpusTruth[row.Path]
			seen[row.Path] = fixed
			if !fixed {
				want.Moves, want.End = row.Moves, row.End
			}
			if want.ErrPly > 0 {
				var re *ReplayError
				if !errors.As(err, &re) || re.Ply != want.ErrPly || re.Kind != want.Kind || re.File != row.Path || re.Line == 0 {
					t.Fatalf("want a ReplayError at ply %d (%s), got %v", want.ErrPly, want.Kind, err)
				}
				if !errors.Is(err, ErrIllegalMove) {
					t.Errorf("%v does not wrap ErrIllegalMove", err)
				}
			} else if err != nil {
				t.Fatalf("ParseRecords: %v", err)
			}
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			r := recs[0]
			if n := len(r.Main.Moves); n != want.Moves {
				t.Errorf("%d main-line moves, want %d", n, want.Moves)
			}
			if r.Main.End.Word != want.End {
				t.Errorf("ending %q, want %q", r.Main.End.Word, want.End)
			}
			if want.ErrPly == 0 && want.Kind != LegalMove {
				if ill := r.Main.End.Illegal; ill == nil || ill.Kind != want.Kind || r.Main.End.Kind != EndIllegal {
					t.Errorf("want a foul ending keeping a move that breaks %q, got %+v", want.Kind, r.Main.End)
				}
			}
			if want.End != "" && r.Main.End.Kind == EndNone {
				t.Errorf("ending %q read as none", want.End)
			}
			if len(r.Warnings) > 0 {
				t.Errorf("warnings: %v", r.Warnings)
			}
			p, err := r.Replay()
			if (err != nil) != (want.ErrPly > 0) {
				t.Fatalf("Replay: %v", err)
			}
			if p == nil || p.Ply() != len(r.Main.Moves) {
				t.Fatalf("Replay stopped early")
			}
			rep, repeated := corpusRepetitions[row.Path]
			if (p.Sennichite() != NoRepetition) != repeated {
				t.Errorf("the main line ends at a fourfold repetition: %v; corpusRepetitions says %v", p.Sennichite(), repeated)
			}
			if repeated && (r.Main.End.Kind != rep.Kind || r.Main.End.Result != rep.Result) {
				t.Errorf("ending %s %s, want %s %s (fourfold repetition)", r.Main.End.Kind, r.Main.End.Result, rep.Kind, rep.Result)
			}
		})
	}
	for path := range corpusTruth {
		if _, ok := seen[path]; !ok {
			t.Errorf("corpusTruth names %s, which is not in MANIFEST.tsv", path)
		}
	}
	for path := range corpusRepetitions {
		if _, ok := seen[path]; !ok {
			t.Errorf("corpusRepetitions names %s, which is not in MANIFEST.tsv", path)
		}
	}
}

// moreDir returns ../shared/data/kifu-more, the second real-record
// collection beside the shared corpus; like sharedDir it skips the test
// when it is absent and fails it with RPSHOGI_REQUIRE_SHARED=1.
func moreDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(sharedDir(t)), "kifu-more")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		if os.Getenv("RPSHOGI_REQUIRE_SHARED") == "1" {
			t.Fatalf("%v, and RPSHOGI_REQUIRE_SHARED=1", err)
		}
		t.Skipf("%v; skipping (set RPSHOGI_REQUIRE_SHARED=1 to fail instead)", err)
	}
	return dir
}

// readTSV reads a TSV file with a header line into one map per row.
func readTSV(t testing.TB, path string) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	head := strings.Split(lines[0], "\t")
	var rows []map[string]string
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != len(head) {
			t.Fatalf("%s: row %q has %d fields, want %d", path, l, len(f), len(head))
		}
		row := map[string]string{}
		for i, h := range head {
			row[h] = f[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// moreSummary is what this package reads from one kifu-more file: the
// first (only) record's main line, or the error that rejects the file.
type moreSummary struct {
	Path, Format, Encoding string
	Moves                  int
	Kind                   EndKind
	Result                 Result
	Word                   string
	USISHA1                string // first 12 hex of the SHA-1 of the USI moves joined by spaces
	Warnings               int
	Err                    string
	stm                    Color // side to move after the main line
}

const moreSummaryHead = "path\tformat\tencoding\tmoves\tend\tresult\tword\tusi_sha1\twarnings\terror"

func (s *moreSummary) line() string {
	return strings.Join([]string{s.Path, s.Format, s.Encoding, strconv.Itoa(s.Moves), s.Kind.String(), s.Result.String(),
		s.Word, s.USISHA1, strconv.Itoa(s.Warnings), s.Err}, "\t")
}

// summarizeMore reads one file of kifu-more.
func summarizeMore(dir, path string) moreSummary {
	s := moreSummary{Path: path, Format: "-", Encoding: "-", Moves: -1, USISHA1: "-"}
	b, err := os.ReadFile(filepath.Join(dir, path))
	if err != nil {
		s.Err = err.Error()
		return s
	}
	text, enc, err := DecodeText(path, b)
	s.Encoding = enc.String()
	if err != nil {
		s.Err = err.Error()
		return s
	}
	f := DetectFormat(path, text)
	s.Format = f.String()
	recs, err := ParseText(f, path, text)
	if err != nil {
		s.Err = err.Error()
	}
	if len(recs) != 1 || recs[0] == nil {
		if err == nil {
			s.Err = fmt.Sprintf("%d records", len(recs))
		}
		return s
	}
	r := recs[0]
	usi := make([]string, len(r.Main.Moves))
	for i, n := range r.Main.Moves {
		usi[i] = n.Move.USI()
	}
	sum := sha1.Sum([]byte(strings.Join(usi, " ")))
	s.Moves, s.Kind, s.Result, s.Word = len(usi), r.Main.End.Kind, r.Main.End.Result, r.Main.End.Word
	s.USISHA1, s.Warnings = hex.EncodeToString(sum[:])[:12], len(r.Warnings)
	if p, err := r.StartPosition(); err == nil {
		s.stm = p.SideToMove() ^ Color(len(usi)%2)
	}
	return s
}

// moreTruth lists the kifu-more files this package reads otherwise than
// MANIFEST.tsv says (its moves and end columns come from an independent
// reader that is wrong on odd records): what the file really holds, each
// checked by reading it.
var moreTruth = map[string]struct {
	Moves int
	Word  string
	Err   string // the error (file:line: reason) rejecting the file
	Why   string
}{
	"iwate-shogikan/data/kif2/20251226高野田内.kif": {Moves: 97, Word: "投了",
		Why: "starts from a mid-game diagram (手数＝35 in the comment); moves numbered 1-97, line 98 is 投了 and まで97手で先手の勝ち: the manifest counted the 投了 line"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230115morimori.kif": {Moves: 84,
		Err: `20230115morimori.kif:93: main line ply 85 "５九玉(68)" (6h5i): illegal move: the king is left in check`,
		Why: "the last move, 85 ５九玉, leaves Black's king in check from the knight on 7f (and walks into the gold on 4h); no foul terminal follows; the manifest counts it"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230127morimori.kif": {Moves: 122,
		Err: `20230127morimori.kif:146: main line ply 123 "１二歩打" (P*1b): illegal move: two unpromoted pawns on one file (二歩)`,
		Why: "the last move drops a second black pawn on file 1 (Black has one on 1h)"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230207morimori.kif": {Moves: 57,
		Err: `20230207morimori.kif:69: main line ply 58 "５三歩打" (P*5c): illegal move: two unpromoted pawns on one file (二歩)`,
		Why: "the last move drops a second white pawn on file 5 (White has one on 5a)"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230224morimori2.kif": {Moves: 61,
		Err: `20230224morimori2.kif:74: main line ply 62 "６六歩打" (P*6f): illegal move: two unpromoted pawns on one file (二歩)`,
		Why: "the last move drops a second white pawn on file 6"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230427siwamori.kif": {Moves: 84,
		Err: `20230427siwamori.kif:104: main line ply 85 "４四歩打" (P*4d): illegal move: two unpromoted pawns on one file (二歩)`,
		Why: "the last move drops a second black pawn on file 4"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230730morimori.kif": {Moves: 123,
		Err: `20230730morimori.kif:132: main line ply 124 "２四玉(33)" (3c2d): illegal move: the king is left in check`,
		Why: "the last move, 124 ２四玉, leaves White's king in check"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20260130morimori.kif": {Moves: 88,
		Err: `20260130morimori.kif:97: main line ply 89 "７三歩打" (P*7c): illegal move: two unpromoted pawns on one file (二歩)`,
		Why: "the last move drops a second black pawn on file 7"},
	"pyogi/testkifu.csa": {Moves: -1,
		Err: `pyogi/testkifu.csa:5: csa: unknown statement after an empty N+ or N- on the line before (a player name goes on the N+/N- line, as N+name) (found "sibuyuki")`,
		Why: "not CSA: the N+ and N- names stand alone on the next lines (line 5 sibuyuki) and there is no start position (no PI or P1-P9 before the + line); the manifest's reader guessed both; tsshogi rejects it too (Invalid move: +7776FU, for want of a position)"},
}

// tsshogiEnds maps tsshogi's special moves to this package's end kinds
// and the outcome for the side to move (+1 wins, -1 loses, 0 draw or none).
var tsshogiEnds = map[string]struct {
	Kind EndKind
	Stm  int
}{
	"": {EndNone, 0}, "resign": {EndResign, -1}, "mate": {EndMate, -1}, "timeout": {EndTimeUp, -1},
	"foulLose": {EndIllegal, -1}, "foulWin": {EndIllegal, +1}, "repetitionDraw": {EndRepetition, 0},
	"interrupt": {EndInterrupt, 0}, "enteringOfKing": {EndDeclareWin, +1}, "impass": {EndJishogi, 0},
}

// tsshogiDiff lists where tsshogi (2.2.0, testdata/kifumore/tsshogi.tsv)
// reads a kifu-more file otherwise than this package, and why this
// package is right; TSMoves is the number of moves tsshogi reads.
var tsshogiDiff = map[string]struct {
	TSMoves int
	Why     string
}{
	// tsshogi does not check that a move is legal (二歩, a king left in
	// check) when it imports a record: it counts the illegal last move.
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230115morimori.kif":  {85, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230127morimori.kif":  {123, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230207morimori.kif":  {58, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230224morimori2.kif": {62, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230427siwamori.kif":  {85, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20230730morimori.kif":  {124, "illegal last move counted by tsshogi"},
	"iwate-shogikan/data/盛岡北支部棋譜倉庫/20260130morimori.kif":  {89, "illegal last move counted by tsshogi"},
	// tsshogi splits lines at LF only: a file with CR line ends (Kifu
	// for Macintosh) is one line to it, with no move.
	"kifushare/sample.kif": {0, "CR-only line ends: tsshogi reads no move"},
	// tsshogi gives the win of %+ILLEGAL_ACTION and %-ILLEGAL_ACTION to
	// the side that fouled; the CSA standard: "%+ILLEGAL_ACTION 先手(下手)
	// の反則行為により、後手(上手)の勝ち" (and the reverse for -). Same moves.
	"apery-wcsc28/utils/make_wcsc28_book/kifu/utf8_WCSC28_L2_HIM_NRK.csa":   {94, "%-ILLEGAL_ACTION: tsshogi gives White the win"},
	"apery-wcsc28/utils/make_wcsc28_book/kifu/utf8_WCSC28_L5_YAM_WOD.csa":   {101, "%-ILLEGAL_ACTION: tsshogi gives White the win"},
	"apery-wcsc28/utils/make_wcsc28_book/kifu/utf8_WCSC28_U8_HNW_ELM_2.csa": {199, "%-ILLEGAL_ACTION: tsshogi gives White the win"},
	"apery-wcsc28/utils/make_wcsc28_book/kifu/utf8_WCSC28_L8_WOD_YUU.csa":   {140, "%+ILLEGAL_ACTION: tsshogi gives Black the win"},
}

// TestCorpusMore reads every file of ../shared/data/kifu-more and checks
// the outcome three ways: against the golden summary
// testdata/kifumore/summary.tsv (moves, ending, a digest of the USI moves,
// warnings, or the error with file and line; -update rewrites it),
// against MANIFEST.tsv (moves and end, except where moreTruth explains
// the manifest is wrong), and against tsshogi's reading of the main line
// (testdata/kifumore/tsshogi.tsv, made by tsshogi-main-lines.mjs: the
// same moves, number and ending, except where tsshogiDiff explains).
func TestCorpusMore(t *testing.T) {
	dir := moreDir(t)
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel = filepath.ToSlash(rel); rel != "MANIFEST.tsv" && rel != "SOURCES.md" {
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	sums := map[string]*moreSummary{}
	var golden strings.Builder
	golden.WriteString(moreSummaryHead + "\n")
	for _, p := range paths {
		s := summarizeMore(dir, p)
		sums[p] = &s
		golden.WriteString(s.line() + "\n")
	}

	const goldenPath = "testdata/kifumore/summary.tsv"
	if *update {
		if err := os.WriteFile(goldenPath, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := golden.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s line %d:\n got %s\nwant %s", goldenPath, i+1, g, w)
				break
			}
		}
	}

	read, rejected := 0, 0
	for _, s := range sums {
		if s.Err == "" {
			read++
		} else {
			rejected++
		}
	}
	t.Logf("kifu-more: %d files, %d read, %d rejected", len(sums), read, rejected)

	t.Run("manifest", func(t *testing.T) {
		rows := readTSV(t, filepath.Join(dir, "MANIFEST.tsv"))
		if len(rows) != len(paths) {
			t.Errorf("MANIFEST.tsv has %d rows, the folder %d record files", len(rows), len(paths))
		}
		seen := map[string]bool{}
		for _, row := range rows {
			path := row["path"]
			s := sums[path]
			if s == nil {
				t.Errorf("%s: in MANIFEST.tsv, not in the folder", path)
				continue
			}
			seen[path] = true
			if s.Encoding != row["encoding"] {
				t.Errorf("%s: encoding %s, manifest says %s", path, s.Encoding, row["encoding"])
			}
			if truth, ok := moreTruth[path]; ok {
				if s.Moves != truth.Moves || s.Word != truth.Word || !strings.Contains(s.Err, truth.Err) || (s.Err == "") != (truth.Err == "") {
					t.Errorf("%s: %d moves, ending %q, error %q; want %d, %q, %q (%s)", path, s.Moves, s.Word, s.Err, truth.Moves, truth.Word, truth.Err, truth.Why)
				}
				continue
			}
			if s.Err != "" {
				t.Errorf("%s: %s", path, s.Err)
				continue
			}
			if s.Format != row["format"] {
				t.Errorf("%s: format %s, manifest says %s", path, s.Format, row["format"])
			}
			if strconv.Itoa(s.Moves) != row["moves"] || s.Word != row["end"] {
				t.Errorf("%s: %d moves, ending %q; manifest says %s, %q", path, s.Moves, s.Word, row["moves"], row["end"])
			}
			if s.Word != "" && s.Kind == EndNone {
				t.Errorf("%s: ending %q read as none", path, s.Word)
			}
		}
		for path := range moreTruth {
			if !seen[path] {
				t.Errorf("moreTruth names %s, which is not in MANIFEST.tsv", path)
			}
		}
	})

	t.Run("tsshogi", func(t *testing.T) {
		rows := readTSV(t, "testdata/kifumore/tsshogi.tsv")
		if len(rows) != len(paths) {
			t.Errorf("tsshogi.tsv has %d rows, the folder %d record files", len(rows), len(paths))
		}
		for _, row := range rows {
			path := row["path"]
			s := sums[path]
			if s == nil {
				t.Errorf("%s: in tsshogi.tsv, not in the folder", path)
				continue
			}
			if d, ok := tsshogiDiff[path]; ok {
				if row["moves"] != strconv.Itoa(d.TSMoves) {
					t.Errorf("%s: tsshogi reads %s moves, tsshogiDiff says %d (%s)", path, row["moves"], d.TSMoves, d.Why)
				}
				continue
			}
			if row["error"] != "" || s.Err != "" {
				if row["error"] == "" || s.Err == "" {
					t.Errorf("%s: tsshogi error %q, ours %q", path, row["error"], s.Err)
				}
				continue
			}
			end, ok := tsshogiEnds[row["end"]]
			if !ok {
				t.Errorf("%s: tsshogi ending %q not mapped", path, row["end"])
				continue
			}
			var res Result
			switch {
			case end.Stm > 0:
				res = winFor(s.stm)
			case end.Stm < 0:
				res = winFor(s.stm.Opp())
			case end.Kind == EndRepetition || end.Kind == EndJishogi:
				res = Draw
			}
			if row["moves"] != strconv.Itoa(s.Moves) || row["usi_sha1"] != s.USISHA1 || end.Kind != s.Kind || res != s.Result {
				t.Errorf("%s: %d moves (%s), ending %s %s; tsshogi reads %s moves (%s), ending %s (%s %s)", path, s.Moves, s.USISHA1,
					s.Kind, s.Result, row["moves"], row["usi_sha1"], row["end"], end.Kind, res)
			}
		}
		for path := range tsshogiDiff {
			if sums[path] == nil {
				t.Errorf("tsshogiDiff names %s, which is not in the folder", path)
			}
		}
	})
}

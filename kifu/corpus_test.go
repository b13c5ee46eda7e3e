package kifu

import (
	"errors"
	"os"
	"path/filepath"
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
			p, err := r.Replay()
			if (err != nil) != (want.ErrPly > 0) {
				t.Fatalf("Replay: %v", err)
			}
			if p == nil || p.Ply() != len(r.Main.Moves) {
				t.Fatalf("Replay stopped early")
			}
		})
	}
	for path := range corpusTruth {
		if _, ok := seen[path]; !ok {
			t.Errorf("corpusTruth names %s, which is not in MANIFEST.tsv", path)
		}
	}
}

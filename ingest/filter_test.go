package ingest

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestParseDate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2014/10/23(木) 10:00", "2014-10-23"},
		{"2014/10/23 10:00:00", "2014-10-23"},
		{"2011/11/21", "2011-11-21"},
		{"2008/12/17･18日", "2008-12-17"},
		{"2023/7/3 9:30", "2023-07-03"},
		{"2017-06-26T01:00:00.000Z", "2017-06-26"},
		{"2017-06-26T23:30:00+09:00", "2017-06-26"},
		{"2014年10月23日", "2014-10-23"},
		{"２０１４/１０/２３", "2014-10-23"},
		{"12/30/2018 10:29:48 PM", "2018-12-30"},
		{"  2020/02/29", "2020-02-29"},
		{"2019/02/29", ""}, // not a leap year
		{"1711/03/00", ""}, // day unknown
		{"1615/00/00", ""},
		{"2014/13/01", ""},
		{"平成26年10月23日", ""},
		{"", ""},
		{"yesterday", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseDate(tt.in)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("ParseDate(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestParseDateBound(t *testing.T) {
	tests := []struct {
		in          string
		upper       bool
		want, error string
	}{
		{"2020-05-06", false, "2020-05-06", ""},
		{"2020/05/06", true, "2020-05-06", ""},
		{"2020-02", false, "2020-02-01", ""},
		{"2020-02", true, "2020-02-29", ""},
		{"2020", false, "2020-01-01", ""},
		{"2020", true, "2020-12-31", ""},
		{"2020-02-30", false, "", "want yyyy-mm-dd"},
		{"2020-05-06T10:00", false, "", "want yyyy-mm-dd"},
		{"May 2020", false, "", "want yyyy-mm-dd"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%v", tt.in, tt.upper), func(t *testing.T) {
			got, err := ParseDateBound(tt.in, tt.upper)
			if tt.error != "" {
				if err == nil {
					t.Fatalf("ParseDateBound(%q) = %q, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseDateBound(%q, %v) = %q, %v; want %q", tt.in, tt.upper, got, err, tt.want)
			}
		})
	}
}

func TestParseEndKinds(t *testing.T) {
	got, err := ParseEndKinds("resign, MATE,time-up,,")
	if want := []kifu.EndKind{kifu.EndResign, kifu.EndMate, kifu.EndTimeUp}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseEndKinds = %v, %v; want %v", got, err, want)
	}
	if _, err := ParseEndKinds("resign,toryo"); err == nil {
		t.Error("ParseEndKinds accepted toryo")
	}
	if ks := EndKinds(); len(ks) < 18 || ks[0] != kifu.EndNone || ks[len(ks)-1] != kifu.EndUnknown {
		t.Errorf("EndKinds = %v", ks)
	}
}

func TestParseHandicapMode(t *testing.T) {
	for _, m := range []HandicapMode{HandicapExclude, HandicapInclude, HandicapOnly} {
		if got, err := ParseHandicapMode(m.String()); err != nil || got != m {
			t.Errorf("ParseHandicapMode(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := ParseHandicapMode("some"); err == nil {
		t.Error("ParseHandicapMode accepted some")
	}
}

// TestFilter runs filters over a folder of games that differ in start
// position, length, date, players and ending, and checks which are kept
// and the reasons counted for the others.
func TestFilter(t *testing.T) {
	dir := t.TempDir()
	type game struct {
		name, sfen     string
		plies          int
		date, black    string
		white          string
		end            kifu.EndKind
		handicapHeader bool
	}
	kyo := kifu.Handicaps[1].SFEN // 香落ち
	games := []game{
		{"a-even-long", kifu.StartSFEN, 80, "2020/05/06", "羽生善治", "ＧＰＳ将棋", kifu.EndResign, false},
		{"b-even-short", kifu.StartSFEN, 10, "2021/01/01", "Fujii Sota", "Habu", kifu.EndResign, false},
		{"c-even-nodate", kifu.StartSFEN, 60, "", "gps", "bonanza", kifu.EndMate, false},
		{"d-kyo", kyo, 60, "2020/12/31", "上手", "下手", kifu.EndResign, true},
		{"e-other", "4k4/9/9/9/9/9/9/9/4K4 b G 1", 20, "2019/12/31", "x", "y", kifu.EndResign, false},
		{"f-even-old", kifu.StartSFEN, 50, "1710/03/15", "伊藤印達", "大橋宗銀", kifu.EndTimeUp, false},
	}
	for i, g := range games {
		rec := randomRecord(t, uint64(500+i), g.plies, g.sfen)
		if len(rec.Main.Moves) != g.plies {
			t.Fatalf("%s: a random game of %d plies ended at %d", g.name, g.plies, len(rec.Main.Moves))
		}
		rec.Set(kifu.KeyStartTime, g.date)
		rec.Set(kifu.KeyBlack, g.black)
		rec.Set(kifu.KeyWhite, g.white)
		rec.Main.End.Kind = g.end
		writeFile(t, dir, g.name+".kif", recordBytes(t, kifu.FormatKIF, rec))
	}
	tests := []struct {
		name     string
		filter   Filter
		want     []string // kept, in order
		filtered map[string]int
	}{
		{"default", Filter{}, []string{"a", "b", "c", "f"}, map[string]int{FilterHandicap: 2}},
		{"include", Filter{Handicap: HandicapInclude}, []string{"a", "b", "c", "d", "e", "f"}, map[string]int{}},
		{"only", Filter{Handicap: HandicapOnly}, []string{"d", "e"}, map[string]int{FilterHandicap: 4}},
		{"min plies", Filter{MinPlies: 50}, []string{"a", "c", "f"}, map[string]int{FilterHandicap: 2, FilterMinPlies: 1}},
		{"since", Filter{Handicap: HandicapInclude, Since: "2020-01-01"}, []string{"a", "b", "d"},
			map[string]int{FilterNoDate: 1, FilterDate: 2}},
		{"until", Filter{Handicap: HandicapInclude, Until: "2020-12-31"}, []string{"a", "d", "e", "f"},
			map[string]int{FilterNoDate: 1, FilterDate: 1}},
		{"range", Filter{Handicap: HandicapInclude, Since: "2020-05-06", Until: "2020-05-06"}, []string{"a"},
			map[string]int{FilterNoDate: 1, FilterDate: 4}},
		{"player either side, any case and width", Filter{Player: "gps"}, []string{"a", "c"}, map[string]int{FilterHandicap: 2, FilterPlayer: 2}},
		{"player japanese", Filter{Player: "羽生"}, []string{"a"}, map[string]int{FilterHandicap: 2, FilterPlayer: 3}},
		{"player latin", Filter{Player: "HABU"}, []string{"b"}, map[string]int{FilterHandicap: 2, FilterPlayer: 3}},
		{"result", Filter{Results: []kifu.EndKind{kifu.EndMate, kifu.EndTimeUp}}, []string{"c", "f"},
			map[string]int{FilterHandicap: 2, FilterResult: 2}},
		{"first failing test counts", Filter{MinPlies: 70, Since: "2021-01-01", Player: "nobody"}, []string{},
			map[string]int{FilterHandicap: 2, FilterMinPlies: 3, FilterDate: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []string{}
			rep, err := Run(context.Background(), Options{Filter: tt.filter}, []string{dir}, Funcs{GameFunc: func(g *Game) error {
				got = append(got, filepath.Base(g.Source)[:1])
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			if err := rep.Check(); err != nil {
				t.Error(err)
			}
			if !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(rep.Filtered, tt.filtered) {
				t.Errorf("kept %v, filtered %v; want %v, %v", got, rep.Filtered, tt.want, tt.filtered)
			}
		})
	}
}

// TestGameFields checks the fields a Game carries for the store.
func TestGameFields(t *testing.T) {
	dir := t.TempDir()
	rec := randomRecord(t, 9, 31, kifu.Handicaps[3].SFEN) // 角落ち
	rec.Set(kifu.KeyStartTime, "2001/02/03(土) 10:00")
	writeFile(t, dir, "x.kif", recordBytes(t, kifu.FormatKIF, rec))
	var got *Game
	if _, err := Run(context.Background(), Options{Filter: Filter{Handicap: HandicapOnly}}, []string{dir}, Funcs{GameFunc: func(g *Game) error { got = g; return nil }}); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Date != "2001-02-03" || got.Handicap != "角落ち" || got.Plies != 31 || got.Format != kifu.FormatKIF ||
		got.Encoding != kifu.EncodingUTF8 || got.Index != 0 || got.Seq != 0 || len(got.Digest) != 64 {
		t.Errorf("game %+v", got)
	}
}

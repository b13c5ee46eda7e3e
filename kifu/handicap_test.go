package kifu

import (
	"strings"
	"testing"
)

// TestHandicaps checks the 手合割 table against formats.md §2.3: each
// SFEN is a legal position, its CSA PI line removes exactly the missing
// pieces, and names and aliases look up.
func TestHandicaps(t *testing.T) {
	if len(Handicaps) != 16 {
		t.Errorf("%d handicaps, formats.md §2.3 lists 16", len(Handicaps))
	}
	for _, h := range Handicaps {
		t.Run(h.Name, func(t *testing.T) {
			p, err := ParseSFEN(h.SFEN)
			if err != nil {
				t.Fatal(err)
			}
			side := "-"
			if h.Name == "平手" {
				side = "+"
				if p.SideToMove() != Black {
					t.Error("平手 must have Black to move")
				}
			} else if p.SideToMove() != White {
				t.Error("a handicap must have White (上手) to move")
			}
			recs, err := ParseText(FormatCSA, "pi.csa", h.CSA+"\n"+side+"\n")
			if err != nil || len(recs) != 1 || recs[0].StartSFEN != h.SFEN {
				t.Errorf("CSA %s gives %v, %v; want %s", h.CSA, recs, err, h.SFEN)
			}
			if removed := (len(h.CSA) - 2) / 4; 40-removed != p.Occupied().Count() {
				t.Errorf("%d pieces on the board, want %d", p.Occupied().Count(), 40-removed)
			}
			if got := HandicapName(h.SFEN); got != h.Name {
				t.Errorf("HandicapName = %q", got)
			}
			if got, ok := LookupHandicap(h.Name + "　　"); !ok || got != h {
				t.Errorf("LookupHandicap(%q) = %v, %v", h.Name, got, ok)
			}
			recs, err = ParseText(FormatKIF, "h.kif", "手合割："+h.Name+"\n")
			if err != nil || recs[0].StartSFEN != h.SFEN || recs[0].Handicap() != h.Name {
				t.Errorf("KIF 手合割：%s gives %v", h.Name, err)
			}
		})
	}
	for alias, name := range handicapAliases {
		if h, ok := LookupHandicap(alias); !ok || h.Name != name {
			t.Errorf("alias %q does not name %q", alias, name)
		}
	}
	if HandicapName("4k4/9/9/9/9/9/9/9/4K4 b - 1") != "" {
		t.Error("a non-standard position has a handicap name")
	}
}

// TestEndWords checks that every terminal word reads to an ending that
// writes back as the same word, with the result it should have.
func TestEndWords(t *testing.T) {
	for word, w := range kifEndWords {
		for _, stm := range []Color{Black, White} {
			e := w.ending(word, stm)
			got, ok := kifEndWord(&e, stm)
			want := word
			if word == "詰" {
				want = "詰み"
			}
			if !ok || got != want {
				t.Errorf("KIF %q (stm %s) writes back as %q, %v", word, stm, got, ok)
			}
			if strings.Contains(word, "負け") || word == "投了" || word == "詰み" {
				if e.Result != winFor(stm.Opp()) {
					t.Errorf("KIF %q with %s to move: result %s", word, stm, e.Result)
				}
			}
		}
	}
	for word, w := range csaEndWords {
		for _, stm := range []Color{Black, White} {
			e := w.ending(word, stm)
			got, ok := csaEndWord(&e, stm)
			if !ok {
				t.Errorf("CSA %q (stm %s) cannot be written back", word, stm)
				continue
			}
			back := csaEndWords[got].ending(got, stm)
			if back.Kind != e.Kind || back.Result != e.Result {
				t.Errorf("CSA %q (stm %s) writes back as %q: %s %s, want %s %s", word, stm, got, back.Kind, back.Result, e.Kind, e.Result)
			}
		}
	}
	e := csaEndWords["%-ILLEGAL_ACTION"].ending("%-ILLEGAL_ACTION", Black)
	if e.Result != BlackWin {
		t.Errorf("%%-ILLEGAL_ACTION: result %s, want black-win (White fouled)", e.Result)
	}
}

// TestSummary checks KIF/KI2 まで lines both ways.
func TestSummary(t *testing.T) {
	tests := []struct {
		line      string
		lastMover Color
		kind      EndKind
		result    Result
		n         int
	}{
		{"まで64手で後手の勝ち", White, EndResign, WhiteWin, 64},
		{"まで77手で先手の反則勝ち", White, EndIllegal, BlackWin, 77},
		{"まで56手で後手の反則負け", Black, EndIllegal, BlackWin, 56},
		{"まで101手で時間切れにより後手の勝ち", Black, EndTimeUp, WhiteWin, 101},
		{"まで12手で中断", White, EndInterrupt, NoResult, 12},
		{"まで120手で千日手", White, EndRepetition, Draw, 120},
		{"まで200手で持将棋", White, EndJishogi, Draw, 200},
		{"まで93手で詰み", Black, EndMate, BlackWin, 93},
		{"まで150手で先手の入玉勝ち", White, EndDeclareWin, BlackWin, 150},
		{"まで52手で封じ手", White, EndSealed, NoResult, 52},
		{"まで9手で上手の勝ち", Black, EndResign, WhiteWin, 9},
		{"まで、10手で下手の勝ち", White, EndResign, BlackWin, 10},
		{"まで10手で何か", White, EndUnknown, NoResult, 10},
	}
	for _, tt := range tests {
		e, n, ok := parseSummary(tt.line, tt.lastMover)
		if !ok || e.Kind != tt.kind || e.Result != tt.result || n != tt.n {
			t.Errorf("parseSummary(%q) = %s %s %d %v; want %s %s %d", tt.line, e.Kind, e.Result, n, ok, tt.kind, tt.result, tt.n)
			continue
		}
		stm := tt.lastMover.Opp()
		s, ok := formatSummary(n, &e, stm, sideNames(strings.Contains(tt.line, "上手") || strings.Contains(tt.line, "下手")))
		back, _, _ := parseSummary(s, tt.lastMover)
		if !ok || back.Kind != e.Kind || back.Result != e.Result {
			t.Errorf("formatSummary of %q = %q, reads as %s %s", tt.line, s, back.Kind, back.Result)
		}
	}
}

// TestCSAKeyMaps checks that the CSA key maps are inverse to each other.
func TestCSAKeyMaps(t *testing.T) {
	for csa, kif := range csaKeys {
		if csa[0] == '$' && kifToCSAKeys[kif] != csa {
			t.Errorf("%s reads as %s, which writes as %q", csa, kif, kifToCSAKeys[kif])
		}
	}
	if len(kifToCSAKeys) != len(csaKeys)-2 {
		t.Errorf("%d KIF keys written as CSA $ keys, want %d", len(kifToCSAKeys), len(csaKeys)-2)
	}
	r := &Record{Header: []HeaderField{{"$TIME_LIMIT", "00:25+00"}}}
	if r.TimeControl() != "00:25+00" {
		t.Errorf("TimeControl = %q", r.TimeControl())
	}
	r = &Record{Header: []HeaderField{{KeyTimeLimit, "各30分"}, {"秒読み", "30秒"}}}
	if r.TimeControl() != "各30分 秒読み30秒" {
		t.Errorf("TimeControl = %q", r.TimeControl())
	}
}

package kifu

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// EndKind says how a line of play ended (終局).
type EndKind uint8

// End kinds. EndNone means the record stops after its last move without
// saying why; EndUnknown is a terminal word this package does not know,
// kept in Ending.Word.
const (
	EndNone        EndKind = iota
	EndResign              // the side to move resigned (投了, %TORYO)
	EndMate                // the side to move is checkmated (詰み, %TSUMI)
	EndRepetition          // fourfold repetition (千日手, %SENNICHITE)
	EndJishogi             // impasse (持将棋, %JISHOGI)
	EndTimeUp              // loss on time (切れ負け, %TIME_UP)
	EndIllegal             // a foul ends the game (反則勝ち, 反則負け, %ILLEGAL_MOVE, %±ILLEGAL_ACTION)
	EndDeclareWin          // entering-king declaration (入玉勝ち, %KACHI)
	EndDeclareDraw         // entering-king draw declaration (%HIKIWAKE)
	EndInterrupt           // game suspended (中断, %CHUDAN)
	EndSealed              // sealed move of an adjourned game (封じ手)
	EndMaxMoves            // the move cap was reached (%MAX_MOVES)
	EndNoMate              // tsume: no mate (不詰, %FUZUMI)
	EndForfeit             // 不戦勝 / 不戦敗
	EndTry                 // try-rule win (トライ)
	EndMatta               // take-back (%MATTA)
	EndError               // error (%ERROR)
	EndUnknown             // an unknown terminal word, kept opaque
)

var endKindNames = [...]string{
	EndNone: "none", EndResign: "resign", EndMate: "mate", EndRepetition: "repetition",
	EndJishogi: "jishogi", EndTimeUp: "time-up", EndIllegal: "illegal", EndDeclareWin: "declare-win",
	EndDeclareDraw: "declare-draw", EndInterrupt: "interrupt", EndSealed: "sealed",
	EndMaxMoves: "max-moves", EndNoMate: "no-mate", EndForfeit: "forfeit", EndTry: "try",
	EndMatta: "matta", EndError: "error", EndUnknown: "unknown",
}

// String returns a short English name ("resign", "time-up", ...).
func (k EndKind) String() string {
	if int(k) < len(endKindNames) {
		return endKindNames[k]
	}
	return "EndKind(" + strconv.Itoa(int(k)) + ")"
}

// Result is the outcome of a game.
type Result uint8

// Results. NoResult covers suspended, sealed and unfinished games and
// endings that decide nothing.
const (
	NoResult Result = iota
	BlackWin
	WhiteWin
	Draw
)

// String returns "none", "black-win", "white-win" or "draw".
func (r Result) String() string {
	switch r {
	case BlackWin:
		return "black-win"
	case WhiteWin:
		return "white-win"
	case Draw:
		return "draw"
	}
	return "none"
}

// winFor returns the result in which c wins.
func winFor(c Color) Result {
	if c == Black {
		return BlackWin
	}
	return WhiteWin
}

// Ending is how a line of play ended: the terminal marker (special move)
// and the result it implies.
type Ending struct {
	Kind   EndKind
	Result Result
	// Word is the terminal as written: "投了", "%TORYO", a KI2
	// "まで…" line, or an unknown word.
	Word     string
	Time     MoveTime // time spent on the terminal (resigning, ...)
	Comments []string
	// Illegal is the illegal move that caused an EndIllegal ending, when
	// the record gives it (formats.md §6 rule 11): it is not part of the
	// line's moves.
	Illegal *IllegalMove
}

// IllegalMove is a move a record gives that breaks a rule, kept in the
// Ending it caused.
type IllegalMove struct {
	Move Move            // as written; its piece fields name the piece written
	Text string          // the move text in the source
	Kind IllegalMoveKind // the rule it breaks
}

// endWord describes one terminal word of KIF (and KI2 tokens) or CSA and
// the result it implies.
type endWord struct {
	kind  EndKind
	stm   int8 // +1: the side to move wins, -1: it loses, 0: no winner
	draw  bool // the game is drawn
	black bool // CSA %+ILLEGAL_ACTION: Black fouled, White wins (stm ignored)
	white bool // CSA %-ILLEGAL_ACTION: White fouled, Black wins
}

// kifEndWords maps the KIF special-move words (formats.md §2.6).
var kifEndWords = map[string]endWord{
	"投了":   {kind: EndResign, stm: -1},
	"詰み":   {kind: EndMate, stm: -1},
	"詰":    {kind: EndMate, stm: -1},
	"中断":   {kind: EndInterrupt},
	"千日手":  {kind: EndRepetition, draw: true},
	"持将棋":  {kind: EndJishogi, draw: true},
	"不詰":   {kind: EndNoMate},
	"切れ負け": {kind: EndTimeUp, stm: -1},
	"反則勝ち": {kind: EndIllegal, stm: +1},
	"反則負け": {kind: EndIllegal, stm: -1},
	"入玉勝ち": {kind: EndDeclareWin, stm: +1},
	"不戦勝":  {kind: EndForfeit, stm: +1},
	"不戦敗":  {kind: EndForfeit, stm: -1},
	"封じ手":  {kind: EndSealed},
	"トライ":  {kind: EndTry, stm: +1},
}

// csaEndWords maps the CSA special moves (formats.md §4.6).
var csaEndWords = map[string]endWord{
	"%TORYO":           {kind: EndResign, stm: -1},
	"%CHUDAN":          {kind: EndInterrupt},
	"%SENNICHITE":      {kind: EndRepetition, draw: true},
	"%TIME_UP":         {kind: EndTimeUp, stm: -1},
	"%ILLEGAL_MOVE":    {kind: EndIllegal, stm: -1},
	"%+ILLEGAL_ACTION": {kind: EndIllegal, black: true},
	"%-ILLEGAL_ACTION": {kind: EndIllegal, white: true},
	"%JISHOGI":         {kind: EndJishogi, draw: true},
	"%KACHI":           {kind: EndDeclareWin, stm: +1},
	"%HIKIWAKE":        {kind: EndDeclareDraw, draw: true},
	"%MAX_MOVES":       {kind: EndMaxMoves, draw: true},
	"%MATTA":           {kind: EndMatta},
	"%TSUMI":           {kind: EndMate, stm: -1},
	"%FUZUMI":          {kind: EndNoMate},
	"%ERROR":           {kind: EndError},
}

// ending returns the Ending for word w said when stm is to move.
func (w endWord) ending(word string, stm Color) Ending {
	e := Ending{Kind: w.kind, Word: word}
	switch {
	case w.black:
		e.Result = WhiteWin
	case w.white:
		e.Result = BlackWin
	case w.draw:
		e.Result = Draw
	case w.stm > 0:
		e.Result = winFor(stm)
	case w.stm < 0:
		e.Result = winFor(stm.Opp())
	}
	return e
}

// unknownEnding keeps an unknown terminal word opaque.
func unknownEnding(word string) Ending { return Ending{Kind: EndUnknown, Word: word} }

// kifEndWord returns the KIF word for e, given the side to move at the
// end; ok is false if KIF has no word for it, or none that gives e's
// result (the summary line then carries it).
func kifEndWord(e *Ending, stm Color) (string, bool) {
	w, ok := kifEndWordOf(e, stm)
	return w, ok && e.Kind == EndUnknown || ok && kifEndWords[w].ending(w, stm).Result == e.Result
}

func kifEndWordOf(e *Ending, stm Color) (string, bool) {
	switch e.Kind {
	case EndResign:
		return "投了", true
	case EndMate:
		return "詰み", true
	case EndRepetition:
		return "千日手", true
	case EndJishogi, EndMaxMoves:
		return "持将棋", true // formats.md §7: KIF writes a move cap as 持将棋
	case EndTimeUp:
		return "切れ負け", true
	case EndIllegal:
		if e.Illegal != nil || e.Result == winFor(stm) {
			return "反則勝ち", true
		}
		return "反則負け", true
	case EndDeclareWin:
		return "入玉勝ち", true
	case EndInterrupt:
		return "中断", true
	case EndSealed:
		return "封じ手", true
	case EndNoMate:
		return "不詰", true
	case EndForfeit:
		if e.Result == winFor(stm) {
			return "不戦勝", true
		}
		return "不戦敗", true
	case EndTry:
		return "トライ", true
	case EndUnknown:
		// An unknown word is written back if it would be read as one.
		w := e.Word
		r, _ := utf8.DecodeRuneInString(w)
		_, mark := moveMarks[r]
		_, known := kifEndWords[w]
		if w != "" && !known && !strings.ContainsAny(w, " \t\n\r　(") && !strings.HasPrefix(w, "まで") &&
			digitValues[r] == 0 && r != '同' && !mark && r != '*' && r != '&' && r != '#' {
			return w, true
		}
	}
	return "", false
}

// csaEndWord returns the CSA special move for e, given the side to move
// at the end; ok is false if CSA has no word for it, or none that gives
// e's result.
func csaEndWord(e *Ending, stm Color) (string, bool) {
	w, ok := csaEndWordOf(e, stm)
	return w, ok && e.Kind == EndUnknown || ok && csaEndWords[w].ending(w, stm).Result == e.Result
}

func csaEndWordOf(e *Ending, stm Color) (string, bool) {
	switch e.Kind {
	case EndResign:
		return "%TORYO", true
	case EndMate:
		return "%TSUMI", true
	case EndRepetition:
		return "%SENNICHITE", true
	case EndJishogi:
		return "%JISHOGI", true
	case EndTimeUp:
		return "%TIME_UP", true
	case EndIllegal:
		loser := stm
		if e.Illegal == nil && e.Result == winFor(stm) {
			loser = stm.Opp()
		}
		if e.Illegal == nil && loser == stm {
			return "%ILLEGAL_MOVE", true
		}
		if loser == Black {
			return "%+ILLEGAL_ACTION", true
		}
		return "%-ILLEGAL_ACTION", true
	case EndDeclareWin:
		return "%KACHI", true
	case EndDeclareDraw:
		return "%HIKIWAKE", true
	case EndInterrupt, EndSealed:
		return "%CHUDAN", true
	case EndMaxMoves:
		return "%MAX_MOVES", true
	case EndNoMate:
		return "%FUZUMI", true
	case EndMatta:
		return "%MATTA", true
	case EndError:
		return "%ERROR", true
	case EndUnknown:
		if w := strings.TrimSpace(e.Word); strings.HasPrefix(w, "%") && !strings.ContainsAny(w, " \t\n,") {
			return w, true
		}
	}
	return "", false
}

// sideNames returns the names of the two sides in summary lines: 先手/後手,
// or 下手/上手 when handicap.
func sideNames(handicap bool) [2]string {
	if handicap {
		return [2]string{"下手", "上手"}
	}
	return [2]string{"先手", "後手"}
}

// parseSummary reads a KIF/KI2 summary line "まで64手で後手の勝ち"
// (formats.md §2.9). n is the number of moves it states (-1 if none);
// lastMover is the side that made the last move, for "詰み". ok is false
// if the line does not start with まで.
func parseSummary(s string, lastMover Color) (e Ending, n int, ok bool) {
	rest, found := strings.CutPrefix(s, "まで")
	if !found {
		return Ending{}, 0, false
	}
	rest = strings.TrimLeft(rest, "、, 　")
	n = -1
	if i := strings.Index(rest, "手"); i > 0 {
		if v, err := strconv.Atoi(rest[:i]); err == nil {
			n = v
			rest = rest[i+len("手"):]
		}
	}
	rest = strings.TrimPrefix(rest, "にて")
	rest = strings.TrimPrefix(rest, "で")
	rest = strings.TrimSpace(rest)
	e = Ending{Word: s}
	side := func(t string) (Color, string, bool) {
		for _, p := range [...]struct {
			name string
			c    Color
		}{{"先手", Black}, {"下手", Black}, {"後手", White}, {"上手", White}} {
			if r, ok := strings.CutPrefix(t, p.name+"の"); ok {
				return p.c, r, true
			}
		}
		return Black, "", false
	}
	switch {
	case rest == "千日手":
		e.Kind, e.Result = EndRepetition, Draw
	case rest == "持将棋":
		e.Kind, e.Result = EndJishogi, Draw
	case rest == "詰み" || rest == "詰":
		e.Kind, e.Result = EndMate, winFor(lastMover)
	case rest == "中断":
		e.Kind = EndInterrupt
	case rest == "封じ手":
		e.Kind = EndSealed
	case rest == "不詰":
		e.Kind = EndNoMate
	default:
		timeUp := false
		if r, ok := strings.CutPrefix(rest, "時間切れにより"); ok {
			rest, timeUp = r, true
		}
		c, word, ok := side(rest)
		if !ok {
			e.Kind = EndUnknown
			return e, n, true
		}
		switch word {
		case "勝ち":
			e.Kind, e.Result = EndResign, winFor(c)
			if timeUp {
				e.Kind = EndTimeUp
			}
		case "反則勝ち":
			e.Kind, e.Result = EndIllegal, winFor(c)
		case "反則負け":
			e.Kind, e.Result = EndIllegal, winFor(c.Opp())
		case "入玉勝ち":
			e.Kind, e.Result = EndDeclareWin, winFor(c)
		case "不戦勝":
			e.Kind, e.Result = EndForfeit, winFor(c)
		case "不戦敗":
			e.Kind, e.Result = EndForfeit, winFor(c.Opp())
		case "トライ勝ち":
			e.Kind, e.Result = EndTry, winFor(c)
		default:
			e.Kind = EndUnknown
		}
	}
	return e, n, true
}

// formatSummary writes the summary line for a line of n moves ending in
// e, with stm to move at the end; ok is false when there is nothing to
// say (no ending).
func formatSummary(n int, e *Ending, stm Color, names [2]string) (string, bool) {
	pre := "まで" + strconv.Itoa(n) + "手で"
	winner := func() (string, bool) {
		switch e.Result {
		case BlackWin:
			return names[Black], true
		case WhiteWin:
			return names[White], true
		}
		return "", false
	}
	w, hasWinner := winner()
	switch e.Kind {
	case EndNone:
		return "", false
	case EndRepetition:
		return pre + "千日手", true
	case EndJishogi, EndMaxMoves:
		return pre + "持将棋", true
	case EndMate:
		return pre + "詰み", true
	case EndInterrupt:
		return pre + "中断", true
	case EndSealed:
		return pre + "封じ手", true
	case EndNoMate:
		return pre + "不詰", true
	case EndTimeUp:
		if hasWinner {
			return pre + "時間切れにより" + w + "の勝ち", true
		}
	case EndIllegal:
		if hasWinner {
			if e.Illegal == nil && e.Result != winFor(stm) {
				return pre + names[stm] + "の反則負け", true
			}
			return pre + w + "の反則勝ち", true
		}
	case EndDeclareWin:
		if hasWinner {
			return pre + w + "の入玉勝ち", true
		}
	case EndForfeit:
		if hasWinner {
			return pre + w + "の不戦勝", true
		}
	case EndTry:
		if hasWinner {
			return pre + w + "のトライ勝ち", true
		}
	case EndUnknown:
		// A summary line this package cannot read is written back as it
		// was.
		if back, _, ok := parseSummary(e.Word, stm); ok && back.Kind == EndUnknown {
			return e.Word, true
		}
		return "", false
	}
	if hasWinner {
		return pre + w + "の勝ち", true
	}
	return "", false
}

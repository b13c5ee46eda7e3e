package kifu

import "strings"

// Handicap is a named start position (手合割): the even game or a
// handicap in which White (上手) gives up pieces and moves first.
type Handicap struct {
	Name string // 手合割 as written by Kifu for Windows: 平手, 香落ち, ...
	SFEN string
	CSA  string // CSA PI line: "PI" and the removed pieces
}

const handicapBody = "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"

// Handicaps lists the standard start positions of formats.md §2.3.
var Handicaps = []Handicap{
	{"平手", StartSFEN, "PI"},
	{"香落ち", "lnsgkgsn1/1r5b1/" + handicapBody + " w - 1", "PI11KY"},
	{"右香落ち", "1nsgkgsnl/1r5b1/" + handicapBody + " w - 1", "PI91KY"},
	{"角落ち", "lnsgkgsnl/1r7/" + handicapBody + " w - 1", "PI22KA"},
	{"飛車落ち", "lnsgkgsnl/7b1/" + handicapBody + " w - 1", "PI82HI"},
	{"飛香落ち", "lnsgkgsn1/7b1/" + handicapBody + " w - 1", "PI82HI11KY"},
	{"二枚落ち", "lnsgkgsnl/9/" + handicapBody + " w - 1", "PI82HI22KA"},
	{"三枚落ち", "lnsgkgsn1/9/" + handicapBody + " w - 1", "PI82HI22KA11KY"},
	{"四枚落ち", "1nsgkgsn1/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY"},
	{"五枚落ち", "2sgkgsn1/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY81KE"},
	{"左五枚落ち", "1nsgkgs2/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE"},
	{"六枚落ち", "2sgkgs2/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE81KE"},
	{"左七枚落ち", "2sgkg3/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE81KE31GI"},
	{"右七枚落ち", "3gkgs2/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE81KE71GI"},
	{"八枚落ち", "3gkg3/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE81KE31GI71GI"},
	{"十枚落ち", "4k4/9/" + handicapBody + " w - 1", "PI82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI"},
}

// handicapAliases maps other spellings of 手合割 values seen in real files
// to the names of Handicaps.
var handicapAliases = map[string]string{
	"飛落ち":   "飛車落ち",
	"飛車香落ち": "飛香落ち",
	"２枚落ち":  "二枚落ち",
	"2枚落ち":  "二枚落ち",
	"４枚落ち":  "四枚落ち",
	"4枚落ち":  "四枚落ち",
	"６枚落ち":  "六枚落ち",
	"6枚落ち":  "六枚落ち",
	"８枚落ち":  "八枚落ち",
	"8枚落ち":  "八枚落ち",
	"10枚落ち": "十枚落ち",
	"１０枚落ち": "十枚落ち",
	"香落":    "香落ち",
	"角落":    "角落ち",
	"飛車落":   "飛車落ち",
	"平手戦":   "平手",
}

// LookupHandicap returns the start position named by a 手合割 value
// (trailing spaces and known aliases accepted).
func LookupHandicap(name string) (Handicap, bool) {
	name = strings.TrimRight(name, " 　\t")
	if a, ok := handicapAliases[name]; ok {
		name = a
	}
	for _, h := range Handicaps {
		if h.Name == name {
			return h, true
		}
	}
	return Handicap{}, false
}

// HandicapName returns the 手合割 name of a start position given in SFEN
// (the move number is ignored), or "" if it is not a standard one.
func HandicapName(sfen string) string {
	key := sfenKey(sfen)
	for _, h := range Handicaps {
		if sfenKey(h.SFEN) == key {
			return h.Name
		}
	}
	return ""
}

// sfenKey returns an SFEN without its move number.
func sfenKey(s string) string {
	f := strings.Fields(strings.TrimPrefix(s, "sfen "))
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ")
}

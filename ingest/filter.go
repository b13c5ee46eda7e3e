package ingest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/text/width"
)

// HandicapMode says which start positions a run keeps.
type HandicapMode uint8

// Handicap modes. The zero value, HandicapExclude, keeps even games (平手)
// only. A start position that is neither the even game nor a standard
// handicap (a board diagram, a mid-game position) counts as a handicap:
// its moves are not those of an even game either.
const (
	HandicapExclude HandicapMode = iota // even games only (the default)
	HandicapInclude                     // every start position
	HandicapOnly                        // every start position but the even game
)

var handicapModeNames = [...]string{"exclude", "include", "only"}

// String returns "exclude", "include" or "only".
func (m HandicapMode) String() string {
	if int(m) < len(handicapModeNames) {
		return handicapModeNames[m]
	}
	return "HandicapMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseHandicapMode reads "exclude", "include" or "only".
func ParseHandicapMode(s string) (HandicapMode, error) {
	for m, n := range handicapModeNames {
		if strings.EqualFold(s, n) {
			return HandicapMode(m), nil
		}
	}
	return 0, fmt.Errorf("ingest: handicap mode %q: want include, exclude or only", s)
}

// Filter selects games. The zero Filter keeps every even game. Each
// filtered game is counted in Report.Filtered under the reason of the
// first test it fails, in this order: FilterHandicap, FilterMinPlies,
// FilterNoDate, FilterDate, FilterPlayer, FilterResult.
type Filter struct {
	Handicap HandicapMode
	// MinPlies drops games with fewer main-line moves.
	MinPlies int
	// Since and Until bound the game's date (Game.Date), both inclusive,
	// as yyyy-mm-dd (see ParseDateBound); "" leaves that side open. When
	// either is set, a game without a readable date is dropped and
	// counted as FilterNoDate: it cannot be shown to be in the range.
	Since, Until string
	// Player keeps games in which either player's name contains it,
	// ignoring case and width ("gps" matches "ＧＰＳ将棋" and "GPSShogi").
	Player string
	// Results keeps games whose main line ended in one of these ways;
	// empty keeps all.
	Results []kifu.EndKind
}

// Reasons for filtering a game, the keys of Report.Filtered.
const (
	FilterHandicap = "handicap"
	FilterMinPlies = "min-plies"
	FilterNoDate   = "no-date"
	FilterDate     = "date"
	FilterPlayer   = "player"
	FilterResult   = "result"
)

// check returns the reason g is filtered out, or "".
func (f *Filter) check(g *Game) string {
	even := g.Handicap == "平手"
	switch f.Handicap {
	case HandicapExclude:
		if !even {
			return FilterHandicap
		}
	case HandicapOnly:
		if even {
			return FilterHandicap
		}
	}
	if g.Plies < f.MinPlies {
		return FilterMinPlies
	}
	if f.Since != "" || f.Until != "" {
		switch {
		case g.Date == "":
			return FilterNoDate
		case f.Since != "" && g.Date < f.Since, f.Until != "" && g.Date > f.Until:
			return FilterDate
		}
	}
	if f.Player != "" {
		p := foldName(f.Player)
		if !strings.Contains(foldName(g.Record.Player(kifu.Black)), p) &&
			!strings.Contains(foldName(g.Record.Player(kifu.White)), p) {
			return FilterPlayer
		}
	}
	if len(f.Results) > 0 {
		k := g.Record.Main.End.Kind
		found := false
		for _, r := range f.Results {
			found = found || r == k
		}
		if !found {
			return FilterResult
		}
	}
	return ""
}

// foldName folds width (full-width letters and digits to ASCII) and case.
func foldName(s string) string { return strings.ToLower(width.Fold.String(s)) }

// EndKinds returns every kifu.EndKind, in order.
func EndKinds() []kifu.EndKind {
	var ks []kifu.EndKind
	for k := kifu.EndKind(0); !strings.HasPrefix(k.String(), "EndKind("); k++ {
		ks = append(ks, k)
	}
	return ks
}

// ParseEndKinds reads a comma-separated list of kifu.EndKind names
// ("resign,mate,time-up").
func ParseEndKinds(s string) ([]kifu.EndKind, error) {
	var out []kifu.EndKind
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		found := false
		for _, k := range EndKinds() {
			if strings.EqualFold(w, k.String()) {
				out, found = append(out, k), true
				break
			}
		}
		if !found {
			names := make([]string, 0, 20)
			for _, k := range EndKinds() {
				names = append(names, k.String())
			}
			return nil, fmt.Errorf("ingest: unknown result kind %q: want some of %s", w, strings.Join(names, ", "))
		}
	}
	return out, nil
}

var (
	dateYMD = regexp.MustCompile(`^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})`)
	dateMDY = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})\b`)
)

// ParseDate reads the date of a 開始日時 (or CSA $START_TIME) value and
// returns it as yyyy-mm-dd. It reads the shapes seen in real records,
// looking only at the date and ignoring what follows it (a weekday, a
// time, a second day): "2014/10/23(木) 10:00", "2014/10/23 10:00:00",
// "2011/11/21", "2017-06-26T01:00:00.000Z" (ISO 8601; the date is taken
// as written, not moved to another time zone), "2014年10月23日",
// "12/30/2018 10:29:48 PM" (month/day/year), full-width digits too.
// ok is false if s holds no valid date.
func ParseDate(s string) (date string, ok bool) {
	s = strings.TrimSpace(width.Fold.String(s))
	var y, m, d string
	if g := dateYMD.FindStringSubmatch(s); g != nil {
		y, m, d = g[1], g[2], g[3]
	} else if g := dateMDY.FindStringSubmatch(s); g != nil {
		y, m, d = g[3], g[1], g[2]
	} else {
		return "", false
	}
	yi, _ := strconv.Atoi(y)
	mi, _ := strconv.Atoi(m)
	di, _ := strconv.Atoi(d)
	t := time.Date(yi, time.Month(mi), di, 0, 0, 0, 0, time.UTC)
	if t.Year() != yi || int(t.Month()) != mi || t.Day() != di {
		return "", false // 2014/02/30, month 13
	}
	return t.Format("2006-01-02"), true
}

// ParseDateBound reads a --since or --until bound: yyyy-mm-dd (or
// yyyy/mm/dd), yyyy-mm or yyyy. A partial date stands for its first day
// as a lower bound and its last day as an upper bound (upper true), so
// "--since 2020 --until 2020" is the whole year.
func ParseDateBound(s string, upper bool) (string, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "/", "-")
	if d, ok := ParseDate(t); ok && len(t) <= len("2006-01-02") {
		return d, nil
	}
	for _, layout := range []string{"2006-01", "2006"} {
		p, err := time.Parse(layout, t)
		if err != nil {
			continue
		}
		if upper {
			if layout == "2006" {
				p = p.AddDate(1, 0, -1)
			} else {
				p = p.AddDate(0, 1, -1)
			}
		}
		return p.Format("2006-01-02"), nil
	}
	return "", fmt.Errorf("ingest: date %q: want yyyy-mm-dd, yyyy-mm or yyyy", s)
}

// validate checks the fields of f that a caller could get wrong.
func (f *Filter) validate() error {
	if f.Handicap > HandicapOnly {
		return fmt.Errorf("ingest: bad handicap mode %d", f.Handicap)
	}
	for _, b := range []struct{ name, v string }{{"Since", f.Since}, {"Until", f.Until}} {
		if b.v == "" {
			continue
		}
		if d, ok := ParseDate(b.v); !ok || d != b.v {
			return fmt.Errorf("ingest: Filter.%s %q: want yyyy-mm-dd (see ParseDateBound)", b.name, b.v)
		}
	}
	if f.Since != "" && f.Until != "" && f.Since > f.Until {
		return fmt.Errorf("ingest: the date range %s to %s is empty", f.Since, f.Until)
	}
	return nil
}

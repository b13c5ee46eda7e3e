package categorize

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/rpshogi/rpshogi/kifu"
)

// readCSAMoves is a tiny test-only reader of the self-play CSA files (even
// games from PI, one "+7776FU" move a line; time, comment and header
// lines ignored). It returns the moves in USI. It will be replaced by the
// real record reader, kifu.ParseCSA, being written on another branch.
func readCSAMoves(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pos := kifu.NewStartPosition()
	var usi []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if len(t) != 7 || (t[0] != '+' && t[0] != '-') || t[1] < '0' || t[1] > '9' {
			continue
		}
		to, _ := kifu.ParseSquare(string(t[3]) + string('a'+t[4]-'1'))
		var s string
		if t[1:3] == "00" {
			s = map[string]string{"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R"}[t[5:]] + "*" + to.String()
		} else {
			from, _ := kifu.ParseSquare(string(t[1]) + string('a'+t[2]-'1'))
			s = from.String() + to.String()
			if strings.Contains("TO NY NK NG UM RY", t[5:]) && !pos.PieceAt(from).Type().IsPromoted() {
				s += "+"
			}
		}
		m, err := pos.ParseUSIMove(s)
		if err != nil {
			return nil, fmt.Errorf("categorize: %s:%d: %v", path, line, err)
		}
		pos.DoMove(m)
		usi = append(usi, s)
	}
	return usi, sc.Err()
}

package selfplay

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/rpshogi/rpshogi/data"
	"github.com/rpshogi/rpshogi/kifu"
)

// Opening is the start of a real game: its first moves from the initial
// position.
type Opening struct {
	// Name says where the moves come from (a file of the collection).
	Name  string
	Moves []kifu.Move
}

// DefaultMaxOpeningPlies bounds the plies of an opening that a game
// takes (Options.MaxOpeningPlies): a game takes the first 0 to 24.
const DefaultMaxOpeningPlies = 24

// BundledOpenings returns the openings of the bundled collection
// (data.Selfplay): the first maxPlies moves of each of its games from
// the initial position, by file name. The set is the same for every
// run of a binary, so it is named "bundled" in the records.
func BundledOpenings(maxPlies int) ([]Opening, error) {
	names, err := fs.Glob(data.Selfplay, "*.csa")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Opening
	for _, name := range names {
		b, err := fs.ReadFile(data.Selfplay, name)
		if err != nil {
			return nil, err
		}
		recs, err := kifu.ParseCSA(strings.NewReader(string(b)))
		if err != nil {
			return nil, fmt.Errorf("selfplay: bundled %s: %w", name, err)
		}
		for _, r := range recs {
			if o, ok := openingOf(name, r, maxPlies); ok {
				out = append(out, o)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("selfplay: the bundled collection has no even game from the initial position")
	}
	return out, nil
}

// openingOf returns the first maxPlies legal moves of r's main line, if r
// starts from the initial position.
func openingOf(name string, r *kifu.Record, maxPlies int) (Opening, bool) {
	if r.StartSFEN != kifu.StartSFEN {
		return Opening{}, false
	}
	pos, err := r.StartPosition()
	if err != nil {
		return Opening{}, false
	}
	o := Opening{Name: name}
	for _, n := range r.Main.Moves {
		if len(o.Moves) == maxPlies {
			break
		}
		if ok, _ := pos.IsLegal(n.Move); !ok {
			break
		}
		pos.DoMove(n.Move)
		o.Moves = append(o.Moves, n.Move)
	}
	return o, true
}

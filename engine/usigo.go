package engine

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
)

// goParams are the arguments of a "go" command.
type goParams struct {
	clock    usiClock
	nodes    uint64
	depth    int
	infinite bool
	ponder   bool
	mate     bool
	mateTime time.Duration // go mate <ms>; 0 with mate set: go mate infinite
	perft    int
}

// parseGo reads the parameters of a go command. It never refuses one: a
// GUI waits for the bestmove of every go, so what it cannot use (an
// unknown parameter, a value that is not a number, searchmoves and its
// moves) is left out and named in the returned notes, and a negative time
// (some GUIs send the time left after it ran out) counts as 0. When
// nothing usable bounds the search, it gets fallbackMoveTime.
func parseGo(args []string) (g goParams, notes []string) {
	value := func(i int) (int64, bool) {
		if i+1 >= len(args) {
			notes = append(notes, fmt.Sprintf("%s needs a value", args[i]))
			return 0, false
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s %q is not a number", args[i], args[i+1]))
			return 0, false
		}
		if n < 0 {
			notes = append(notes, fmt.Sprintf("%s %d is negative, counted as 0", args[i], n))
			n = 0
		}
		return n, true
	}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "btime", "wtime", "binc", "winc", "byoyomi", "movetime":
			n, ok := value(i)
			if i+1 < len(args) {
				i++
			}
			if !ok {
				continue
			}
			d := time.Duration(min(n, math.MaxInt64/int64(time.Millisecond))) * time.Millisecond
			switch args[i-1] {
			case "btime":
				g.clock.Time[kifu.Black] = d
			case "wtime":
				g.clock.Time[kifu.White] = d
			case "binc":
				g.clock.Inc[kifu.Black] = d
			case "winc":
				g.clock.Inc[kifu.White] = d
			case "byoyomi":
				g.clock.Byoyomi = d
			case "movetime":
				g.clock.MoveTime = d
			}
		case "nodes", "depth", "perft":
			n, ok := value(i)
			if i+1 < len(args) {
				i++
			}
			if !ok {
				continue
			}
			switch args[i-1] {
			case "nodes":
				g.nodes = uint64(n)
			case "depth":
				g.depth = int(min(n, 1000))
			case "perft":
				g.perft = int(min(n, 20))
			}
		case "infinite":
			g.infinite = true
		case "ponder":
			g.ponder = true
		case "mate":
			g.mate = true
			if i+1 < len(args) && args[i+1] != "infinite" {
				n, ok := value(i)
				if !ok {
					n = 1 // answered at once rather than searched until a stop that may never come
				}
				g.mateTime = time.Duration(min(max(n, 1), math.MaxInt64/int64(time.Millisecond))) * time.Millisecond
			}
			if i+1 < len(args) {
				i++
			}
		case "searchmoves":
			notes = append(notes, "searchmoves is not supported: every legal move is searched")
			i = len(args)
		default:
			notes = append(notes, fmt.Sprintf("unknown go parameter %q", args[i]))
		}
	}
	if len(notes) > 0 && g.clock.IsZero() && g.nodes == 0 && g.depth == 0 && !g.infinite && !g.ponder {
		// What was left gives the search no bound, and a GUI that sent
		// something unusable still waits for a move: give it one soon.
		g.clock.MoveTime = fallbackMoveTime
		notes = append(notes, fmt.Sprintf("no usable limit left: searching %v", fallbackMoveTime))
	}
	return g, notes
}

// fallbackMoveTime bounds a go whose limits could not be read.
const fallbackMoveTime = time.Second

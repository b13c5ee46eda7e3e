// Package selfplaydir writes a self-play collection into a folder: game n
// of seed S as DIR/selfplay-S-00000n.csa, each file written atomically
// (a temporary file renamed), by as many workers as asked, while the
// games are played (engine/selfplay), so that memory does not grow with
// the number of games.
//
// A folder is resumable: a game whose file is already there, made with
// the same settings (the settings comment of the record:
// selfplay.Plan.SettingsComment), is not played again; a file of the
// same name made otherwise (another --nodes, another engine) is an error
// before any game is played, so a run never mixes or overwrites
// collections. A killed run leaves complete files only (and temporary
// files, which the next run into the folder removes).
package selfplaydir

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rpshogi/rpshogi/cmd/internal/atomicfile"
	"github.com/rpshogi/rpshogi/engine/selfplay"
)

// FileName returns the name of game n of seed seed.
func FileName(seed uint64, n int) string {
	return fmt.Sprintf("selfplay-%d-%06d.csa", seed, n)
}

// Options says what to write where.
type Options struct {
	Dir     string
	Games   int // games 1..Games
	Workers int // 0: GOMAXPROCS
	// Progress, if not nil, is called after each game written with the
	// games done (skipped ones included) and the total.
	Progress func(done, total int)
}

// Report counts what a run did.
type Report struct {
	Games   int // asked for
	Skipped int // already in the folder, made with the same settings
	Played  int
	Plies   int // of the games played
	// Sampled and Searched count the plies the engine chose by the model
	// and by the search; the rest came from the openings.
	Sampled, Searched int
	Nodes             uint64
	Ends              map[string]int // by ending (kifu.EndKind names)
	Bytes             int64          // written
	Elapsed           time.Duration
}

// ErrOtherSettings says a file of the folder holds a game made with other
// settings.
var ErrOtherSettings = errors.New("made with other settings")

// Write plays the games of plan that the folder lacks and writes them.
func Write(ctx context.Context, plan *selfplay.Plan, opts Options) (*Report, error) {
	start := time.Now()
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	seed := plan.Options().Seed
	if err := removeTemporaries(opts.Dir, seed); err != nil {
		return nil, err
	}
	rep := &Report{Games: opts.Games, Ends: map[string]int{}}
	var todo []int
	for n := 1; n <= opts.Games; n++ {
		path := filepath.Join(opts.Dir, FileName(seed, n))
		same, err := sameGame(path, plan.SettingsComment(n))
		switch {
		case errors.Is(err, os.ErrNotExist):
			todo = append(todo, n)
		case err != nil:
			return nil, fmt.Errorf("selfplay: %w", err)
		case !same:
			return nil, fmt.Errorf("selfplay: %s: %w than this run's (%s): give another -o DIR or --seed",
				path, ErrOtherSettings, plan.Settings())
		default:
			rep.Skipped++
		}
	}
	var mu sync.Mutex
	done := rep.Skipped
	if opts.Progress != nil {
		opts.Progress(done, opts.Games)
	}
	err := selfplay.Run(ctx, plan, todo, opts.Workers, func(g *selfplay.Game) error {
		b, err := g.CSA()
		if err != nil {
			return err
		}
		path := filepath.Join(opts.Dir, FileName(seed, g.Number))
		if err := atomicfile.Write(path, b); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		mu.Lock()
		defer mu.Unlock()
		rep.Played++
		rep.Plies += g.Plies()
		rep.Sampled += g.Sampled
		rep.Searched += g.Searched
		rep.Nodes += g.Nodes
		rep.Ends[g.Record.Main.End.Kind.String()]++
		rep.Bytes += int64(len(b))
		done++
		if opts.Progress != nil {
			opts.Progress(done, opts.Games)
		}
		return nil
	})
	rep.Elapsed = time.Since(start)
	return rep, err
}

// sameGame reports whether the record file at path carries the settings
// comment want (a game made as this run would make it); the error wraps
// os.ErrNotExist when there is no file.
func sameGame(path, want string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "'*"); ok && strings.HasPrefix(c, selfplay.SettingsPrefix) {
			return c == want, nil
		}
		if len(line) > 0 && (line[0] == '+' || line[0] == '-') && len(line) > 1 {
			break // the first move: the comments come before it
		}
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return false, nil
}

// removeTemporaries removes the temporary files a killed run of seed
// left in dir (atomicfile's ".NAME.tmp-*").
func removeTemporaries(dir string, seed uint64) error {
	stale, err := filepath.Glob(filepath.Join(dir, ".selfplay-"+fmt.Sprint(seed)+"-*.csa.tmp-*"))
	if err != nil {
		return err
	}
	for _, p := range stale {
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
	}
	return nil
}

package tactics

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/ingest"
)

// RealKinds are the MANIFEST.tsv kinds read for problems: real games. The
// fixtures, positions and the Fairy-Stockfish self-play games
// (source selfplay-*) are left out: Fairy-Stockfish grades the problems,
// and would grade its own play.
var RealKinds = map[string]bool{
	"pro": true, "computer": true, "amateur": true, "unknown": true,
	"pro-vs-computer": true, "pro-vs-amateur": true,
}

// ManifestPaths returns the files of the corpus root whose MANIFEST.tsv
// row has a real kind and a source that is not self-play, sorted.
func ManifestPaths(root string) ([]string, error) {
	name := filepath.Join(root, "MANIFEST.tsv")
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tactics: corpus %s has no MANIFEST.tsv: build reads the record files a MANIFEST.tsv lists (columns path, kind, source; see rpshogi tactics build --help)", root)
	}
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	col := map[string]int{}
	var out []string
	line := 0
	for sc.Scan() {
		line++
		rec := strings.Split(sc.Text(), "\t")
		if line == 1 {
			for i, h := range rec {
				col[h] = i
			}
			for _, h := range []string{"path", "kind", "source"} {
				if _, ok := col[h]; !ok {
					return nil, fmt.Errorf("tactics: %s:1: no column %q", name, h)
				}
			}
			continue
		}
		get := func(h string) string {
			if i := col[h]; i < len(rec) {
				return rec[i]
			}
			return ""
		}
		if !RealKinds[get("kind")] || strings.HasPrefix(get("source"), "selfplay") || get("path") == "" {
			continue
		}
		out = append(out, filepath.Join(root, get("path")))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tactics: %s:%d: %w", name, line, err)
	}
	sort.Strings(out)
	return out, nil
}

// Candidate is a position of a real game to screen.
type Candidate struct {
	// ID is "source#game@ply".
	ID string
	// PrevSFEN is the position before the game's last move Last; SFEN is
	// the position itself (after Ply moves).
	PrevSFEN, Last, SFEN string
	Ply                  int
	// Played is the move the game continued with.
	Played string
	key    uint64
}

// USIPosition returns the "position" command argument: the position
// before the last move and the move, so that engines know it.
func (c *Candidate) USIPosition() string {
	return "sfen " + c.PrevSFEN + " moves " + c.Last
}

// CandidateOptions says which positions to take.
type CandidateOptions struct {
	// PlyFrom is the first ply; the last is three moves before the end.
	PlyFrom int
	// PerGame keeps this many positions of a game at most.
	PerGame int
	Seed    uint64
	// Trim is cut from the front of the sources in IDs (the corpus'
	// parent folder).
	Trim string
}

// Candidates reads the games of paths and returns their candidate
// positions in a deterministic pseudo-random order (a hash of the
// position): any prefix is a uniform sample. Positions reached twice are
// kept once.
func Candidates(ctx context.Context, paths []string, opts CandidateOptions) ([]Candidate, *ingest.Report, error) {
	seen := map[uint64]bool{}
	var all []Candidate
	sink := ingest.Funcs{GameFunc: func(g *ingest.Game) error {
		rec := g.Record
		pos, err := rec.StartPosition()
		if err != nil {
			return nil
		}
		n := len(rec.Main.Moves)
		var game []Candidate
		for ply := 0; ply < n-2; ply++ {
			m := rec.Main.Moves[ply].Move
			if ply >= opts.PlyFrom && ply >= 1 {
				h := fnv.New64a()
				fmt.Fprintf(h, "%d\x00%s", opts.Seed, pos.SFENWithMoveNumber(1))
				key := h.Sum64()
				if !seen[key] && len(pos.LegalMoves()) >= 2 {
					seen[key] = true
					last := pos.LastMove()
					pos.UndoMove()
					prev := pos.SFENWithMoveNumber(1)
					pos.DoMove(last)
					game = append(game, Candidate{
						ID:       strings.TrimPrefix(g.Source, opts.Trim) + "#" + strconv.Itoa(g.Index) + "@" + strconv.Itoa(ply),
						PrevSFEN: prev, Last: last.USI(), SFEN: pos.SFENWithMoveNumber(1),
						Ply: ply, Played: m.USI(), key: key,
					})
				}
			}
			pos.DoMove(m)
		}
		sort.Slice(game, func(i, j int) bool { return game[i].key < game[j].key })
		if opts.PerGame > 0 && len(game) > opts.PerGame {
			game = game[:opts.PerGame]
		}
		all = append(all, game...)
		return nil
	}}
	rep, err := ingest.Run(ctx, ingest.Options{}, paths, sink)
	if err != nil {
		return nil, rep, err
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].key != all[j].key {
			return all[i].key < all[j].key
		}
		return all[i].ID < all[j].ID
	})
	return all, rep, nil
}

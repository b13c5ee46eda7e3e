package tactics

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rpshogi/rpshogi/categorize"
	"github.com/rpshogi/rpshogi/categorize/cra"
	"github.com/rpshogi/rpshogi/engine/mate"
	"github.com/rpshogi/rpshogi/kifu"
)

// SetSizes are the sizes of the three sets (the paper's: 298, 115, 175),
// and of T, a tuning set drawn first and kept apart from the three (0:
// none), on which settings may be tried before the reported runs.
type SetSizes struct{ G, M, A, T int }

// Classes of problems.
const (
	ClassAttack   = "attack" // attack/defence
	ClassMaterial = "material"
)

// Problem is one tactical problem.
type Problem struct {
	Result
	// Set is "G" (mixed), "M" (material), "A" (attack/defence) or "T"
	// (tuning, apart from the three); Class
	// the problem's class and Why the test that gave it; Level 1..4 the
	// difficulty by the stable depth (<= 5, 6-8, 9-11, >= 12).
	Set, Class, Why string
	Level           int
	// Material is the material change along the PV (8 plies), in
	// categorize's units (a pawn captured = 2), for the side to move.
	Material int
}

// Level returns the difficulty level of a stable depth.
func Level(stable int) int {
	switch {
	case stable <= 5:
		return 1
	case stable <= 8:
		return 2
	case stable <= 11:
		return 3
	}
	return 4
}

// mateNodes bounds the df-pn searches of the classification.
const mateNodes = 20000

// Classify returns the class of a confirmed result and why, or "" to
// drop it: attack/defence if a mate score is involved, the solution
// checks, makes a mate threat (詰めろ) or stops one, or a king is in
// danger and the PV changes little material; material if the PV changes
// at least two pawns' worth.
func Classify(r *Result, solver *mate.Solver) (class, why string, material int, err error) {
	pos, err := kifu.ParseUSIPosition(r.USIPosition())
	if err != nil {
		return "", "", 0, fmt.Errorf("tactics: %s: %w", r.ID, err)
	}
	us := pos.SideToMove()
	sol, err := pos.ParseUSIMove(r.Moves[0])
	if err != nil {
		return "", "", 0, fmt.Errorf("tactics: %s: solution %s: %w", r.ID, r.Moves[0], err)
	}
	// Material along the PV, for us.
	n := 0
	for _, mv := range r.PV {
		if n == 8 {
			break
		}
		m, err := pos.ParseUSIMove(mv)
		if err != nil {
			break
		}
		if ok, _ := pos.IsLegal(m); !ok {
			break
		}
		d := 0
		if m.IsCapture() {
			d += categorize.CaptureValue(m.Captured().Type())
		}
		if m.IsPromotion() {
			d += categorize.PromotionValue(m.Piece().Type())
		}
		if pos.SideToMove() == us {
			material += d
		} else {
			material -= d
		}
		pos.DoMove(m)
		n++
	}
	for range n {
		pos.UndoMove()
	}
	lim := mate.Limits{Nodes: mateNodes, NoPV: true}
	switch {
	case IsMate(r.Scores[0]) || IsMate(r.Scores[1]):
		return ClassAttack, "mate-score", material, nil
	case pos.GivesCheck(sol):
		return ClassAttack, "check", material, nil
	}
	pos.DoMove(sol)
	threat := false
	if !pos.InCheck() {
		pos.DoNullMove()
		threat = solver.Solve(pos, lim).Status == mate.Found
		pos.UndoNullMove()
	}
	pos.UndoMove()
	if threat {
		return ClassAttack, "makes-mate-threat", material, nil
	}
	if !pos.InCheck() {
		pos.DoNullMove()
		threat = solver.Solve(pos, lim).Status == mate.Found
		pos.UndoNullMove()
		if threat {
			return ClassAttack, "stops-mate-threat", material, nil
		}
	}
	if (cra.KingInDanger(pos, kifu.Black) || cra.KingInDanger(pos, kifu.White)) && material < 4 && material > -4 {
		return ClassAttack, "king-danger", material, nil
	}
	if material >= 4 || material <= -4 {
		return ClassMaterial, "material", material, nil
	}
	return "", "", material, nil
}

func hashID(id string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, id)
	return h.Sum64()
}

// Assemble classifies the confirmed results and draws three disjoint
// sets from them, in a hash order of their IDs: G (mixed) takes its share
// of each class in the proportion of the classes, M the material
// problems and A the attack/defence problems left. When there are fewer
// problems than the three sizes, every size shrinks in proportion. A
// tuning set T of sizes.T, both classes in proportion, is drawn before
// the three.
func Assemble(results []Result, sizes SetSizes) ([]Problem, error) {
	solver := mate.NewSolver(16)
	var att, mat []Problem
	for i := range results {
		r := &results[i]
		if r.Status != "ok" {
			continue
		}
		class, why, material, err := Classify(r, solver)
		if err != nil {
			return nil, err
		}
		p := Problem{Result: *r, Class: class, Why: why, Level: Level(r.Stable), Material: material}
		switch class {
		case ClassAttack:
			att = append(att, p)
		case ClassMaterial:
			mat = append(mat, p)
		}
	}
	for _, l := range [][]Problem{att, mat} {
		sort.Slice(l, func(i, j int) bool { return hashID(l[i].ID) < hashID(l[j].ID) })
	}
	var out []Problem
	take := func(l []Problem, n int, set string) []Problem {
		n = min(n, len(l))
		for i := range n {
			p := l[i]
			p.Set = set
			out = append(out, p)
		}
		return l[n:]
	}
	pool := len(att) + len(mat)
	if t := min(sizes.T, pool); t > 0 {
		tA := (t*len(att) + pool/2) / pool
		att = take(att, tA, "T")
		mat = take(mat, t-tA, "T")
		pool = len(att) + len(mat)
	}
	total := sizes.G + sizes.M + sizes.A
	if total == 0 || pool == 0 {
		return out, nil
	}
	scale := func(n int) int {
		if pool >= total {
			return n
		}
		return (n*pool + total/2) / total
	}
	g, m, a := scale(sizes.G), scale(sizes.M), scale(sizes.A)
	gA := (g*len(att) + pool/2) / pool
	gM := g - gA
	att = take(att, gA, "G")
	mat = take(mat, gM, "G")
	take(mat, m, "M")
	take(att, a, "A")
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Set != out[j].Set {
			return out[i].Set < out[j].Set
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// problemFields are the columns of the problem file.
var problemFields = []string{"id", "set", "class", "why", "level", "sfen", "prev_sfen", "last", "solution",
	"s1", "second", "s2", "third", "s3", "stable", "material", "gps", "gps_score", "pv"}

// WriteProblems writes problems as TSV with a header.
func WriteProblems(w io.Writer, probs []Problem) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(strings.Join(problemFields, "\t") + "\n")
	for _, p := range probs {
		f := []string{p.ID, p.Set, p.Class, p.Why, strconv.Itoa(p.Level), p.SFEN, p.PrevSFEN, p.Last, p.Moves[0],
			strconv.Itoa(p.Scores[0]), p.Moves[1], strconv.Itoa(p.Scores[1]), p.Moves[2], strconv.Itoa(p.Scores[2]),
			strconv.Itoa(p.Stable), strconv.Itoa(p.Material), p.GPS, strconv.Itoa(p.GPSScore), strings.Join(p.PV, " ")}
		bw.WriteString(strings.Join(f, "\t") + "\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tactics: %w", err)
	}
	return nil
}

// ReadProblems reads a problem file. A malformed line is an error naming
// the file and line.
func ReadProblems(name string) ([]Problem, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	defer f.Close()
	var out []Problem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if line == 1 && strings.HasPrefix(t, "id\t") || t == "" {
			continue
		}
		c := strings.Split(t, "\t")
		if len(c) != len(problemFields) {
			return nil, fmt.Errorf("tactics: %s:%d: %d columns, want %d", name, line, len(c), len(problemFields))
		}
		var p Problem
		var bad error
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil && bad == nil {
				bad = err
			}
			return n
		}
		p.ID, p.Set, p.Class, p.Why, p.Level = c[0], c[1], c[2], c[3], num(c[4])
		p.SFEN, p.PrevSFEN, p.Last = c[5], c[6], c[7]
		p.Moves = [3]string{c[8], c[10], c[12]}
		p.Scores = [3]int{num(c[9]), num(c[11]), num(c[13])}
		p.Stable, p.Material, p.GPS, p.GPSScore = num(c[14]), num(c[15]), c[16], num(c[17])
		p.PV = strings.Fields(c[18])
		p.Status = "ok"
		if bad != nil {
			return nil, fmt.Errorf("tactics: %s:%d: %v", name, line, bad)
		}
		if _, err := kifu.ParseUSIPosition(p.USIPosition()); err != nil {
			return nil, fmt.Errorf("tactics: %s:%d: %v", name, line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tactics: %s:%d: %w", name, line, err)
	}
	return out, nil
}

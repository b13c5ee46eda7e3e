package tactics

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// AnalyseOptions configures the screening of candidates.
type AnalyseOptions struct {
	FS  EngineSpec
	GPS EngineSpec // Path "" skips the gpsusi check
	// ScreenDepth (MultiPV 2) and ConfirmDepth (MultiPV 3) are
	// Fairy-Stockfish's depths; GPSByoyomi is gpsusi's time in ms.
	ScreenDepth, ConfirmDepth int
	GPSByoyomi                int
	Workers                   int
	// Until stops taking new candidates at this time (zero: never).
	Until time.Time
	// Log receives progress lines.
	Log io.Writer
}

// Gap is the least score difference, in centipawns, between the solution
// and the second-best move.
const Gap = 300

// Result is the outcome of one candidate, a row of the results file.
type Result struct {
	Candidate
	// Status is "ok" or the stage that rejected it: "screen",
	// "confirm", "gps".
	Status string
	// ScreenMoves and ScreenScores are the screen's two best moves.
	ScreenMoves  [2]string
	ScreenScores [2]int
	// Moves and Scores are the confirmation's three best moves ("" when
	// there are fewer); PV is the best line.
	Moves  [3]string
	Scores [3]int
	PV     []string
	// Stable is the first depth from which the confirmation's best move
	// did not change.
	Stable int
	// GPS is gpsusi's move, GPSScore Fairy-Stockfish's score of it (when
	// it differs from the solution).
	GPS      string
	GPSScore int
}

// resultFields are the columns of the results file.
var resultFields = []string{"id", "status", "ply", "prev_sfen", "last", "sfen", "played",
	"scr_m1", "scr_s1", "scr_m2", "scr_s2", "m1", "s1", "m2", "s2", "m3", "s3", "stable", "pv", "gps", "gps_score"}

func (r *Result) row() string {
	f := []string{r.ID, r.Status, strconv.Itoa(r.Ply), r.PrevSFEN, r.Last, r.SFEN, r.Played,
		r.ScreenMoves[0], strconv.Itoa(r.ScreenScores[0]), r.ScreenMoves[1], strconv.Itoa(r.ScreenScores[1]),
		r.Moves[0], strconv.Itoa(r.Scores[0]), r.Moves[1], strconv.Itoa(r.Scores[1]), r.Moves[2], strconv.Itoa(r.Scores[2]),
		strconv.Itoa(r.Stable), strings.Join(r.PV, " "), r.GPS, strconv.Itoa(r.GPSScore)}
	return strings.Join(f, "\t")
}

func parseResult(line string) (Result, bool) {
	f := strings.Split(line, "\t")
	if len(f) != len(resultFields) || f[0] == "id" {
		return Result{}, false
	}
	var r Result
	var err error
	num := func(s string) int {
		n, e := strconv.Atoi(s)
		if e != nil {
			err = e
		}
		return n
	}
	r.ID, r.Status, r.Ply, r.PrevSFEN, r.Last, r.SFEN, r.Played = f[0], f[1], num(f[2]), f[3], f[4], f[5], f[6]
	r.ScreenMoves = [2]string{f[7], f[9]}
	r.ScreenScores = [2]int{num(f[8]), num(f[10])}
	r.Moves = [3]string{f[11], f[13], f[15]}
	r.Scores = [3]int{num(f[12]), num(f[14]), num(f[16])}
	r.Stable = num(f[17])
	if f[18] != "" {
		r.PV = strings.Fields(f[18])
	}
	r.GPS, r.GPSScore = f[19], num(f[20])
	return r, err == nil
}

// ReadResults reads a results file; torn or malformed lines (a run killed
// mid-write) are skipped. A missing file is empty.
func ReadResults(name string) ([]Result, error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	defer f.Close()
	var out []Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		if r, ok := parseResult(sc.Text()); ok {
			out = append(out, r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tactics: %s: %w", name, err)
	}
	return out, nil
}

// screenPass is the screen's (and the confirmation's) test of the two
// best scores: one clear solution (a gap of Gap), a game not yet decided,
// and something to gain or to save.
func screenPass(s1, s2 int) bool {
	if s1-s2 < Gap {
		return false
	}
	switch {
	case s1 >= MateScore-1000: // a mate only the solution finds
		return s2 <= 1500
	case s1 <= -MateScore+1000:
		return false
	}
	return s1 <= 2500 && s1 >= -2500 && (s1 >= 200 || s2 <= -500)
}

// search runs one Fairy-Stockfish search and returns the last info of
// each PV and the best move by depth.
func search(e *Engine, position string, multiPV int, goCmd string) ([]Info, map[int]string, error) {
	for _, l := range []string{"setoption name MultiPV value " + strconv.Itoa(multiPV), "usinewgame"} {
		if err := e.Send(l); err != nil {
			return nil, nil, err
		}
	}
	if err := e.Ready(); err != nil {
		return nil, nil, err
	}
	if err := e.Send("position " + position); err != nil {
		return nil, nil, err
	}
	if err := e.Send(goCmd); err != nil {
		return nil, nil, err
	}
	last := make([]Info, multiPV)
	byDepth := map[int]string{}
	_, err := e.Await("bestmove", 10*time.Minute, func(l string) {
		in, ok := ParseInfo(l)
		if !ok || in.MultiPV < 1 || in.MultiPV > multiPV {
			return
		}
		last[in.MultiPV-1] = in
		if in.MultiPV == 1 {
			byDepth[in.Depth] = in.PV[0]
		}
	})
	n := 0
	for n < multiPV && len(last[n].PV) > 0 {
		n++
	}
	return last[:n], byDepth, err
}

// stableDepth returns the first depth from which the best move stayed
// the final one.
func stableDepth(byDepth map[int]string, final string) int {
	max := 0
	for d := range byDepth {
		if d > max {
			max = d
		}
	}
	stable := max
	for d := max; d >= 1; d-- {
		m, ok := byDepth[d]
		if !ok {
			continue
		}
		if m != final {
			break
		}
		stable = d
	}
	return stable
}

type worker struct {
	fs, gps *Engine
	opts    *AnalyseOptions
}

// analyse screens, confirms and checks one candidate.
func (w *worker) analyse(c Candidate) (Result, error) {
	r := Result{Candidate: c, Status: "screen"}
	pos := c.USIPosition()
	infos, _, err := search(w.fs, pos, 2, "go depth "+strconv.Itoa(w.opts.ScreenDepth))
	if err != nil {
		return r, err
	}
	for i, in := range infos {
		r.ScreenMoves[i], r.ScreenScores[i] = in.PV[0], in.Score
	}
	if len(infos) < 2 || !screenPass(infos[0].Score, infos[1].Score) {
		return r, nil
	}
	r.Status = "confirm"
	infos, byDepth, err := search(w.fs, pos, 3, "go depth "+strconv.Itoa(w.opts.ConfirmDepth))
	if err != nil {
		return r, err
	}
	for i, in := range infos {
		r.Moves[i], r.Scores[i] = in.PV[0], in.Score
	}
	if len(infos) < 2 || infos[0].PV[0] != r.ScreenMoves[0] || !screenPass(infos[0].Score, infos[1].Score) {
		return r, nil
	}
	r.PV = infos[0].PV
	r.Stable = stableDepth(byDepth, r.Moves[0])
	if w.gps == nil {
		r.Status = "ok"
		return r, nil
	}
	r.Status = "gps"
	for _, l := range []string{"usinewgame", "position " + pos,
		"go btime 0 wtime 0 byoyomi " + strconv.Itoa(w.opts.GPSByoyomi)} {
		if err := w.gps.Send(l); err != nil {
			return r, err
		}
	}
	l, err := w.gps.Await("bestmove", time.Duration(w.opts.GPSByoyomi)*time.Millisecond+time.Minute, nil)
	if err != nil {
		return r, err
	}
	f := strings.Fields(l)
	if len(f) < 2 {
		return r, nil
	}
	r.GPS = f[1]
	if r.GPS == r.Moves[0] {
		r.Status = "ok"
		return r, nil
	}
	if r.GPS == "resign" || r.GPS == "win" {
		return r, nil
	}
	infos, _, err = search(w.fs, pos, 1, "go depth "+strconv.Itoa(w.opts.ConfirmDepth-1)+" searchmoves "+r.GPS)
	if err != nil {
		return r, err
	}
	if len(infos) == 1 {
		r.GPSScore = infos[0].Score
		if r.Scores[0]-r.GPSScore >= Gap {
			r.Status = "ok"
		}
	}
	return r, nil
}

// Analyse runs the candidates not yet in the results file through the
// screen, appending one row per candidate as it is done: a run that is
// stopped loses only the positions in flight and resumes where it
// stopped.
func Analyse(ctx context.Context, cands []Candidate, resultsFile string, opts AnalyseOptions) error {
	done, err := ReadResults(resultsFile)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, r := range done {
		have[r.ID] = true
	}
	out, err := openAppend(resultsFile, resultFields)
	if err != nil {
		return err
	}
	defer out.Close()
	todo := make(chan Candidate)
	results := make(chan Result)
	errs := make(chan error, max(opts.Workers, 1))
	var wg sync.WaitGroup
	for range max(opts.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{opts: &opts}
			var err error
			if w.fs, err = StartEngine(ctx, opts.FS); err != nil {
				errs <- err
				for range todo {
				}
				return
			}
			if opts.GPS.Path != "" {
				if w.gps, err = StartEngine(ctx, opts.GPS); err != nil {
					w.fs.Close()
					errs <- err
					for range todo {
					}
					return
				}
			}
			defer func() {
				if w.fs != nil {
					w.fs.Close()
				}
				if w.gps != nil {
					w.gps.Close()
				}
			}()
			for c := range todo {
				r, err := w.analyse(c)
				if err == nil {
					results <- r
					continue
				}
				// An engine failed: log it, skip the candidate (a
				// later run retries it) and restart the engines.
				if opts.Log != nil {
					fmt.Fprintf(opts.Log, "%s: %v (restarting the engines)\n", c.ID, err)
				}
				w.fs.Close()
				if w.gps != nil {
					w.gps.Close()
				}
				w.fs, w.gps = nil, nil
				if w.fs, err = StartEngine(ctx, opts.FS); err == nil && opts.GPS.Path != "" {
					w.gps, err = StartEngine(ctx, opts.GPS)
				}
				if err != nil {
					errs <- err
					for range todo {
					}
					return
				}
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, c := range cands {
			if have[c.ID] {
				continue
			}
			if !opts.Until.IsZero() && time.Now().After(opts.Until) {
				return
			}
			select {
			case todo <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	n, ok := len(done), 0
	for _, r := range done {
		if r.Status == "ok" {
			ok++
		}
	}
	var firstErr error
	for r := range results {
		if _, err := io.WriteString(out, r.row()+"\n"); err != nil && firstErr == nil {
			firstErr = fmt.Errorf("tactics: %w", err)
		}
		n++
		if r.Status == "ok" {
			ok++
		}
		if opts.Log != nil && n%20 == 0 {
			fmt.Fprintf(opts.Log, "%s %d/%d screened, %d problems\n", time.Now().UTC().Format("15:04:05"), n, len(cands), ok)
		}
	}
	select {
	case err := <-errs:
		if firstErr == nil {
			firstErr = err
		}
	default:
	}
	return firstErr
}

// openAppend opens name for appending, first ending a torn last line; a
// new file gets the header.
func openAppend(name string, header []string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tactics: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("tactics: %w", err)
	}
	if st.Size() == 0 {
		_, err = io.WriteString(f, strings.Join(header, "\t")+"\n")
	} else {
		b := make([]byte, 1)
		if _, err = f.ReadAt(b, st.Size()-1); err == nil && b[0] != '\n' {
			_, err = f.WriteAt([]byte("\n"), st.Size())
		}
		if err == nil {
			_, err = f.Seek(0, io.SeekEnd)
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("tactics: %w", err)
	}
	return f, nil
}

package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/rpshogi/rpshogi/kifu"
	"golang.org/x/sync/errgroup"
)

// Options configures Run.
type Options struct {
	// Workers is the number of goroutines that decode, parse, replay and
	// digest files; 0 means runtime.GOMAXPROCS(0). The output does not
	// depend on it.
	Workers int
	// Filter selects the games to accept (the zero Filter keeps even
	// games of any length, date, players and result).
	Filter Filter
	// Stdin is read for the path "-".
	Stdin io.Reader
	// AllFiles reads every file found in folders, archives and glob
	// matches, not only those with a record extension (RecordExts);
	// files named explicitly are always read.
	AllFiles bool
	// Limits bounds what one input may cost (file and line size,
	// archive nesting, bytes decompressed); an input past a bound is
	// rejected (RejectLimit) with the bound. Zero fields take the
	// defaults.
	Limits Limits
	// Partial keeps a game whose main line stops at an illegal or
	// unreadable move: its legal moves before it are accepted, with the
	// ending recorded as illegal (kifu.EndIllegal, the player of the move
	// losing when it breaks a rule) and Game.Partial set; the report
	// counts it in AcceptedPartial with a warning naming the file and
	// line of the move. Without Partial such a game is rejected whole
	// (RejectReplay).
	Partial bool
	// Progress, if set, is called from the collector goroutine after each
	// input file has been accounted for.
	Progress func(Progress)
	// Process, if set, is per-game work run in the workers, in parallel:
	// each worker calls it on every game it has replayed and digested
	// that passes Filter, and the result travels with the game to the
	// Sink as Game.Processed. The Sink is called from one goroutine, so
	// expensive work done there (train classifying every legal move)
	// would be serial; done here it is spread over the workers while the
	// output order stays that of the walk.
	//
	// Process runs before deduplication and before the store has seen
	// the game, so it also runs on games that turn out to be duplicates
	// or already stored (Game.Known); their results are dropped. It may
	// skip work by returning (nil, nil), for instance for a digest it
	// already knows to be stored (Game.Digest is set). It is called
	// concurrently, in no particular order, and must not keep the game.
	//
	// An error returned by Process (or a panic in it) rejects the game
	// (RejectProcess, with the error's text as the reason); the run goes
	// on.
	Process func(*Game) (any, error)
}

// Progress is the state of a run, as passed to Options.Progress.
type Progress struct {
	Files    int
	Bytes    int64
	Records  int
	Accepted int
}

// Run reads every input named by paths (files, folders, glob patterns,
// zip/tar/tar.gz archives, "-" for Stdin), and passes the outcome of
// every record to sink in a deterministic order: by input (walk order),
// then by the record's index in the input, whatever opts.Workers is.
//
// The stages are a walker, opts.Workers workers (decode, parse, replay,
// digest) and one collector that merges their results in order, applies
// the filter, deduplicates by digest (the first game in walk order is
// kept; filters come first, so a game is kept from its first copy that
// passes them) and calls sink; channels between them are bounded and at most a
// few files per worker are in flight, so memory does not grow with the
// number of games read. What grows is the set of the accepted games: 16
// bytes of each one's digest and where it was read (Duplicate.OfSeq,
// OfIndex), no string: 26 to 39 bytes a game measured with the map's
// spare room (TestRunMemory wants under 64; BenchmarkRunHeld), 30 to
// 60 MB for a million distinct games.
//
// Every record is accounted for in the Report: accepted, duplicate,
// filtered or rejected (Report.Check). A bad file never stops a run. Run
// returns an error, with the report so far, only when it cannot go on: a
// path that names nothing (checked before anything is read), an error
// returned by sink, or ctx cancelled. The caller then discards what the
// sink wrote (Update rolls the database transaction back).
func Run(ctx context.Context, opts Options, paths []string, sink Sink) (*Report, error) {
	start := time.Now()
	rep := newReport()
	if sink == nil {
		return rep, errSinkNil
	}
	if err := opts.Filter.validate(); err != nil {
		return rep, err
	}
	if err := opts.Limits.validate(); err != nil {
		return rep, err
	}
	opts.Limits = opts.Limits.withDefaults()
	workers := opts.Workers
	if workers < 0 {
		return rep, fmt.Errorf("ingest: %d workers", workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rep.Workers = workers
	w := &Walker{Stdin: opts.Stdin, Exts: RecordExts, Limits: opts.Limits}
	if opts.AllFiles {
		w.Exts = nil
	}
	rep.LookedFor = w.LookedFor()
	if err := w.Check(paths); err != nil {
		return rep, err
	}

	g, gctx := errgroup.WithContext(ctx)
	walked := make(chan Input)
	inputs := make(chan Input, workers)
	results := make(chan *fileResult, workers)
	// tokens bounds the files between the walker and the collector: the
	// collector frees one as it accounts for a file, so a slow file
	// cannot let the others pile up behind it.
	tokens := make(chan struct{}, 4*workers+4)

	g.Go(func() error {
		defer close(walked)
		return w.Walk(gctx, paths, walked)
	})
	g.Go(func() error {
		defer close(inputs)
		for in := range walked {
			select {
			case tokens <- struct{}{}:
			case <-gctx.Done():
				return gctx.Err()
			}
			select {
			case inputs <- in:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			for in := range inputs {
				if err := gctx.Err(); err != nil {
					return err
				}
				res := processFile(in, &opts)
				select {
				case results <- res:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		wg.Wait()
		close(results)
		return nil
	})
	c := &collector{opts: &opts, rep: rep, sink: sink, seen: map[digestKey]uint64{}}
	g.Go(func() error {
		pending := map[int]*fileResult{}
		next := 0
		for {
			select {
			case res, ok := <-results:
				if !ok {
					if len(pending) > 0 {
						return fmt.Errorf("ingest: internal error: %d inputs left unmerged", len(pending))
					}
					return nil
				}
				pending[res.seq] = res
				for r := pending[next]; r != nil; r = pending[next] {
					delete(pending, next)
					next++
					<-tokens
					if err := c.file(r); err != nil {
						return err
					}
				}
			case <-gctx.Done():
				return gctx.Err()
			}
		}
	})
	err := g.Wait()
	rep.Elapsed = time.Since(start)
	if err == nil && rep.Files == 0 {
		// Check stops a folder or pattern that gives no file; this is
		// the rest: archives holding no record file.
		err = fmt.Errorf("ingest: no record file read: looked for %s; %s", rep.LookedFor, skips(rep.SkippedBy))
	}
	return rep, err
}

// digestKey is the first half of a game digest, the key of the set of
// games seen in a run: with 128 bits the chance that two of n distinct
// games collide is about n²/2¹²⁹, below 10⁻¹⁸ for a billion games.
type digestKey [16]byte

// collector accounts for files in order; it runs in one goroutine.
type collector struct {
	opts *Options
	rep  *Report
	sink Sink
	seen map[digestKey]uint64 // digest → seq<<32 | index of the accepted game
}

func (c *collector) file(r *fileResult) error {
	rep := c.rep
	if r.skip != "" {
		rep.addSkip(r.name, r.skip)
		return nil
	}
	rep.Files++
	rep.Bytes += r.bytes
	rep.Formats[r.format.String()]++
	rep.Encodings[r.encoding.String()]++
	for _, w := range r.warnings {
		rep.addWarning(w)
	}
	for _, it := range r.items {
		rep.Records++
		if it.reject != nil {
			rep.addReject(it.reject)
			if err := c.sink.Reject(it.reject); err != nil {
				return err
			}
			continue
		}
		g := it.game
		if why := c.opts.Filter.check(g); why != "" {
			rep.Filtered[why]++
			continue
		}
		var key digestKey
		hex.Decode(key[:], []byte(g.Digest[:2*len(key)]))
		if ref, dup := c.seen[key]; dup {
			rep.Duplicates++
			d := &Duplicate{Seq: g.Seq, Index: g.Index, Source: g.Source, Digest: g.Digest,
				OfSeq: int(ref >> 32), OfIndex: int(uint32(ref))}
			if err := c.sink.Duplicate(d); err != nil {
				return err
			}
			continue
		}
		c.seen[key] = uint64(g.Seq)<<32 | uint64(uint32(g.Index))
		rep.Accepted++
		if re := g.Partial; re != nil {
			rep.AcceptedPartial++
			rep.addWarning(&Warning{Source: g.Source, Index: g.Index, Line: re.Line,
				Reason: fmt.Sprintf("accepted-partial: %s; the %d legal moves before it are kept, ending illegal", reasonOf(re, g.Source, re.Line), g.Plies)})
		}
		if err := c.sink.Game(g); err != nil {
			return err
		}
		if g.Known {
			rep.AlreadyStored++
		}
	}
	if c.opts.Progress != nil {
		c.opts.Progress(Progress{Files: rep.Files, Bytes: rep.Bytes, Records: rep.Records, Accepted: rep.Accepted})
	}
	return nil
}

// fileResult is what a worker makes of one input: its records in order,
// each a game or a reject.
type fileResult struct {
	seq      int
	name     string
	bytes    int64
	format   kifu.Format
	encoding kifu.Encoding
	items    []item
	warnings []*Warning
	skip     string // Input.Skip
}

type item struct {
	game   *Game
	reject *Reject
}

func (r *fileResult) reject(index int, kind RejectKind, line int, reason string, err error) {
	r.items = append(r.items, item{reject: &Reject{Seq: r.seq, Source: r.name, Index: index, Line: line,
		Kind: kind, Reason: reason, Err: err}})
}

func (r *fileResult) warn(index, line int, reason string) {
	r.warnings = append(r.warnings, &Warning{Source: r.name, Index: index, Line: line, Reason: reason})
}

// processFile decodes, parses and digests one input, and runs
// opts.Process on each of its games that passes opts.Filter. It never
// panics: a panic in a reader becomes one Reject for the whole file, and
// a panic in Process a Reject for its game.
func processFile(in Input, opts *Options) (res *fileResult) {
	res = &fileResult{seq: in.Seq, name: in.Name, bytes: int64(len(in.Data)), skip: in.Skip}
	if in.Skip != "" {
		return res
	}
	defer func() {
		if p := recover(); p != nil {
			res.items, res.warnings = nil, nil
			res.reject(0, RejectInternal, 0, fmt.Sprintf("internal error in the record reader (please report it): %v", p), nil)
		}
	}()
	if in.Err != nil {
		kind := RejectRead
		if errors.Is(in.Err, ErrLimit) {
			kind = RejectLimit
		}
		res.reject(0, kind, 0, in.Err.Error(), in.Err)
		return res
	}
	if err := checkLines(in.Data, opts.Limits.withDefaults().MaxLineBytes); err != nil {
		// Parsing a huge line costs tens of bytes of memory per byte.
		res.reject(0, RejectLimit, err.(*LimitError).Line, err.Error(), err)
		return res
	}
	if len(in.Data) == 0 {
		res.reject(0, RejectEmpty, 0, "empty file (0 bytes)", nil)
		return res
	}
	text, enc, err := kifu.DecodeText(in.Name, in.Data)
	res.encoding = enc
	if err != nil {
		line := errLine(err)
		res.reject(0, RejectDecode, line, hideContent(in.Name, reasonOf(err, in.Name, line)), err)
		return res
	}
	if strings.TrimSpace(strings.TrimPrefix(text, "\uFEFF")) == "" {
		res.reject(0, RejectEmpty, 0, "empty file (only blank lines)", nil)
		return res
	}
	if d := declaredEncoding(in.Data); d != "" && !compatible(d, enc) {
		res.warn(0, 1, fmt.Sprintf("the first line declares encoding=%s but the bytes are not; read as %s", d, enc))
	}
	res.format = kifu.DetectFormat(in.Name, text)
	recs, err := kifu.ParseText(res.format, in.Name, text)
	for i, rec := range recs {
		if rec == nil {
			continue
		}
		var partial *kifu.ReplayError
		if opts.Partial && rec.ReplayErr != nil && len(rec.Main.Moves) > 0 {
			partial = cutAtIllegal(rec)
		}
		switch {
		case rec.ReplayErr != nil:
			re := rec.ReplayErr
			res.reject(i, RejectReplay, re.Line, reasonOf(re, in.Name, re.Line), re)
		case len(rec.Main.Moves) == 0:
			res.reject(i, RejectNoMoves, 0, "no game: no move found (a start position at most)", nil)
		default:
			g, err := newGame(res, i, rec)
			if g != nil {
				g.Partial = partial
			}
			if err != nil {
				line := errLine(err)
				res.reject(i, RejectParse, line, reasonOf(err, in.Name, line), err)
				continue
			}
			for _, w := range rec.Warnings {
				res.warn(i, w.Line, w.Message())
			}
			if opts.Process != nil && opts.Filter.check(g) == "" {
				if g.Processed, err = process(opts.Process, g); err != nil {
					res.reject(i, RejectProcess, 0, strings.TrimPrefix(err.Error(), in.Name+": "), err)
					continue
				}
			}
			res.items = append(res.items, item{game: g})
		}
	}
	var re *kifu.ReplayError
	switch {
	case err == nil:
		if len(recs) == 0 {
			res.reject(0, RejectNoGame, 0, "no game in the file", nil)
		}
	case errors.As(err, &re):
		if re.Variation {
			res.warn(0, re.Line, reasonOf(re, in.Name, re.Line)+"; the variations after it were not read")
		}
		// A main-line error is the ReplayErr of its record, rejected above.
	default:
		// A syntax error: the records before it were read, the rest of
		// the file is one rejected record.
		line := errLine(err)
		reason := reasonOf(err, in.Name, line)
		if len(recs) == 0 {
			reason = hideContent(in.Name, reason)
		}
		res.reject(len(recs), RejectParse, line, reason, err)
	}
	return res
}

// hideContent returns the reason a file could not be read at all, or,
// for a file without a record extension (read with AllFiles, or named
// explicitly), a reason that shows nothing of its content: such a file
// may be anything (a key, a password file behind a link), and the
// reasons of the readers quote what they found.
func hideContent(name, reason string) string {
	if RecordExts[strings.ToLower(path.Ext(name))] {
		return reason
	}
	const unknown = "unknown record format"
	if strings.Contains(reason, unknown) {
		return unknown + " (the content of a file without a record extension is not shown)"
	}
	return "not a record in a known format (the content of a file without a record extension is not shown)"
}

// cutAtIllegal makes the legal prefix of a record whose main line stops
// at a move it cannot play the whole game, as convert --partial writes
// it: the ending becomes kifu.EndIllegal, with the move that broke a rule
// (whose player loses) or, for a move that could not be read, no result.
// It returns the replay error, which the record no longer holds.
func cutAtIllegal(rec *kifu.Record) *kifu.ReplayError {
	re := rec.ReplayErr
	end := kifu.Ending{Kind: kifu.EndIllegal, Word: re.Text}
	if re.Kind != kifu.LegalMove {
		end.Illegal = &kifu.IllegalMove{Move: re.Move, Text: re.Text, Kind: re.Kind}
		if p, err := rec.StartPosition(); err == nil {
			mover := p.SideToMove()
			if len(rec.Main.Moves)%2 == 1 {
				mover = mover.Opp()
			}
			end.Result = kifu.BlackWin
			if mover == kifu.Black {
				end.Result = kifu.WhiteWin
			}
		}
	}
	rec.Main.End = end
	rec.ReplayErr = nil
	return re
}

// process calls f on g, turning a panic into an error.
func process(f func(*Game) (any, error), g *Game) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("internal error in per-game processing (please report it): %v", p)
		}
	}()
	return f(g)
}

// newGame makes the Game of a replayed record.
func newGame(res *fileResult, index int, rec *kifu.Record) (*Game, error) {
	digest, moves, err := GameDigest(rec)
	if err != nil {
		return nil, err
	}
	g := &Game{Seq: res.seq, Index: index, Source: res.name, Format: res.format, Encoding: res.encoding,
		Record: rec, Digest: digest, Moves: moves, Plies: len(rec.Main.Moves), Handicap: rec.Handicap()}
	if g.Handicap == "" {
		g.Handicap = HandicapOther
	}
	if v := rec.Get(kifu.KeyStartTime); v != "" {
		if d, ok := ParseDate(v); ok {
			g.Date = d
		} else {
			res.warn(index, 0, fmt.Sprintf("%s %q is not a date this reader knows; the game has no date", kifu.KeyStartTime, v))
		}
	}
	return g, nil
}

// GameDigest returns the identity of a game and its main line in USI:
// digest is the hex SHA-256 of the USI position command of the game
// without its move number,
//
//	"sfen " + BoardSFEN(start) + " moves " + the USI moves joined by " "
//
// (for example "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f 3c3d"),
// so the same game read from KIF, KI2, CSA or an SFEN list, with any
// header, comments, times, ending or move number, has the same digest.
func GameDigest(rec *kifu.Record) (digest, moves string, err error) {
	p, err := rec.StartPosition()
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	for i, n := range rec.Main.Moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n.Move.USI())
	}
	moves = b.String()
	sum := sha256.Sum256([]byte("sfen " + p.BoardSFEN() + " moves " + moves))
	return hex.EncodeToString(sum[:]), moves, nil
}

// errLine returns the line a kifu error names, or 0.
func errLine(err error) int {
	var pe *kifu.ParseError
	var re *kifu.ReplayError
	switch {
	case errors.As(err, &re):
		return re.Line
	case errors.As(err, &pe):
		return pe.Line
	}
	return 0
}

// reasonOf returns the text of a kifu error without its "kifu: file:line: "
// prefix (Reject carries the file and line).
func reasonOf(err error, file string, line int) string {
	s := err.Error()
	pre := "kifu: " + file
	if line > 0 {
		pre += fmt.Sprintf(":%d", line)
	}
	s, _ = strings.CutPrefix(s, pre+": ")
	s = strings.TrimPrefix(s, "kifu: ")
	// Tidy what kifu's messages repeat or leave empty: a format that was
	// not reached, a nested "kifu: ", an empty found text.
	s = strings.TrimPrefix(s, kifu.FormatUnknown.String()+": ")
	s = strings.Replace(s, ": kifu: ", ": ", 1)
	return strings.TrimSuffix(s, ` (found "")`)
}

// declaredEncoding returns the encoding declared on the first line
// ("#KIF version=2.0 encoding=UTF-8", "'encoding=Shift_JIS"), lower-case
// and normalized to utf-8, shift_jis or euc-jp, or "".
func declaredEncoding(b []byte) string {
	first, _, _ := bytes.Cut(b, []byte("\n"))
	first = bytes.TrimPrefix(first, []byte("\xEF\xBB\xBF"))
	_, v, ok := bytes.Cut(bytes.ToLower(first), []byte("encoding="))
	if !ok {
		return ""
	}
	v = bytes.TrimSpace(v)
	if i := bytes.IndexAny(v, " \t\r;"); i >= 0 {
		v = v[:i]
	}
	switch string(v) {
	case "utf-8", "utf8":
		return "utf-8"
	case "shift_jis", "shift-jis", "sjis", "cp932", "windows-31j", "ms932":
		return "shift_jis"
	case "euc-jp", "eucjp", "euc_jp":
		return "euc-jp"
	}
	return ""
}

// compatible reports whether bytes read as enc agree with a declared
// encoding (ASCII agrees with every declaration).
func compatible(declared string, enc kifu.Encoding) bool {
	switch enc {
	case kifu.EncodingASCII:
		return true
	case kifu.EncodingUTF8, kifu.EncodingUTF8BOM:
		return declared == "utf-8"
	}
	return declared == enc.String()
}

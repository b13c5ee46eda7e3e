package kifutest

import (
	"fmt"
	"math/rand/v2"

	"github.com/rpshogi/rpshogi/kifu"
)

// RandomRecord plays a random legal game (kifu.Legal moves) of up to
// plies moves from the start position sfen, choosing moves with a PRNG
// seeded by seed, and returns it with headers: players "black-<seed>"
// and "white-<seed>", a date, and a resignation (or mate) at the end.
// These are ingest's random games.
func RandomRecord(seed uint64, plies int, sfen string) (*kifu.Record, error) {
	p, err := kifu.ParseSFEN(sfen)
	if err != nil {
		return nil, err
	}
	return randomFrom(p, sfen, seed, plies), nil
}

// randomFrom is RandomRecord from the position p, parsed from sfen.
func randomFrom(p *kifu.Position, sfen string, seed uint64, plies int) *kifu.Record {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	rec := &kifu.Record{StartSFEN: sfen}
	rec.Set(kifu.KeyStartTime, fmt.Sprintf("20%02d/%02d/%02d 10:00:00", 10+seed%15, 1+seed%12, 1+seed%28))
	rec.Set(kifu.KeyEvent, "random games")
	rec.Set(kifu.KeyBlack, fmt.Sprintf("black-%d", seed))
	rec.Set(kifu.KeyWhite, fmt.Sprintf("white-%d", seed))
	var buf [kifu.MaxMoves]kifu.Move
	for range plies {
		ms := p.GenerateMoves(kifu.Legal, buf[:0])
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		p.DoMove(m)
		rec.Main.Moves = append(rec.Main.Moves, kifu.Node{Move: p.LastMove()})
	}
	loser := p.SideToMove()
	rec.Main.End = kifu.Ending{Kind: kifu.EndResign, Result: kifu.BlackWin}
	if p.IsMate() {
		rec.Main.End.Kind = kifu.EndMate
	}
	if loser == kifu.Black {
		rec.Main.End.Result = kifu.WhiteWin
	}
	return rec
}

// RandomCaptureRecord plays a random legal game of up to plies moves
// from the start position, among every legal move (kifu.LegalAll, the
// pointless non-promotions too), taking the first capture one time in
// three so that recaptures happen, with a PRNG seeded by seed. It ends in
// a resignation. These are train's random games.
func RandomCaptureRecord(seed uint64, plies int) *kifu.Record {
	p := kifu.NewStartPosition()
	rng := rand.New(rand.NewPCG(seed, 0x7a1e))
	rec := &kifu.Record{StartSFEN: kifu.StartSFEN}
	rec.Set(kifu.KeyStartTime, fmt.Sprintf("20%02d/%02d/%02d 10:00:00", 10+seed%15, 1+seed%12, 1+seed%28))
	rec.Set(kifu.KeyBlack, fmt.Sprintf("black-%d", seed%7))
	rec.Set(kifu.KeyWhite, fmt.Sprintf("white-%d", seed%5))
	var buf [kifu.MaxMoves]kifu.Move
	for range plies {
		ms := p.GenerateMoves(kifu.LegalAll, buf[:0])
		if len(ms) == 0 {
			break
		}
		// Prefer captures now and then, so that recaptures happen.
		m := ms[rng.IntN(len(ms))]
		if rng.IntN(3) == 0 {
			for _, c := range ms {
				if c.IsCapture() {
					m = c
					break
				}
			}
		}
		p.DoMove(m)
		rec.Main.Moves = append(rec.Main.Moves, kifu.Node{Move: p.LastMove()})
	}
	rec.Main.End = kifu.Ending{Kind: kifu.EndResign, Result: kifu.BlackWin}
	if p.SideToMove() == kifu.Black {
		rec.Main.End.Result = kifu.WhiteWin
	}
	return rec
}

// IngestBenchGame is game i of BenchmarkIngest's random collection (a
// RandomRecord from the start position). cmd/internal/benchgames writes
// the collection to a folder, to measure the rpshogi binary on the same
// games.
func IngestBenchGame(i int) *kifu.Record {
	return randomFrom(kifu.NewStartPosition(), kifu.StartSFEN, uint64(1_000_000+i), 40+i%121)
}

// TrainBenchGame is game i of the random collections of BenchmarkTrain
// and BenchmarkPublish (a RandomCaptureRecord); cmd/internal/benchgames
// writes them to a folder.
func TrainBenchGame(i int) *kifu.Record {
	return RandomCaptureRecord(1_000_000+uint64(i), 30+i%131)
}

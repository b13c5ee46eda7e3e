package kifu

// RepetitionState classifies a repeated position (千日手).
type RepetitionState uint8

// Repetition outcomes, from the point of view of the side to move.
const (
	// NoRepetition: the position has not occurred often enough.
	NoRepetition RepetitionState = iota
	// RepetitionDraw: an ordinary repetition (千日手), a draw.
	RepetitionDraw
	// RepetitionWin: the opponent gave check with every move since the
	// first occurrence (連続王手の千日手), so the side to move wins.
	RepetitionWin
	// RepetitionLoss: the side to move gave check with every move since
	// the first occurrence, so it loses.
	RepetitionLoss
)

func (r RepetitionState) String() string {
	switch r {
	case RepetitionDraw:
		return "repetition draw"
	case RepetitionWin:
		return "perpetual check by the opponent"
	case RepetitionLoss:
		return "perpetual check by the side to move"
	}
	return "no repetition"
}

// Repetition reports whether the current position (board, hands and side
// to move) has now occurred n times in the history since set-up, and if
// so how the repetition is judged: fourfold repetition is a draw unless
// one side gave check with every one of its moves between the first and
// the n-th occurrence, in which case that side loses. n = 4 is the rule
// of the game (Sennichite); engines use smaller n to detect cycles early.
// The scan stops at a null move.
func (p *Position) Repetition(n int) RepetitionState {
	cur := len(p.states) - 1
	st := &p.states[cur]
	key := st.boardKey + st.handKey
	seen := 1
	for i := cur - 2; i >= 0; i -= 2 {
		if p.states[i+1].move == MoveNull || p.states[i+2].move == MoveNull {
			break
		}
		s := &p.states[i]
		if s.boardKey+s.handKey != key {
			continue
		}
		seen++
		if seen < n {
			continue
		}
		span := int16(cur - i)
		switch {
		case st.contCheck[p.side.Opp()] >= span:
			return RepetitionWin
		case st.contCheck[p.side] >= span:
			return RepetitionLoss
		}
		return RepetitionDraw
	}
	return NoRepetition
}

// Sennichite reports how the game stands by the repetition rule: the
// current position occurring for the fourth time ends the game.
func (p *Position) Sennichite() RepetitionState { return p.Repetition(4) }

// repetitionEnding returns how a game ends by the repetition st, with stm
// to move: fourfold repetition is a draw (千日手); perpetual check (連続王手
// の千日手) is a foul, a loss for the side that gave check.
func repetitionEnding(st RepetitionState, stm Color) Ending {
	switch st {
	case RepetitionWin:
		return Ending{Kind: EndIllegal, Result: winFor(stm)}
	case RepetitionLoss:
		return Ending{Kind: EndIllegal, Result: winFor(stm.Opp())}
	}
	return Ending{Kind: EndRepetition, Result: Draw}
}

// resultWinner names the winner of r: "Black (先手)" or "White (後手)".
func resultWinner(r Result) string {
	if r == WhiteWin {
		return "White (後手)"
	}
	return "Black (先手)"
}

package eval

import (
	"github.com/rpshogi/rpshogi/engine/evalfeat"
	"github.com/rpshogi/rpshogi/kifu"
	"github.com/rpshogi/rpshogi/tables"
)

// learnedBound bounds the learned evaluation (static evaluations stay
// below safetyBound).
const learnedBound = safetyBound / 2

// EvaluateLearned returns the learned evaluation of p from the side to
// move's point of view: the sum of the compiled weights
// (tables.EvalWeights, fitted by train/evalfit on the results of real
// games) of p's engine/evalfeat features, in centipawns.
func EvaluateLearned(p *kifu.Position) Value { return EvaluateWeights(p, tables.EvalWeights()) }

// EvaluateWeights is EvaluateLearned with the weights w (by evalfeat
// feature ID, in 1/evalfeat.Unit centipawns): evalfeat.Sum, the sum over
// evalfeat.Append's features without listing them. It allocates nothing.
func EvaluateWeights(p *kifu.Position, w []int32) Value {
	s := evalfeat.Sum(p, w)
	v := Value(s / evalfeat.Unit) // truncation keeps the evaluation symmetric
	if p.SideToMove() == kifu.White {
		v = -v
	}
	return max(min(v, learnedBound), -learnedBound)
}

// HandPrior returns the hand-set evaluation (Evaluate) as weights of the
// learned evaluation's features, in centipawns by evalfeat feature ID:
// material, pieces in hand, golds, silvers and horses near their king,
// promoted pieces near the enemy king, pawn advance, slider mobility,
// king safety and the tempo are the same terms; only the entering king's
// bonus has no feature. train/evalfit starts from it and keeps the
// learned weights near it (its L2 penalty is on the difference).
func HandPrior() []float64 {
	w := make([]float64, evalfeat.NumFeatures())
	w[evalfeat.TempoID()] = tempo
	for pt := kifu.Pawn; pt < kifu.PieceTypeNB; pt++ {
		if pt == kifu.King {
			continue
		}
		w[evalfeat.MaterialID(pt)] = float64(boardValue[pt])
		if pt <= kifu.Gold {
			for i := 0; evalfeat.HandID(pt, i) >= 0; i++ {
				w[evalfeat.HandID(pt, i)] = float64(handValue[pt])
			}
		}
		for df := range 9 {
			for dr := -8; dr <= 8; dr++ {
				own, enemy := evalfeat.KPIDs(pt, df, dr)
				near := func(v1, v2 Value) float64 {
					switch max(df, abs(dr)) {
					case 1:
						return float64(v1)
					case 2:
						return float64(v2)
					}
					return 0
				}
				switch pt {
				case kifu.Gold:
					w[own] = near(guardNear, guardFar)
					w[enemy] = near(attackerNear/2, attackerFar/2)
				case kifu.Silver:
					w[own] = near(guardNear, guardFar)
				case kifu.ProPawn, kifu.ProLance, kifu.ProKnight, kifu.ProSilver, kifu.Dragon:
					w[enemy] = near(attackerNear, attackerFar)
				case kifu.Horse:
					w[own] = near(guardNear, guardFar)
					w[enemy] = near(attackerNear, attackerFar)
				}
			}
		}
		for a := 0; evalfeat.MobilityID(pt, a) >= 0 && a <= 20; a++ {
			if pt != kifu.Lance {
				w[evalfeat.MobilityID(pt, a)] = float64(a * sliderMobility)
			}
		}
	}
	for r := 1; r <= 9; r++ {
		if adv := 7 - r; adv > 0 {
			w[evalfeat.RankID(kifu.Pawn, r)] = float64(adv * pawnAdvance)
		}
	}
	for e := range 16 {
		w[evalfeat.ExcessAttackID(e)] = -float64(e * kingZoneAttack)
	}
	for n := 1; n <= 12; n++ {
		for e := range 9 {
			w[evalfeat.HandDropID(n, e)] = -float64(n * e * kingZoneHand / 2)
		}
	}
	w[evalfeat.OpenFrontID()] = -kingOpenFront
	return w
}

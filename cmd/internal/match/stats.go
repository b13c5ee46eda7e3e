package match

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Score is a tally of game results from one engine's point of view.
type Score struct {
	Wins, Draws, Losses int
}

// Games returns the number of games.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Ratio returns the mean score per game (win 1, draw 1/2, loss 0), or
// NaN with no game.
func (s Score) Ratio() float64 {
	n := s.Games()
	if n == 0 {
		return math.NaN()
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(n)
}

// z975 is the 97.5% quantile of the standard normal distribution: a 95%
// two-sided interval is mean ± z975·stderr.
const z975 = 1.959963984540054

// EloEstimate is the logistic Elo difference implied by a score, with a
// 95% confidence interval: the interval of the mean score per game (normal
// approximation of the trinomial, as cutechess-cli and fishtest compute
// it) mapped through the Elo function. A bound that approximation puts at
// or beyond a score of 0 or 1 (always so for a score of 0% or 100%, whose
// variance is 0, which would give an interval of one infinite point) is
// the Wilson score bound instead, which stays inside; only the bound on
// the side of a 0% or 100% score is then infinite. Elo is ±Inf for a
// score of 0 or 1; all are NaN with no game.
type EloEstimate struct {
	Elo, Low, High float64
	// LOS is the likelihood of superiority, P(elo > 0), from wins and
	// losses only (draws say nothing of who is stronger).
	LOS float64
}

// EloFromScore returns the logistic Elo difference of a mean score s:
// -400·log10(1/s - 1).
func EloFromScore(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return math.NaN()
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the mean score expected at a logistic Elo difference:
// 1/(1+10^(-elo/400)).
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Elo estimates the Elo difference of s.
func (s Score) Elo() EloEstimate {
	n := float64(s.Games())
	if n == 0 {
		return EloEstimate{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	mu := s.Ratio()
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	variance := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	half := z975 * math.Sqrt(variance/n)
	lo, hi := mu-half, mu+half
	if !(lo > 0 && lo < 1) || !(hi > 0 && hi < 1) {
		wlo, whi := wilson(mu, n)
		if !(lo > 0 && lo < 1) {
			lo = wlo
		}
		if !(hi > 0 && hi < 1) {
			hi = whi
		}
	}
	e := EloEstimate{
		Elo:  EloFromScore(mu),
		Low:  EloFromScore(lo),
		High: EloFromScore(hi),
		LOS:  math.NaN(),
	}
	if s.Wins+s.Losses > 0 {
		e.LOS = 0.5 * (1 + math.Erf(float64(s.Wins-s.Losses)/math.Sqrt(2*float64(s.Wins+s.Losses))))
	}
	return e
}

// wilson returns the 95% Wilson score interval of a mean score mu over n
// games: inside (0, 1) but for its bound at a score of exactly 0 or 1.
func wilson(mu, n float64) (lo, hi float64) {
	z2 := z975 * z975
	center := (mu + z2/(2*n)) / (1 + z2/n)
	half := z975 / (1 + z2/n) * math.Sqrt(mu*(1-mu)/n+z2/(4*n*n))
	lo, hi = center-half, center+half
	if mu <= 0 {
		lo = 0
	}
	if mu >= 1 {
		hi = 1
	}
	return lo, hi
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1 (logistic Elo) with error rates Alpha (accepting H1 when
// H0 holds) and Beta (accepting H0 when H1 holds).
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
}

// ParseSPRT reads "elo0=0,elo1=50,alpha=0.05,beta=0.05"; alpha and beta
// default to 0.05.
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return t, fmt.Errorf("match: SPRT part %q is not key=value", part)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return t, fmt.Errorf("match: SPRT %s=%q is not a number", k, v)
		}
		seen[k] = true
		switch k {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("match: unknown SPRT key %q (want elo0, elo1, alpha, beta)", k)
		}
	}
	if !seen["elo0"] || !seen["elo1"] {
		return t, errors.New("match: SPRT needs elo0 and elo1")
	}
	return t, t.validate()
}

func (t SPRT) validate() error {
	switch {
	case !(t.Elo1 > t.Elo0):
		return fmt.Errorf("match: SPRT elo1 (%g) must be greater than elo0 (%g)", t.Elo1, t.Elo0)
	case t.Elo0 <= -1000 || t.Elo1 >= 1000:
		return errors.New("match: SPRT bounds must lie within ±1000 Elo")
	case !(t.Alpha > 0 && t.Alpha < 0.5 && t.Beta > 0 && t.Beta < 0.5):
		return errors.New("match: SPRT alpha and beta must lie in (0, 0.5)")
	}
	return nil
}

// String returns the test in the syntax ParseSPRT reads.
func (t SPRT) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g", t.Elo0, t.Elo1, t.Alpha, t.Beta)
}

// Bounds returns the log-likelihood-ratio bounds of the test: H0 is
// accepted at or below lower, H1 at or above upper (Wald).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the generalized log-likelihood ratio of the trinomial
// results s for H1 against H0, as fishtest computes it (LLR_logistic of
// its LLRcalc): each hypothesis is the maximum-likelihood distribution
// of (loss, draw, win) whose mean score is that of its Elo, and an empty
// outcome is counted as 0.001 games so that the ratio stays finite.
func (t SPRT) LLR(s Score) float64 {
	if s.Games() == 0 {
		return 0
	}
	counts := [3]float64{float64(s.Losses), float64(s.Draws), float64(s.Wins)}
	n := 0.0
	for i, c := range counts {
		if c == 0 {
			counts[i] = 1e-3
		}
		n += counts[i]
	}
	values := [3]float64{0, 0.5, 1}
	var p [3]float64
	for i := range counts {
		p[i] = counts[i] / n
	}
	p0 := mleWithMean(values, p, ScoreFromElo(t.Elo0))
	p1 := mleWithMean(values, p, ScoreFromElo(t.Elo1))
	llr := 0.0
	for i := range p {
		llr += p[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr
}

// mleWithMean returns the distribution on values closest to p in the
// likelihood sense whose mean is s: q_i = p_i / (1 + x(a_i - s)), with x
// the root of the secular equation Σ p_i(a_i - s)/(1 + x(a_i - s)) = 0 in
// the interval where every q_i is positive (the function decreases there).
func mleWithMean(values, p [3]float64, s float64) [3]float64 {
	var a [3]float64
	lo, hi := math.Inf(-1), math.Inf(1)
	for i := range values {
		a[i] = values[i] - s
		switch {
		case a[i] > 0:
			lo = math.Max(lo, -1/a[i])
		case a[i] < 0:
			hi = math.Min(hi, -1/a[i])
		}
	}
	f := func(x float64) float64 {
		v := 0.0
		for i := range a {
			v += p[i] * a[i] / (1 + x*a[i])
		}
		return v
	}
	// Bisection: f(lo+) = +Inf, f(hi-) = -Inf, and f decreases.
	x := 0.0
	if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		l, h := lo, hi
		for range 200 {
			x = (l + h) / 2
			if x == l || x == h {
				break
			}
			if f(x) > 0 {
				l = x
			} else {
				h = x
			}
		}
	}
	var q [3]float64
	for i := range p {
		q[i] = p[i] / (1 + x*a[i])
	}
	return q
}

// SPRTState is the state of a test after some games.
type SPRTState struct {
	SPRT
	LLR, Lower, Upper float64
	// Decision is "H1" (elo1 accepted: the first engine is stronger by
	// about elo1), "H0" (elo0 accepted) or "" (go on).
	Decision string
}

// State evaluates the test on s.
func (t SPRT) State(s Score) SPRTState {
	st := SPRTState{SPRT: t, LLR: t.LLR(s)}
	st.Lower, st.Upper = t.Bounds()
	switch {
	case st.LLR >= st.Upper:
		st.Decision = "H1"
	case st.LLR <= st.Lower:
		st.Decision = "H0"
	}
	return st
}

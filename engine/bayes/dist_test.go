package bayes

import (
	"math"
	"math/rand/v2"
	"testing"
)

func dist(pins ...Pin) Dist {
	var d Dist
	d.N = copy(d.Pins[:], pins)
	return d
}

func sum(d Dist) float64 {
	s := 0.0
	for _, p := range d.Pins[:d.N] {
		s += p.P
	}
	return s
}

func TestMaxOfPoints(t *testing.T) {
	tests := []struct {
		vs   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{-5, 2, 1}, 2},
		{[]float64{-40, -40, -100}, -40},
	}
	for _, tt := range tests {
		var ds []Dist
		for _, v := range tt.vs {
			ds = append(ds, Point(v))
		}
		d := MaxOf(ds)
		if !d.IsPoint() || d.Pins[0].V != tt.want || d.Pins[0].P != 1 {
			t.Errorf("MaxOf points %v = %+v, want the point %v", tt.vs, d.Pins[:d.N], tt.want)
		}
	}
}

// TestMaxOfMonteCarlo compares MaxOf of random independent discrete
// distributions (few pins: no compression) with the frequencies of the
// maximum of samples drawn from them.
func TestMaxOfMonteCarlo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		var ds []Dist
		for range 2 + r.IntN(2) {
			var pins []Pin
			v := float64(r.IntN(40) - 20)
			for range 1 + r.IntN(3) {
				pins = append(pins, Pin{v, r.Float64() + 0.05})
				v += float64(1 + r.IntN(10))
			}
			d := dist(pins...)
			normalize(d.Pins[:d.N])
			ds = append(ds, d)
		}
		got := MaxOf(ds)
		if math.Abs(sum(got)-1) > 1e-9 {
			t.Fatalf("trial %d: probabilities sum to %v", trial, sum(got))
		}
		const n = 400000
		freq := map[float64]float64{}
		for range n {
			m := math.Inf(-1)
			for _, d := range ds {
				u, c := r.Float64(), 0.0
				x := d.Pins[d.N-1].V
				for _, p := range d.Pins[:d.N] {
					if c += p.P; u < c {
						x = p.V
						break
					}
				}
				m = math.Max(m, x)
			}
			freq[m]++
		}
		if got.N > MaxPins-1 {
			t.Fatalf("trial %d: %d pins (compressed: not comparable)", trial, got.N)
		}
		for _, p := range got.Pins[:got.N] {
			if f := freq[p.V] / n; math.Abs(f-p.P) > 3e-3 {
				t.Errorf("trial %d: P(max = %v) = %.4f, sampled %.4f", trial, p.V, p.P, f)
			}
			delete(freq, p.V)
		}
		for v, c := range freq {
			if c/n > 1e-3 {
				t.Errorf("trial %d: the samples hit %v (%.4f), MaxOf has no pin there", trial, v, c/n)
			}
		}
	}
}

func TestCompressKeepsMean(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		var vs []float64
		for range 16 {
			vs = append(vs, math.Round(r.NormFloat64()*200))
		}
		d := Samples(vs)
		for _, k := range []int{1, 2, 3, 8} {
			c := d.Compress(k)
			if c.N > k || math.Abs(c.Mean()-d.Mean()) > 1e-9 || math.Abs(sum(c)-1) > 1e-9 {
				t.Fatalf("Compress(%d) of %v: %d pins, mean %v want %v", k, vs, c.N, c.Mean(), d.Mean())
			}
			for i := 1; i < c.N; i++ {
				if c.Pins[i].V <= c.Pins[i-1].V {
					t.Fatalf("Compress(%d): pins not ascending: %+v", k, c.Pins[:c.N])
				}
			}
		}
	}
}

func TestPseudoSamplesNeg(t *testing.T) {
	p := Pseudo(100, 30, 0.1)
	if p.N != 3 || p.Pins[0] != (Pin{70, 0.1}) || p.Pins[2] != (Pin{130, 0.1}) || math.Abs(p.Mean()-100) > 1e-9 {
		t.Errorf("Pseudo: %+v", p.Pins[:p.N])
	}
	if q := Pseudo(100, 0, 0.1); !q.IsPoint() {
		t.Errorf("Pseudo with δ 0: %+v", q.Pins[:q.N])
	}
	s := Samples([]float64{5, -3, 5, 1})
	if s.N != 3 || s.Pins[0] != (Pin{-3, 0.25}) || s.Pins[2] != (Pin{5, 0.5}) {
		t.Errorf("Samples: %+v", s.Pins[:s.N])
	}
	n := s.Neg()
	if n.Pins[0] != (Pin{-5, 0.5}) || n.Pins[2] != (Pin{3, 0.25}) || n.Mean() != -s.Mean() {
		t.Errorf("Neg: %+v", n.Pins[:n.N])
	}
	if c := s.CDF(1); c != 0.5 {
		t.Errorf("CDF(1) = %v", c)
	}
}

func BenchmarkMaxOf(b *testing.B) {
	var ds [8]Dist
	for i := range ds {
		ds[i] = Samples([]float64{float64(i), float64(3 * i), float64(-i), 7})
	}
	b.ReportAllocs()
	for b.Loop() {
		MaxOf(ds[:])
	}
}

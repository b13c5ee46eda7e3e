package main

import (
	"context"
	"strings"
	"testing"

	fm "github.com/rpshogi/rpshogi/categorize/movemodel"
	"github.com/rpshogi/rpshogi/train/movemodel"
)

func TestModelFitFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		err     string
		weights []movemodel.SourceWeight
		without []fm.Group
		l2      float64
		iters   int
	}{
		{"defaults", []string{"--db", "x"}, "", nil, nil, 1e-5, 100},
		{"weights", []string{"--db", "x", "--weight", "selfplay=0.25", "--weight", "pro=2", "--without", "king,cra", "--l2", "1e-4", "--iterations", "7"}, "",
			[]movemodel.SourceWeight{{Contains: "selfplay", Weight: 0.25}, {Contains: "pro", Weight: 2}}, []fm.Group{fm.GroupKing, fm.GroupCRA}, 1e-4, 7},
		{"no db", nil, "--db FILE is required", nil, nil, 0, 0},
		{"args", []string{"a", "--db", "x"}, "no arguments", nil, nil, 0, 0},
		{"bad weight", []string{"--db", "x", "--weight", "selfplay"}, "SUBSTRING=W", nil, nil, 0, 0},
		{"negative weight", []string{"--db", "x", "--weight", "a=-1"}, "SUBSTRING=W", nil, nil, 0, 0},
		{"bad group", []string{"--db", "x", "--without", "nope"}, "no such group", nil, nil, 0, 0},
		{"negative l2", []string{"--db", "x", "--l2", "-1"}, "must not be negative", nil, nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *modelFitOptions
			err := parseWith(t, newModelFitCmd(&iostreams{}, func(_ context.Context, o *modelFitOptions) error { got = o; return nil }), tc.args)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Fit.L2 != tc.l2 || got.Fit.Iterations != tc.iters || got.DB != "x" {
				t.Errorf("fit options %+v", got.Fit)
			}
			if len(got.Data.Weights) != len(tc.weights) || len(got.Data.Without) != len(tc.without) {
				t.Fatalf("data options %+v", got.Data)
			}
			for i := range tc.weights {
				if got.Data.Weights[i] != tc.weights[i] {
					t.Errorf("weight %d: %+v, want %+v", i, got.Data.Weights[i], tc.weights[i])
				}
			}
			for i := range tc.without {
				if got.Data.Without[i] != tc.without[i] {
					t.Errorf("without %d: %v, want %v", i, got.Data.Without[i], tc.without[i])
				}
			}
		})
	}
}

package craexp

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rpshogi/rpshogi/kifu"
)

func TestSearch(t *testing.T) {
	rec := record(t, "startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 8c8d")
	var seen []int
	opts := SearchOptions{Depths: []int{1, 2}, Orders: []FixedOrder{FixedSimple, FixedOrdered, FixedCRA}, From: 3, To: 5,
		OnPosition: func(rep *SearchReport, p *SearchPosition) error {
			if rep.Positions != len(seen)+1 || len(rep.Summary) != 2 {
				t.Errorf("report at move %d: %d positions, %d summaries", p.MoveNumber, rep.Positions, len(rep.Summary))
			}
			seen = append(seen, p.MoveNumber)
			return nil
		}}
	rep, err := Search(context.Background(), rec, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Positions != 3 || len(seen) != 3 || seen[0] != 3 || seen[2] != 5 || rep.Algorithms[2] != "cra" {
		t.Fatalf("positions %d, OnPosition at %v, algorithms %v", rep.Positions, seen, rep.Algorithms)
	}
	for _, p := range rep.Results {
		if len(p.Runs) != 6 || p.Legal == 0 {
			t.Fatalf("move %d: %d runs, %d legal", p.MoveNumber, len(p.Runs), p.Legal)
		}
		for _, d := range rep.Depths {
			s, o := p.run(d, "simple"), p.run(d, "ordered")
			if !s.Complete || !o.Complete || s.Score != o.Score {
				t.Errorf("move %d depth %d: simple %+v, ordered %+v", p.MoveNumber, d, s, o)
			}
		}
	}
	for _, s := range rep.Summary {
		if len(s.Algs) != 3 || len(s.Pairs) != 3 || s.Pairs[0].A != "ordered" || s.Pairs[0].B != "simple" {
			t.Errorf("summary %+v", s)
		}
		var nodes uint64
		for _, p := range rep.Results {
			nodes += p.run(s.Depth, "simple").Nodes
		}
		if s.Algs[0].Nodes != nodes || s.Pairs[0].SameMoveIn > 3 {
			t.Errorf("depth %d: simple %d nodes, the runs %d", s.Depth, s.Algs[0].Nodes, nodes)
		}
	}

	stop := errors.New("stop")
	opts.OnPosition = func(*SearchReport, *SearchPosition) error { return stop }
	if _, err := Search(context.Background(), rec, opts); !errors.Is(err, stop) {
		t.Errorf("OnPosition's error: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opts.OnPosition = nil
	if _, err := Search(ctx, rec, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	// The plots (gonum/plot): valid SVG, a legend entry per algorithm;
	// the nodes plot depends on the nodes only.
	for _, kind := range []string{"time", "nodes"} {
		b := Plot(rep, 2, kind)
		d := xml.NewDecoder(bytes.NewReader(b))
		var texts []string
		inText := false
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s plot: not XML: %v", kind, err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				inText = tok.Name.Local == "text"
			case xml.CharData:
				if inText {
					texts = append(texts, string(tok))
				}
			case xml.EndElement:
				inText = false
			}
		}
		for _, a := range rep.Algorithms {
			if !slices.Contains(texts, a+" alpha-beta") {
				t.Errorf("%s plot: no legend entry for %s (texts %q)", kind, a, texts)
			}
		}
	}
	again, _ := Search(context.Background(), rec, opts)
	if !bytes.Equal(Plot(rep, 2, "nodes"), Plot(again, 2, "nodes")) {
		t.Error("the nodes plot differs between two runs")
	}
}

func record(t *testing.T, usi string) *kifu.Record {
	t.Helper()
	recs, err := kifu.ParseSFENMoves(strings.NewReader(usi + "\n"))
	if err != nil || len(recs) != 1 || recs[0].ReplayErr != nil {
		t.Fatalf("%q: %v", usi, err)
	}
	return recs[0]
}

package match

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteTournament writes each match of a tournament (its summary, or its
// JSON object) and then the standings. players are all the engines; cfg
// is the configuration every match shares (its Engines are set per pair
// here); openingPly is as for WriteJSON.
func WriteTournament(w io.Writer, cfg Config, players []EngineSpec, pairing Pairing, tour *Tournament, openingPly int, asJSON bool) error {
	type standingJSON struct {
		Name    string    `json:"name"`
		W       [3]int    `json:"wins_draws_losses"`
		Score   jsonFloat `json:"score"`
		Elo     jsonFloat `json:"elo"`
		EloLow  jsonFloat `json:"elo_low"`
		EloHigh jsonFloat `json:"elo_high"`
	}
	var js struct {
		Pairing   string         `json:"pairing"`
		Matches   []matchJSON    `json:"matches"`
		Standings []standingJSON `json:"standings"`
	}
	js.Pairing = string(pairing)
	for _, rep := range tour.Reports {
		c := cfg
		c.Engines = [2]EngineSpec{}
		for _, p := range players {
			for i, n := range rep.Summary.Engines {
				if p.Name == n {
					c.Engines[i] = p
				}
			}
		}
		if cfg.RecordsDir != "" {
			c.RecordsDir = PairDir(cfg.RecordsDir, c.Engines[0].Name, c.Engines[1].Name)
		}
		if asJSON {
			js.Matches = append(js.Matches, toJSON(&c, rep, openingPly))
			continue
		}
		if err := WriteSummary(w, &c, rep); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if !asJSON {
		fmt.Fprintf(w, "Standings (%s):\n", pairing)
	}
	for i, s := range tour.Standings {
		if asJSON {
			js.Standings = append(js.Standings, standingJSON{Name: s.Name, W: [3]int{s.Score.Wins, s.Score.Draws, s.Score.Losses},
				Score: jsonFloat(s.Score.Ratio()), Elo: jsonFloat(s.Elo.Elo), EloLow: jsonFloat(s.Elo.Low), EloHigh: jsonFloat(s.Elo.High)})
			continue
		}
		if _, err := fmt.Fprintf(w, "%2d. %-16s %d - %d - %d [%.3f] Elo %s [%s, %s]\n", i+1, s.Name, s.Score.Wins, s.Score.Losses, s.Score.Draws,
			s.Score.Ratio(), signed(s.Elo.Elo), signed(s.Elo.Low), signed(s.Elo.High)); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(js)
	}
	return nil
}

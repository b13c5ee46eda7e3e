// Package ingest turns game collections into a stream of distinct,
// replayed games, accounting for every input file: files, folders, glob
// patterns, zip/tar/tar.gz archives and standard input go in; each record
// comes out accepted, a duplicate, filtered or rejected (with file, line
// and reason), in an order that does not depend on the number of
// workers.
//
//	rep, err := ingest.Run(ctx, ingest.Options{Filter: ingest.Filter{MinPlies: 20}},
//		[]string{"kifu/", "more.zip"}, sink)
//	if err == nil {
//		err = rep.Check() // accepted + duplicates + filtered + rejected = records
//	}
//
// # Pipeline
//
// A Walker expands the paths in a stable order (folders and archive
// members in lexical path order, so a folder and a zip of it read alike).
// Workers decode each file (kifu.DecodeText), choose its format by
// extension or content (kifu.DetectFormat), parse and replay it
// (kifu.ParseText) and digest its games (GameDigest). One collector
// merges the results by input Seq then record Index, applies the Filter,
// drops duplicates (the first game of a digest in walk order is kept) and
// calls the Sink. Stages are errgroup goroutines joined by bounded
// channels; cancelling the context stops them all.
//
// A record is rejected when its main line stops at an illegal or
// unresolvable move (never shortened silently; Options.Partial keeps the
// legal moves, with an illegal ending, counted as accepted-partial), when
// it has no move, and a file is one rejected record when it is empty or
// cannot be read, decoded or parsed; records of a file before a syntax
// error are used.
//
// # Skips and limits
//
// In folders, glob matches and archives, files that are not records,
// symbolic links inside a folder (not followed) and named pipes or
// devices (never opened) are skipped: they are not records, and the
// Report counts them by reason (Report.SkippedBy) and says what was
// looked for. A folder or pattern that gives no file to read stops the
// run before anything is read (Walker.Check), as a pattern that matches
// nothing does; a run that reads no file at all fails too. Names are
// quoted in the text report when they hold control characters.
//
// Limits bound what one input may cost: file size, line length, archive
// nesting and the bytes decompressed from one top-level archive. An input
// past a bound is one Reject of kind RejectLimit naming the bound and the
// member's path in the archive chain ("a.zip!b.tgz!c.kif"). Nested
// archives are spilled to temporary files, never held in memory, so
// memory stays within a few files of MaxFileBytes per worker.
//
// # Sinks and the database
//
// Run keeps no game: it passes each to a Sink (Game, Duplicate, Reject)
// from the collector goroutine, in order. Store is the Sink that writes
// the SQLite tables (Schema: meta, games, duplicates, rejects) through a
// *sql.Tx. A downstream stage that counts positions (train) runs in the
// same pass and the same transaction:
//
//	err := ingest.WithDB(ctx, "rp.sqlite", func(tx *sql.Tx) error {
//		store, err := ingest.NewStore(ctx, tx) // creates the ingest tables
//		if err != nil {
//			return err
//		}
//		defer store.Close()
//		counter := newCounter(ctx, tx) // its own tables, same tx
//		rep, err = ingest.Run(ctx, opts, paths, ingest.Tee(store, counter))
//		if err != nil {
//			return err
//		}
//		return counter.flush()
//	})
//
// The Sink runs in the collector goroutine, one game at a time. Per-game
// work that is expensive (classifying every legal move of every position)
// goes in Options.Process instead: each worker runs it on the games it
// has replayed, and its result reaches the Sink as Game.Processed, in
// walk order like everything else.
//
// Store sets Game.ID (the games row id) and Game.Known (stored by an
// earlier run, so a counter must not count it again) before the next
// sink of the Tee sees the game. The whole run is one transaction: if it
// fails or is cancelled, nothing of it is visible; re-ingesting the same
// inputs adds nothing (games by digest, duplicates and rejects by their
// unique keys) and the report counts the games as already stored.
package ingest

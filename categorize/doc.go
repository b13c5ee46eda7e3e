// Package categorize puts every legal move of a position into categories,
// as in Tsuruoka, Yokoyama and Chikayama, "Game-tree search algorithm
// based on realization probability" (ICGA Journal 2002), Table 1: the
// probability that a move is played is learned per category, and a move
// gets the largest probability of its categories.
//
// Every legal move gets every category that applies (a Set) and always
// exactly one plain move/<piece> or drop/<piece> category. Grades come
// from the static exchange evaluation (SEE) of the move on its
// destination square, considering recaptures only, in the piece values
// documented in values.go. The list of categories, with stable IDs and
// names such as "recapture/gain+3" or "attack/king/by-knight", is in
// categories.go and is printed by "rpshogi categories".
//
// categorize knows nothing of files; it imports only kifu.
package categorize

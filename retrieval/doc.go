// Package retrieval puts searched passages and remembered turns in front of
// the model as context units that are recorded, ablatable and honest about
// what their corpus covers.
//
// A [Corpus] is a named set of passages, embedded by an [Embedder] and kept
// in an [Index] (in memory here, in SQLite in retrieval/sqlitevec, in
// PostgreSQL in retrieval/pgvec; all three score by exact cosine). [Units]
// turns a corpus into one inject unit per passage: each iteration the agent
// evaluates them, the corpus is queried once (by default with the person's
// message), and the passages picked within the top K, the score threshold and
// the character budget fire. The unit of the first passage carries the whole
// record of the query (every candidate with its score, rank, and why it was
// picked or dropped) in the contextUnits state key, so explain's backtrack and
// ablation treat a passage like any other unit.
//
// A [Memory] is a corpus of earlier turns: [Memory.Remember] writes a finished
// turn with the run and turn it came from, and a later conversation recalls it
// through the same units. A turn is never written back into a memory it was
// answered from.
package retrieval

// Package limits prints what an answer's tools declared they covered, where the model cannot drop
// it: the limits block appended to a prose answer under WithLimitsBlock, and
// answerCoverage, the same fold as data beside a typed (JSON) answer.
//
// Both fold the run's coverageDeclared rows, merged over every declaring call; when those layers
// are armed, the block adds the time layer's period lines and the inputs layer's assumed values,
// and answerCoverage carries the assumed values too. The block has
// five sections in a fixed order, Checked, Not checked, Cannot cover, Period and In progress; each
// prints at most 12 lines and then one line saying how many more the run record holds. Neither
// changes the answer's standing: the lists are labels, not verdicts.
//
// This package holds what a reader of an answer needs: AnswerCoverage and its entries (the
// data form, from agent.Result.AnswerCoverage), and the block's fixed words (Heading, the
// Separator before it) to find the block in a prose answer. What the block lists is on the
// record too (the coverageDeclared rows), so a program reads it there rather than parsing the
// block's lines. Rendering and attaching the block, section labels included, are the
// framework's own, in internal/honesty/limits.
package limits

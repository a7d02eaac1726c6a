// Package limits (internal/honesty/limits) prints what an answer's tools declared they covered, where the model cannot drop
// it: the limits block appended to a prose answer under WithLimitsBlock, and
// answerCoverage, the same fold as data beside a typed (JSON) answer.
//
// Both read only the run's coverageDeclared rows, merged over every declaring call. The block has
// five sections in a fixed order, Checked, Not checked, Cannot cover, Period and In progress; each
// prints at most 12 lines and then one line saying how many more the run record holds. Neither
// changes the answer's standing: the lists are labels, not verdicts.
//
// This package renders and attaches the block and folds answerCoverage; the data types and the
// block's fixed words are the public package honesty/limits, imported here under its own name;
// importers that also use the public package name this one limitsblock.
package limits

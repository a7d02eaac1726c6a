// Package lens renders a run record as one self-contained web page a person
// opens to see what the agent did and to walk its answer back to the context
// that produced it.
//
// The page is built from the record alone (an *record.Record, live or decoded
// from a store or a file) with html/template; its CSS and script are inline,
// and a Content-Security-Policy forbids every fetch, so the file opened from
// disk makes no request to anything. It has five panes:
//
//   - the answer: the standing as a badge (a shape and a word, never colour
//     alone), the reasons in plain words, the limits block, or for a run that
//     paused or failed, what it waits on or the error;
//   - the story: one step per model call, with what the model said, each tool
//     call with its arguments, the result it was served (long ones folded),
//     the served period verdict, pauses, and the route decision with the rule
//     that chose it;
//   - what the answer rests on: the findings ledger and the coverage rows the
//     tools declared;
//   - the backtrack: the suspects of explain.Backtrack ranked by explain.Rank,
//     each with its custody chain (born, allowed, landed, read, answer), a
//     rewind of the exact request bytes with the suspect's span highlighted,
//     and ablation verdicts when a report is given (WithAblation);
//   - context units: every fact, steering text, instruction and skill, with
//     why it fired in each iteration.
//
// Everything but search and collapse works with scripting off (folding uses
// <details>; stage ids are a CSS-only toggle). Long runs stay small: steps are
// folded but the last, and the rewind prints in full only the spans of the
// top suspects, eliding other long spans with a link to where the same text
// is shown on the page.
//
// Render writes one page; NewHandler serves the stored runs of a store.Store as a
// list (newest first) and one page per run, read-only, for mounting at /lens/.
package lens

// Ablation results on the page: a report of explain.Probe (format
// agentfootprint-go.ablation/1), given with WithAblation or read from the
// JSON `agentfootprint ablate --json` prints.

package lens

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/explain"
)

// MaxAblationBytes caps the ablation report DecodeAblation reads.
const MaxAblationBytes = 8 << 20

// DecodeAblation reads an ablation report as `agentfootprint ablate --json`
// writes it. It refuses more than MaxAblationBytes, JSON that is not an
// object, and another format, naming the field.
func DecodeAblation(data []byte) (*explain.Report, error) {
	if len(data) > MaxAblationBytes {
		return nil, fmt.Errorf("lens: ablation report: %d bytes is more than the %d accepted", len(data), MaxAblationBytes)
	}
	var rep explain.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("lens: ablation report: %w", err)
	}
	if rep.Format != explain.AblationFormat {
		return nil, fmt.Errorf("lens: ablation report: format %q is not %q", rep.Format, explain.AblationFormat)
	}
	return &rep, nil
}

// ablationView is the pane's summary of a report.
type ablationView struct {
	Baseline string
	World    string
	Suspects []ablationSuspect
	Flags    []string
	Runs     int
}

// ablationSuspect is one probed spec's verdict.
type ablationSuspect struct {
	Spec, Verdict, Counts, Claim string
	Badge                        badge
}

// ablation is a report indexed by spec.
type ablation struct {
	view   ablationView
	bySpec map[string]*ablationSuspect
}

// ablationOf indexes rep; nil gives nil.
func ablationOf(rep *explain.Report) *ablation {
	if rep == nil {
		return nil
	}
	a := &ablation{bySpec: map[string]*ablationSuspect{}}
	b := rep.Baseline
	a.view = ablationView{
		Baseline: fmt.Sprintf("%d of %d baseline reruns flipped, %d distinct answers", b.Flips, b.Samples, b.DistinctSamples),
		World:    fmt.Sprintf("tools %s, model %s", rep.World.Tools, rep.World.Model),
		Flags:    rep.Flags, Runs: rep.Runs,
	}
	for _, s := range rep.Suspects {
		as := ablationSuspect{Spec: s.Kind + ":" + s.ID, Verdict: s.Verdict, Claim: s.Claim,
			Counts: fmt.Sprintf("%d/%d flipped, Wilson 95%% [%.2f, %.2f]", s.Flips, s.Samples, s.Wilson95[0], s.Wilson95[1])}
		as.Badge = verdictOfAblation(s.Verdict)
		a.view.Suspects = append(a.view.Suspects, as)
	}
	for i := range a.view.Suspects {
		a.bySpec[a.view.Suspects[i].Spec] = &a.view.Suspects[i]
	}
	return a
}

// of returns the verdict of the spec that removes s: a tool result by its
// tool, a unit by its id.
func (a *ablation) of(s explain.Suspect) *ablationSuspect {
	if a == nil {
		return nil
	}
	spec := explain.Unit(s.Unit)
	if tc := s.Allowed.ToolCall; tc != nil {
		spec = explain.Tool(tc.Name)
	}
	return a.bySpec[spec.String()]
}

// verdictOfAblation is the badge of a probe verdict.
func verdictOfAblation(v string) badge {
	switch v {
	case explain.VerdictConfirmed:
		return badge{"✔", v, "b-bad", "removing it flipped the answer in most reruns"}
	case explain.VerdictNotConfirmed:
		return badge{"○", v, "b-ok", "removing it did not flip the answer"}
	case explain.VerdictInconclusive:
		return badge{"?", v, "b-warn", "some reruns flipped, not most"}
	}
	return badge{"•", v, "b-none", ""}
}

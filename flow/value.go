// Values: deep merge of object patches and the JSON normalisation that keeps
// live values equal to their replay.

package flow

import (
	"encoding/json"
	"fmt"
)

// normalizePatch turns a merge patch into a JSON object decoded as
// map[string]any, so the live merged value equals the replayed one.
func normalizePatch(patch any) (map[string]any, error) {
	b, err := json.Marshal(patch)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, fmt.Errorf("not a JSON object (%T)", patch)
	}
	return m, nil
}

// deepMerge returns base with patch merged in: nested objects merge
// recursively; anything else in the patch replaces. Neither input is
// modified; untouched sub-objects are shared.
func deepMerge(base, patch map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(patch))
	for k, v := range base {
		out[k] = v
	}
	for k, pv := range patch {
		pm, pIsMap := pv.(map[string]any)
		bm, bIsMap := out[k].(map[string]any)
		if pIsMap && bIsMap {
			out[k] = deepMerge(bm, pm)
			continue
		}
		out[k] = pv
	}
	return out
}

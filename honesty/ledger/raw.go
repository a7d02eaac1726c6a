// This file reads the one field every foreign row is expected to share, its turn.

package ledger

import (
	"encoding/json"
	"math"
)

// rawTurn reads "turn" from a foreign row's JSON.
func rawTurn(raw json.RawMessage) (int, bool) {
	var head struct {
		Turn *float64 `json:"turn"`
	}
	if json.Unmarshal(raw, &head) != nil || head.Turn == nil || *head.Turn != math.Trunc(*head.Turn) {
		return 0, false
	}
	return int(*head.Turn), true
}

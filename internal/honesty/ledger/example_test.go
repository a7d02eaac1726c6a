// Runnable example: the checkpoint door.

package ledger_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	ledgerops "github.com/agentfootprint/agentfootprint-go/internal/honesty/ledger"
)

// A checkpoint whose second row was edited to claim a better verdict is refused, naming the row.
func ExampleDoor_Admit() {
	checkpoint := json.RawMessage(`[
	 {"kind":"period","turn":1,"toolCallId":"c1","toolName":"backup_runs","iteration":1,"verdict":"not-held"},
	 {"kind":"period","turn":1,"toolCallId":"c2","toolName":"backup_runs","iteration":1,"verdict":"fine"}]`)
	_, err := ledgerops.StandardDoor().Admit(checkpoint)
	var re *ledger.RowError
	if errors.As(err, &re) {
		fmt.Println(re.Index, re.Kind)
	}
	// Output:
	// 1 period
}

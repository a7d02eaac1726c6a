// A tool is safe for concurrent use: many calls validate and run at once.

package toolrun

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
)

func TestConcurrentInvoke(t *testing.T) {
	d := newOrderTool(t).Declaration()
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				o := Invoke(context.Background(), d, benchArgs, "")
				if o.Err != nil || o.Rejection != nil || o.Output.Value != "placed 3 lines for c-1042" {
					errs <- "valid call failed"
					return
				}
				if rej := Validate(d, json.RawMessage(`{"customer":{}}`), ""); rej == nil || rej.Total != 2 {
					errs <- "invalid call not rejected"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// This file shows canonicalization as a runnable example.

package jcs_test

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
)

func ExampleCanonicalize() {
	out, err := jcs.Canonicalize([]byte(`{ "b": [1.50, 1E21, 1e-7], "a": "<&>\u00e9", "\ud83d\ude00": 0, "\uff21": -0.0 }`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output: {"a":"<&>é","b":[1.5,1e+21,1e-7],"😀":0,"Ａ":0}
}

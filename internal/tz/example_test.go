package tz_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

func ExampleParse() {
	z, err := tz.Parse("America/Los_Angeles")
	fmt.Println(z.Name(), err)

	_, err = tz.Parse("EST")
	var ze *tz.Error
	fmt.Println(errors.As(err, &ze) && ze.Kind == tz.ZoneAbbreviation)
	fmt.Println(err)
	// Output:
	// America/Los_Angeles <nil>
	// true
	// clock: zone "EST" is an abbreviation, which names no place and no daylight-saving rule; use UTC or an IANA Area/Location such as America/New_York
}

func ExampleZone_Wall() {
	z, _ := tz.Parse("America/Los_Angeles")
	t, _ := z.Wall(2026, time.October, 9, 8, 40, 0, 0)
	fmt.Println(t.UTC().Format(time.RFC3339Nano))
	_, err := z.Wall(2026, time.March, 8, 2, 30, 0, 0) // the clocks skip 02:00–03:00
	fmt.Println(err)
	// Output:
	// 2026-10-09T15:40:00Z
	// clock: 2026-03-08 02:30:00 does not exist in America/Los_Angeles (the clocks skip it); give the instant with its offset
}

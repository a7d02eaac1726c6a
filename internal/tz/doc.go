// Package tz validates the time zones a person can name (UTC or an IANA Area/Location name
// in the tz database Go ships) and turns a wall time in such a zone into an instant.
//
// Parse refuses abbreviations, bare offsets and the server's own zone, each with an Error
// saying which rule refused the name; Zone.Wall refuses wall times that fall in a DST gap or
// fold. The package embeds the tz database (time/tzdata), so a host without one gives the
// same answers. It is the framework's; an app hands a zone name to the agent as a string
// (clock.Given.Zone) and the agent refuses a name Parse refuses.
package tz

//go:generate go run gen_tznames.go

// This file gives the package's external tests the unexported names they check.

package otelexport

// MaxEvents is the most events one export takes.
const MaxEvents = maxEvents

// ContentOf reports whether x exports message content.
func ContentOf(x *Exporter) bool { return x.content }

// This file gives the package's external tests the unexported names they check.

package otelexport

import "github.com/agentfootprint/agentfootprint-go/event"

// MaxEvents is the most events one export takes.
const MaxEvents = maxEvents

// ContentOf reports whether x exports message content.
func ContentOf(x *Exporter) bool { return x.content }

// Listen hands o one event, as an agent's dispatcher would.
func Listen(o *Observer, e event.Event) { o.listen(e) }

// This file holds the refusal a door returns for a malformed declaration.

package coverage

import (
	"errors"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// Refusal is the error a door returns for a malformed declaration. Field is the dot path of the
// fault ("checked[0].short", "period.queried.from"), spelled as the door reads it (camelCase); the
// empty string means the declaration as a whole. Its text is "refused: " ([wire.RefusedPrefix])
// followed by Message, so a refusal returned from a tool reads the same to the model whichever
// language minted it.
type Refusal struct {
	Field   string
	Message string
}

// Error returns "refused: " followed by the message.
func (r *Refusal) Error() string { return wire.RefusedPrefix + r.Message }

// refusalOf turns the engine's refusal into this package's; any other error comes back as is.
func refusalOf(err error) error {
	var r *engine.Refusal
	if errors.As(err, &r) {
		return &Refusal{Field: r.Field, Message: r.Message}
	}
	return err
}

// This file names, for the engine's own code, the ordered JSON object and codec of coverage/wire,
// so the rules read as they did when the object lived here.

package engine

import cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// Object is the wire's ordered JSON object.
type Object = cw.Object

// Member is one key and value of an [Object].
type Member = cw.Member

// DecodeJSON decodes one JSON value keeping key order and string bytes (see cw.DecodeJSON).
func DecodeJSON(data []byte) (any, error) { return cw.DecodeJSON(data) }

// Marshal encodes v compactly, keeping string bytes (see cw.Marshal).
func Marshal(v any) ([]byte, error) { return cw.Marshal(v) }

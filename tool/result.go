// This file holds what a tool may return besides plain data: a Result
// stating a status next to its content. How a return value is read and
// served is package tool/toolrun's.

package tool

// Result lets a tool state a status next to its content. A tool that
// returns Result (or *Result) is served Content; Status rides along to the
// record and the tools.result event. Any other return value is data and is
// served byte for byte.
type Result struct {
	// Content is what the model reads. A string is served as written;
	// json.RawMessage and []byte are served as their bytes; anything else
	// is marshalled to JSON.
	Content any `json:"content"`
	// Status is one of the seven statuses, or empty for "not stated".
	// A Result whose Status is not empty and not one of the seven is
	// refused when the call is served.
	Status Status `json:"status,omitempty"`
}

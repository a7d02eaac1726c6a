// Package wiretest replays recorded real API traffic for the provider
// clients' tests: it finds the shared fixture folder, reads the two
// recording formats kept there (go-vcr v1 YAML cassettes and httprr trace
// v1), and serves the recorded replies from an httptest server.
//
// There is no approved YAML dependency, so yaml.go holds a small reader
// for the subset the cassettes use; it is fuzzed like every parser here.
package wiretest

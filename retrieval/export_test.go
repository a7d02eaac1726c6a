// This file gives the package's external tests the unexported names they check.

package retrieval

// Pick fills a retrieval record's candidates from a search's results.
var Pick = pick

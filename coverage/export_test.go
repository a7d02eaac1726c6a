package coverage

// resetWarnings forgets every warning issued so far: the ledger is process-wide and warn-once.
func resetWarnings() { warned.reset() }

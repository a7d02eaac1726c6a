// Catalog: the entry each unit gets in the run's contextCatalog, its BORN
// record, written once per run.

package contextunits

import "github.com/agentfootprint/agentfootprint-go/inject"

// CatalogEntry returns the unit's catalog entry with its text inline: its id,
// kind, slot, declared trigger, the hash and length of its text, where it was
// defined, its priority and version.
func CatalogEntry(u *inject.Unit) inject.CatalogEntry {
	d := u.Definition()
	td := &inject.TriggerDecl{Kind: d.Trigger}
	switch d.Trigger {
	case inject.TriggerRule:
		td.Label = d.Rule.Label
	case inject.TriggerOnToolReturn:
		td.Tools = d.Tools
		if d.ToolPattern != nil {
			td.Tools = append(td.Tools, "/"+d.ToolPattern.String()+"/")
		}
	case inject.TriggerRetrieved:
		td.Label = d.Retrieval.Name()
	case inject.TriggerLLMActivated:
		td.Tools = d.SkillTools
	}
	site := d.DefinedAt
	return inject.CatalogEntry{
		ID: d.ID, Kind: string(d.Kind), Slot: d.Slot, Trigger: td,
		ContentHash: d.ContentHash, Chars: d.Chars, DefinedAt: &site, Content: d.Text,
		Priority: d.Priority, Version: d.Version,
	}
}

// Package inject defines context units: the pieces of text an agent places in
// front of its model besides the conversation itself.
//
// A unit is one primitive, a slot crossed with a trigger. Its kind says what it
// is for (a Fact states something true, Steering shapes tone and conduct, an
// Instruction applies under a rule, a Skill is a body the model can load); its
// slot says where it lands (the system prompt, or a message); its trigger says
// when it fires (always, when a rule over state holds, or when a named tool
// has just returned).
//
// Every unit is born tracked. The constructor records the unit's id, kind,
// the SHA-256 of its text and the file, line and function that called it, so a
// run record can prove which line of code authored a piece of the prompt:
//
//	refunds, err := inject.Fact("refund-window", "Refunds are accepted for 30 days.")
//	if err != nil { … } // a malformed id, an empty text or a bad option, named
//	vip := inject.Must(inject.Instruction("vip-tone", "Address the customer by name.",
//		inject.Rule{Label: "customer is VIP", When: func(r flow.Reader) bool {
//			v, _ := r.Get("userMessage")
//			s, _ := v.(string)
//			return strings.Contains(s, "VIP")
//		}}))
//	a, err := agent.New(provider, agent.WithUnits(refunds, vip))
//
// Each iteration the agent evaluates every unit and records why it fired or
// did not, as one [Entry] per unit in the run record: a rule's [Evidence]
// lists each state key its predicate read, with the stage and commit that
// last wrote it. A predicate must read state through the reader it is given;
// values captured in a closure are invisible to the record. Once per run the
// agent also records each unit's [CatalogEntry]: what it is, the hash of its
// text and where it was defined ([Unit.Definition] has the same facts as Go
// values).
package inject

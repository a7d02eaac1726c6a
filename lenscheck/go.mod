module github.com/agentfootprint/agentfootprint-go/lenscheck

go 1.26.0

require (
	github.com/agentfootprint/agentfootprint-go v0.0.0
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.41.0 // indirect
)

replace github.com/agentfootprint/agentfootprint-go => ../
